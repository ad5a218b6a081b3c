"""The one writer of ``variants`` and ``variant_history``.

Two stages make variants: importing (the standard text and the renderings that arrive with
the questions) and translation (machine drafts and every reviewer edit). The writer sits in
the workspace, the lowest stage both import, as ``human_annotations`` does: importing may not
import translation (``engine-stages`` in ``.importlinter``), and a function handed down to
``write_question_set`` would have to travel through every caller, the bias probes' conversion
among them. The callers keep their own rules (what a draft may overwrite, who may edit); these
functions only write, inside the caller's transaction, so a variant and its history row are
stored together or not at all.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

# The statuses of a dialect variant (the CHECK on variants.status in schema.py), in review order.
VARIANT_STATUSES = ("draft", "reviewed", "gold", "flagged", "rejected")
# What an import may give the renderings it brings: 'flagged' and 'rejected' are a reviewer's
# verdicts on a text already in the workspace, never a property a file can claim.
IMPORTED_VARIANT_STATUSES = tuple(s for s in VARIANT_STATUSES if s not in {"flagged", "rejected"})


def insert_source_variants(conn: sqlite3.Connection, rows: Iterable[tuple], now: str) -> int:
    """Add the variants that arrive with the questions, each ``(question_id, dialect, script,
    text, status)`` with provenance ``source``; one already there is kept. Returns how many
    were new."""
    before = conn.total_changes
    conn.executemany(
        "INSERT INTO variants(question_id, dialect, script, text, provenance, status, "
        "updated_at) VALUES (?, ?, ?, ?, 'source', ?, ?) "
        "ON CONFLICT(question_id, dialect, script) DO NOTHING",
        [(*r, now) for r in rows],
    )
    return conn.total_changes - before


def upsert_machine_draft(
    conn: sqlite3.Connection,
    *,
    question_id: int,
    dialect: str,
    text: str,
    exemplar_ids: str,
    retrieval: str,
    run_id: int,
    now: str,
) -> int:
    """Store a machine draft in Bengali script, replacing an older machine draft but never a
    variant a person touched; returns the variant's id."""
    conn.execute(
        "INSERT INTO variants(question_id, dialect, script, text, provenance, status, "
        "exemplar_ids, retrieval, run_id, updated_at) "
        "VALUES (?, ?, 'bengali', ?, 'machine', 'draft', ?, ?, ?, ?) "
        "ON CONFLICT(question_id, dialect, script) DO UPDATE SET text = excluded.text, "
        "exemplar_ids = excluded.exemplar_ids, retrieval = excluded.retrieval, "
        "run_id = excluded.run_id, updated_at = excluded.updated_at "
        "WHERE variants.provenance = 'machine' AND variants.status = 'draft'",
        (question_id, dialect, text, exemplar_ids, retrieval, run_id, now),
    )
    return conn.execute(
        "SELECT id FROM variants WHERE question_id = ? AND dialect = ? AND script = 'bengali'",
        (question_id, dialect),
    ).fetchone()[0]


def update_variant(
    conn: sqlite3.Connection,
    variant_id: int,
    *,
    text: str,
    status: str,
    provenance: str,
    comment: str,
    reviewer: str,
    now: str,
) -> None:
    """Record a reviewer's edit on the variant itself (its history row: :func:`add_history`)."""
    conn.execute(
        "UPDATE variants SET text = ?, status = ?, provenance = ?, comment = ?, reviewer = ?, "
        "updated_at = ? WHERE id = ?",
        (text, status, provenance, comment, reviewer, now, variant_id),
    )


def add_history(
    conn: sqlite3.Connection,
    variant_id: int,
    *,
    at: str,
    actor: str,
    action: str,
    old_text: str | None,
    new_text: str,
    old_status: str | None,
    new_status: str,
    comment: str | None,
) -> None:
    """Append one row to the variant's history: who did what, old and new text and status."""
    conn.execute(
        "INSERT INTO variant_history(variant_id, at, actor, action, old_text, new_text, "
        "old_status, new_status, comment) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (variant_id, at, actor, action, old_text, new_text, old_status, new_status, comment),
    )
