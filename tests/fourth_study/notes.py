"""The field-notes study's engine: the one writer of ``field_notes``."""

from __future__ import annotations

from pathlib import Path

from engine.workspace.api import Workspace


def add_note(ws: Workspace, text: str) -> int:
    with ws.transaction() as conn:
        return conn.execute("INSERT INTO field_notes(text) VALUES (?)", (text,)).lastrowid


def count_notes(ws: Workspace) -> int:
    return ws.scalar("SELECT count(*) FROM field_notes")


def import_notes_file(workspace_path: str, path: str, options: dict, **_progress) -> dict:
    """One note per non-empty line (the import dialog's background task); the report has the
    ``name`` and ``inserted`` every import report has."""
    lines = [line.strip() for line in Path(path).read_text(encoding="utf-8").splitlines()]
    notes = [line for line in lines if line]
    with Workspace(workspace_path, create=False) as ws:
        for line in notes:
            add_note(ws, line)
    return {"name": options.get("name") or Path(path).stem, "inserted": len(notes)}
