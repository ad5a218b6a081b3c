"""What the study dialogs offer: question sets, regional dialects, models (default first),
and the review statuses a dialect variant can have."""

from __future__ import annotations

from engine.workspace.store import Workspace

# The statuses of a dialect variant (the CHECK on variants.status in schema.py), in review order.
VARIANT_STATUSES = ("draft", "reviewed", "gold", "flagged", "rejected")


def study_choices(ws: Workspace) -> dict:
    """What the dialogs offer: question sets, regional dialects, models (default first)."""
    return {
        "question_sets": ws.query(
            "SELECT s.name, count(q.id) AS questions FROM question_sets s "
            "LEFT JOIN questions q ON q.set_id = s.id GROUP BY s.id ORDER BY s.id"
        ),
        "dialects": ws.query(
            "SELECT code, name_bn, name_en FROM dialects WHERE code != 'standard' ORDER BY code"
        ),
        "models": ws.query(
            "SELECT id, name, kind, is_default FROM models ORDER BY is_default DESC, name"
        ),
        "corpus_pairs": ws.scalar("SELECT count(*) FROM sentence_pairs") or 0,
        "variant_counts": {
            r["status"]: r["n"]
            for r in ws.query(
                "SELECT status, count(*) AS n FROM variants WHERE dialect != 'standard' "
                "GROUP BY status"
            )
        },
    }
