"""Reads of a run's stored responses that the front ends show (the CLI's ``run`` table)."""

from __future__ import annotations

from engine.workspace.store import Workspace


def run_responses(ws: Workspace, run_id: int) -> list[dict]:
    """The responses of one run: key, status, text, error, attempts and completion tokens."""
    return ws.query(
        "SELECT item_key AS key, status, text, error, attempts, completion_tokens "
        "FROM responses WHERE run_id = ?",
        (run_id,),
    )
