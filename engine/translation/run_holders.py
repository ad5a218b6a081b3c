"""What keeps a translation run that stored no response: the variants it drafted
(registered with :func:`engine.llm.runs.register_run_holder` by this package)."""

from __future__ import annotations

import sqlite3


def holds_variants(conn: sqlite3.Connection, run_id: int) -> bool:
    """Whether a variant names the run as the one that drafted it."""
    return conn.execute("SELECT 1 FROM variants WHERE run_id = ?", (run_id,)).fetchone() is not None
