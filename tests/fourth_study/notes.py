"""The field-notes study's engine: the one writer of ``field_notes``."""

from __future__ import annotations

from pathlib import Path

from engine.workspace.api import Workspace


def add_note(ws: Workspace, text: str, origin: str = "typed") -> int:
    with ws.transaction() as conn:
        sql = "INSERT INTO field_notes(text, origin) VALUES (?, ?)"
        return conn.execute(sql, (text, origin)).lastrowid


def count_notes(ws: Workspace) -> int:
    return ws.scalar("SELECT count(*) FROM field_notes")


def counts_by_origin(ws: Workspace) -> dict[str, int]:
    """origin code ('typed', 'imported') -> how many notes came that way."""
    sql = "SELECT origin, count(*) FROM field_notes GROUP BY origin ORDER BY origin DESC"
    return dict(ws.conn.execute(sql).fetchall())


def import_notes_file(workspace_path: str, path: str, options: dict, **_progress) -> dict:
    """One note per non-empty line (the import dialog's background task); the report has the
    ``name`` and ``inserted`` every import report has."""
    lines = [line.strip() for line in Path(path).read_text(encoding="utf-8").splitlines()]
    notes = [line for line in lines if line]
    with Workspace(workspace_path, create=False) as ws:
        for line in notes:
            add_note(ws, line, "imported")
    return {"name": options.get("name") or Path(path).stem, "inserted": len(notes)}
