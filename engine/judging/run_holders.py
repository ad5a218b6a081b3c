"""What keeps a judge run that stored no response: the judgments that point at it
(registered with :func:`engine.llm.runs.register_run_holder` by this package)."""

from __future__ import annotations

import sqlite3


def holds_judgments(conn: sqlite3.Connection, run_id: int) -> bool:
    """Whether a judgment points at the run."""
    return (
        conn.execute("SELECT 1 FROM judgments WHERE run_id = ?", (run_id,)).fetchone() is not None
    )
