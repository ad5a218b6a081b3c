"""The samples stage's front door: the bundled sample workspace, the synthetic judged study
(and its live stream of judgments), and a throw-away copy of a workspace with annotators
and a blind batch, so that each panel opens alone with data to show.

Front ends import this module, never the stage's others (.importlinter).
"""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

from engine.annotation.annotators import add_annotator
from engine.annotation.assignment import assign
from engine.samples.study import build_sample_study, demo_stream, sample_study_path
from engine.samples.workspace import build_sample_workspace, sample_workspace_path
from engine.workspace.store import Workspace

__all__ = [
    "build_sample_study",
    "build_sample_workspace",
    "demo_stream",
    "sample_study_path",
    "sample_workspace_path",
    "with_sample_batch",
]


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
