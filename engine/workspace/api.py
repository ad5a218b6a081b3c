"""The workspace stage's front door: the workspace file itself, what changed in it, the
choices the study dialogs offer, and the totals the main window shows.

Front ends import this module (and the other stages' ``api``/``tasks``), never the stage's
other modules (.importlinter).
"""

from __future__ import annotations

from engine.workspace.changes import ChangeTracker
from engine.workspace.choices import VARIANT_STATUSES, study_choices
from engine.workspace.stages import topics
from engine.workspace.store import Workspace

__all__ = [
    "VARIANT_STATUSES",
    "ChangeTracker",
    "Workspace",
    "study_choices",
    "study_counts",
    "topics",
]


def study_counts(ws: Workspace) -> dict:
    """Questions, dialect variants (all, and gold) and models: the main window's status bar."""
    return ws.query(
        "SELECT (SELECT count(*) FROM questions) AS questions, "
        "(SELECT count(*) FROM variants WHERE dialect != 'standard') AS variants, "
        "(SELECT count(*) FROM variants WHERE status = 'gold' AND dialect != 'standard') AS gold, "
        "(SELECT count(*) FROM models) AS models"
    )[0]
