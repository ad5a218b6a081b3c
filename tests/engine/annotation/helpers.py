"""Helpers shared by the annotation tests."""

from __future__ import annotations

from engine.workspace.store import Workspace


def snapshot(ws: Workspace) -> dict:
    """Everything merging may touch, without row ids (which depend on insertion order)."""
    return {
        "decisions": sorted(
            ws.conn.execute(
                "SELECT uid, item_id, annotator_id, decision, text, score, comment, seconds, "
                "item_hash, stale, decided_at, checksum FROM annotation_decisions"
            ).fetchall()
        ),
        "variants": ws.conn.execute("SELECT id, text, status FROM variants ORDER BY id").fetchall(),
        "adjudications": ws.conn.execute(
            "SELECT count(*) FROM annotation_adjudications"
        ).fetchone(),
        "human": ws.conn.execute("SELECT count(*) FROM human_annotations").fetchone(),
    }
