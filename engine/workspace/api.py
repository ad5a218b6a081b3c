"""The workspace stage's front door: the workspace file itself, what changed in it, the
choices the study dialogs offer, and the totals the main window shows.

Front ends import this module (and the other stages' ``api``/``tasks``), never the stage's
other modules (.importlinter).
"""

from __future__ import annotations

from engine.workspace.changes import ChangeTracker
from engine.workspace.choices import study_choices, study_counts
from engine.workspace.stages import labelled_codes, model_steps, topics
from engine.workspace.store import Workspace
from engine.workspace.variants import IMPORTED_VARIANT_STATUSES, VARIANT_STATUSES

__all__ = [
    "IMPORTED_VARIANT_STATUSES",
    "VARIANT_STATUSES",
    "ChangeTracker",
    "Workspace",
    "labelled_codes",
    "model_steps",
    "study_choices",
    "study_counts",
    "topics",
]
