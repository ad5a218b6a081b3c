"""An annotation batch on a copy of the sample workspace, for the annotation panels opened
alone (``python -m widgets.annotation.…``): the bundled sample data has no annotators."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

from engine.annotation.annotators import add_annotator
from engine.annotation.assignment import assign
from engine.workspace.store import Workspace


def with_sample_batch(workspace: Workspace) -> Workspace:
    """A throw-away copy of the workspace with two annotators and a blind batch, when the
    workspace has none (the bundled sample data has no annotators)."""
    if workspace.scalar("SELECT count(*) FROM annotation_assignments"):
        return workspace
    copy = Path(tempfile.mkdtemp(prefix="upabhasha-annotation-")) / "sample.sqlite"
    with sqlite3.connect(copy) as target:
        workspace.conn.backup(target)
    target.close()
    ws = Workspace(copy)
    dialects = sorted(ws.dialect_codes() - {"standard"})
    add_annotator(ws, "Rina", dialects)
    add_annotator(ws, "Karim", dialects)
    assign(ws, "sample", "variant", [], overlap=0.3, seed=1, blind_draft=True)
    return ws
