"""What the workspace keeps of batches: each export (its request, token and manifest), its items
(run, key, target model, body hash, signature, file), the result lines taken in, and the
batch part of each run card (the exports, the estimate, the actual tokens and cost)."""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from typing import Any

from engine.llm.batch.pricing import actual_cost
from engine.llm.runs.run import canonical_json, note_in_card, run_card
from engine.llm.runs.step_request import StepRequest
from engine.workspace.store import Workspace, utcnow


def new_batch(ws: Workspace, request: StepRequest) -> tuple[int, str]:
    token = secrets.token_hex(6)
    with ws.transaction() as conn:
        cur = conn.execute(
            "INSERT INTO llm_batches(token, step, request, created_at) VALUES (?, ?, ?, ?)",
            (token, request.STEP, request.canonical_text(), utcnow()),
        )
    return int(cur.lastrowid or 0), token


def legacy_batches(ws: Workspace) -> list[dict]:
    """Batches exported before batches kept their request: ``id``, ``token``, ``argv``."""
    rows = ws.query(
        "SELECT b.id, b.token, a.argv FROM llm_legacy_batch_argv a "
        "JOIN llm_batches b ON b.id = a.batch_id ORDER BY b.id"
    )
    return [{**row, "argv": json.loads(row["argv"])} for row in rows]


def set_batch_request(ws: Workspace, batch_id: int, request: StepRequest) -> None:
    """Give a batch exported before batches kept their request the request it ran."""
    with ws.transaction() as conn:
        conn.execute(
            "UPDATE llm_batches SET request = ? WHERE id = ?", (request.canonical_text(), batch_id)
        )
        conn.execute("DELETE FROM llm_legacy_batch_argv WHERE batch_id = ?", (batch_id,))


def add_items(ws: Workspace, batch_id: int, items: list[tuple]) -> None:
    """``items``: (run_id, item_key, target_model, body_sha256, signature, file_name)."""
    with ws.transaction() as conn:
        conn.executemany(
            "INSERT INTO llm_batch_items(batch_id, run_id, item_key, target_model, "
            "body_sha256, signature, file_name) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(batch_id, *item) for item in items],
        )


def set_manifest(ws: Workspace, batch_id: int, manifest: Mapping[str, Any]) -> None:
    with ws.transaction() as conn:
        conn.execute(
            "UPDATE llm_batches SET manifest = ? WHERE id = ?",
            (canonical_json(manifest), batch_id),
        )


def batch_of_token(ws: Workspace, token: str) -> dict | None:
    rows = ws.query("SELECT * FROM llm_batches WHERE token = ?", (token,))
    return rows[0] if rows else None


def batch_item(ws: Workspace, batch_id: int, run_id: int, item_key: str) -> dict | None:
    rows = ws.query(
        "SELECT * FROM llm_batch_items WHERE batch_id = ? AND run_id = ? AND item_key = ?",
        (batch_id, run_id, item_key),
    )
    return rows[0] if rows else None


def stored_result(ws: Workspace, batch_id: int, run_id: int, item_key: str) -> str | None:
    """The canonical JSON of the result already kept for this item, or None."""
    return ws.scalar(
        "SELECT body FROM llm_batch_results WHERE batch_id = ? AND run_id = ? AND item_key = ?",
        (batch_id, run_id, item_key),
    )


def store_results(ws: Workspace, rows: list[tuple[int, int, str, dict]]) -> int:
    """Keep result lines ``(batch_id, run_id, item_key, body)``; one already kept stays as
    it is (imports are idempotent). Returns how many were new."""
    now = utcnow()
    with ws.transaction() as conn:
        before = conn.total_changes
        conn.executemany(
            "INSERT OR IGNORE INTO llm_batch_results(batch_id, run_id, item_key, body, "
            "imported_at) VALUES (?, ?, ?, ?, ?)",
            [(b, r, k, canonical_json(body), now) for b, r, k, body in rows],
        )
        return conn.total_changes - before


