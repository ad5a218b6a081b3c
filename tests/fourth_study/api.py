"""The field-notes study's front door: what its command and its panel use (as a stage's
``engine/<stage>/api.py``); background work goes through engine.steps.tasks."""

from __future__ import annotations

from typing import TypedDict

from engine.workspace.store import Workspace
from tests.fourth_study.notes import (
    add_note,
    count_notes,
    counts_by_origin,
    import_notes_file,
)
from tests.fourth_study.request import GIST_KIND, GistRequest, GistResult

__all__ = [
    "GistRequest",
    "GistResult",
    "NoteGist",
    "add_note",
    "count_notes",
    "counts_by_origin",
    "gists",
    "import_notes_file",
]


class NoteGist(TypedDict):
    model: str
    note: int
    text: str


def gists(ws: Workspace) -> list[NoteGist]:
    """Every model's reply to every note it read, in note order."""
    rows = ws.query(
        "SELECT m.name AS model, CAST(substr(d.item_key, 2) AS INTEGER) AS note, d.text "
        "FROM responses d JOIN runs r ON r.id = d.run_id JOIN models m ON m.id = r.model_id "
        "WHERE r.kind = ? AND d.status = 'done' ORDER BY note, model",
        (GIST_KIND,),
    )
    return [NoteGist(model=r["model"], note=r["note"], text=r["text"]) for r in rows]
