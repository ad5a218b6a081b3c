"""The annotation stage's front door: what the CLI, the panels and the main window call.

Queries and single writes only (background work is in :mod:`engine.annotation.tasks`):
annotators, assignment into batches, the adjudication queue and decisions, agreement,
offline review packages and prediction-powered estimates (the statistics computed with
:class:`AgreementSettings` and :class:`PPISettings`). Front ends import this module
and ``tasks``, never the stage's other modules (.importlinter).
"""

from __future__ import annotations

from engine.annotation.adjudication import ADJUDICATIONS, accept_agreed, adjudicate, item_detail
from engine.annotation.adjudication import queue as adjudication_queue
from engine.annotation.agreement import agreement
from engine.annotation.annotators import add_annotator, list_annotators, set_annotator_dialects
from engine.annotation.assignment import (
    assign,
    batch_id,
    batches,
    candidate_counts,
    candidate_targets,
    latest_batch_id,
    setup_state,
)
from engine.annotation.decisions import inputs_stamp, progress, record_decision
from engine.annotation.items import DEFAULT_SCALE, KINDS, parse_scale
from engine.annotation.packages import SUFFIX as PACKAGE_SUFFIX
from engine.annotation.packages import export_package, import_package, import_packages
from engine.annotation.ppi import draw_subset, ppi_study, scored_judge_runs
from engine.annotation.ppi_active import FLOOR_SHARE as ACTIVE_FLOOR_SHARE
from engine.annotation.ppi_power import PILOT_MIN, LabelsNeeded, labels_needed
from engine.annotation.settings import (
    AGREEMENT,
    DEFAULT_SEED,
    PPI,
    AgreementSettings,
    PPISettings,
)
from engine.annotation.sources import PackageQueue, WorkspaceQueue

__all__ = [
    "ACTIVE_FLOOR_SHARE",
    "ADJUDICATIONS",
    "AGREEMENT",
    "DEFAULT_SCALE",
    "DEFAULT_SEED",
    "KINDS",
    "PACKAGE_SUFFIX",
    "PILOT_MIN",
    "PPI",
    "LabelsNeeded",
    "AgreementSettings",
    "PPISettings",
    "PackageQueue",
    "WorkspaceQueue",
    "accept_agreed",
    "add_annotator",
    "adjudicate",
    "adjudication_queue",
    "agreement",
    "assign",
    "batch_id",
    "batches",
    "candidate_counts",
    "candidate_targets",
    "draw_subset",
    "export_package",
    "import_package",
    "import_packages",
    "record_decision",
    "inputs_stamp",
    "item_detail",
    "labels_needed",
    "latest_batch_id",
    "list_annotators",
    "parse_scale",
    "ppi_study",
    "progress",
    "scored_judge_runs",
    "set_annotator_dialects",
    "setup_state",
]