def replay_results(
    ws: Workspace, run_ids: set[int]
) -> dict[int, dict[str, list[tuple[str, str, dict]]]]:
    """The imported results of these runs, for :class:`engine.llm.endpoints.batch_backends.Replayer`
    (an item exported again, e.g. a retry that asks anew, has one per export)."""
    out: dict[int, dict[str, list[tuple[str, str, dict]]]] = {}
    for run_id in sorted(run_ids):
        rows = ws.query(
            "SELECT r.item_key, i.target_model, i.body_sha256, r.body "
            "FROM llm_batch_results r JOIN llm_batch_items i ON i.batch_id = r.batch_id "
            "AND i.run_id = r.run_id AND i.item_key = r.item_key WHERE r.run_id = ? "
            "ORDER BY r.batch_id",
            (run_id,),
        )
        own = out.setdefault(run_id, {})
        for row in rows:
            own.setdefault(row["item_key"], []).append(
                (row["target_model"], row["body_sha256"], json.loads(row["body"]))
            )
    return out


def batches_with_results(ws: Workspace, batch_ids: set[int]) -> list[dict]:
    """These batches (step, request JSON or None, runs), oldest first."""
    if not batch_ids:
        return []
    marks = ",".join("?" * len(batch_ids))
    rows = ws.query(
        f"SELECT * FROM llm_batches WHERE id IN ({marks}) ORDER BY id", tuple(batch_ids)
    )
    for row in rows:
        row["request"] = json.loads(row["request"]) if row["request"] else None
        row["runs"] = {
            r["run_id"]
            for r in ws.query(
                "SELECT DISTINCT run_id FROM llm_batch_items WHERE batch_id = ?", (row["id"],)
            )
        }
    return rows


def exported_not_done(ws: Workspace, run_ids: set[int]) -> set[tuple[int, str]]:
    """(run, item) of these runs' exported items with no finished response (a result that
    was refused, or none yet)."""
    found: set[tuple[int, str]] = set()
    for run_id in sorted(run_ids):
        found |= {
            (run_id, key)
            for (key,) in ws.conn.execute(
                "SELECT DISTINCT i.item_key FROM llm_batch_items i WHERE i.run_id = ? AND NOT "
                "EXISTS (SELECT 1 FROM responses s WHERE s.run_id = i.run_id AND "
                "s.item_key = i.item_key AND s.status = 'done')",
                (run_id,),
            )
        }
    return found


def note_export(ws: Workspace, run_id: int, export: dict) -> None:
    """Add an export (token, files, items, estimate) to the run card's ``batch.exports``."""
    batch = dict(run_card(ws, run_id).get("batch") or {})
    batch["exports"] = [*batch.get("exports", []), export]
    note_in_card(ws, run_id, "batch", batch)


def note_actual(ws: Workspace, run_id: int) -> dict:
    """The tokens and cost of the run's responses that came from batch results, recorded in
    its card beside the estimate (``batch.actual``)."""
    row = ws.query(
        "SELECT count(*) AS items, ifnull(sum(s.prompt_tokens), 0) AS tokens_in, "
        "ifnull(sum(s.completion_tokens), 0) AS tokens_out FROM responses s "
        "WHERE s.run_id = ? AND s.status = 'done' AND EXISTS (SELECT 1 FROM llm_batch_results r "
        "WHERE r.run_id = s.run_id AND r.item_key = s.item_key)",
        (run_id,),
    )[0]
    model_id = ws.scalar("SELECT model_id FROM runs WHERE id = ?", (run_id,))
    actual = {
        "items": row["items"],
        "input_tokens": row["tokens_in"],
        "output_tokens": row["tokens_out"],
        "cost": actual_cost(ws, model_id, row["tokens_in"], row["tokens_out"])
        if model_id is not None
        else None,
    }
    batch = dict(run_card(ws, run_id).get("batch") or {})
    batch["actual"] = actual
    note_in_card(ws, run_id, "batch", batch)
    return actual
