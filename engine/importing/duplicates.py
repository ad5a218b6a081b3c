"""A second import of content the workspace already holds under another name.

Imports are idempotent within one set (the same pair or question adds nothing), but the
same file imported under a second name would make a second copy: a corpus of 363 pairs
became 726, and retrieval and every count weighed each pair twice. Before writing, the
importer asks whether another set already holds *every* record of the file; if so the
import is refused (nothing written) unless the user asked for a second copy explicitly.
Content, not a file hash, is compared, so a re-saved or re-exported copy is caught too.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.errors import Setting, UserError, setting
from engine.workspace.store import Workspace

# The CLI's way to import a second copy anyway; the import dialog replaces it by its checkbox.
DUPLICATE_HINT = f"import with {setting(Setting.ALLOW_DUPLICATE_CONTENT)}"

# (what the records are, the sets' table, the records' table, their set column, key columns)
_KINDS = {
    "corpus": ("pairs", "corpora", "sentence_pairs", "corpus_id",
               ("dialect", "standard_key", "dialect_key")),
    "questions": ("questions", "question_sets", "questions", "set_id", ("text_key",)),
}  # fmt: skip


class DuplicateContent(UserError):
    """Every record of the file is already in another set of the workspace."""

    def __init__(self, message: str, other: str):
        super().__init__(message)
        self.other = other


def refuse_duplicate_content(
    ws: Workspace,
    kind: str,
    name: str,
    path: str,
    keys: Iterable[tuple],
    *,
    same: dict[str, str] | None = None,
) -> None:
    """Raise :class:`DuplicateContent` when one other set holds every key of this import.
    ``same``: columns of the sets that must match too (a corpus's normalisation)."""
    noun, sets, records, set_col, key_cols = _KINDS[kind]
    keys = set(keys)
    if not keys:
        return
    cols = ", ".join(key_cols)
    conn = ws.conn
    # a temporary table of the file's keys: one indexed join instead of a query per record
    conn.execute(f"CREATE TEMP TABLE IF NOT EXISTS import_keys ({cols})")
    try:
        conn.executemany(f"INSERT INTO import_keys VALUES ({', '.join('?' * len(key_cols))})", keys)
        distinct = " || char(31) || ".join(f"r.{c}" for c in key_cols)
        also = "".join(f" AND s.{column} = ?" for column in same or {})
        held = conn.execute(
            f"SELECT s.name, s.source, count(DISTINCT {distinct}) FROM {records} r "
            f"JOIN import_keys k USING ({cols}) JOIN {sets} s ON s.id = r.{set_col} "
            f"WHERE s.name != ?{also} GROUP BY s.id ORDER BY 3 DESC LIMIT 1",
            (name, *(same or {}).values()),
        ).fetchone()
    finally:
        conn.execute("DROP TABLE import_keys")
    if held and held[2] >= len(keys):
        other, source = held[0], held[1]
        raise DuplicateContent(
            f"{path}: all {len(keys):,} {noun} of this file are already in {kind} '{other}'"
            + (f" (imported from {source})" if source else "")
            + f"; importing them again as '{name}' would hold every one twice. Import it "
            f"under the name '{other}' to add only what is new, or {DUPLICATE_HINT} "
            "if a second copy is really meant",
            other,
        )
