"""The annotation stage's background entry points (run through the GUI's task bridge).

Each takes the workspace path and plain values and opens its own connection, so it can run
on a background lane without sharing the GUI thread's connection.
"""

from __future__ import annotations

from engine.annotation.agreement import AgreementReportDict, agreement
from engine.annotation.api import latest_batch_id
from engine.annotation.assignment import AssignmentResult, assign
from engine.annotation.decisions import AnnotatorProgress, inputs_stamp, progress
from engine.annotation.packages import PackageExport, export_package, import_packages
from engine.annotation.ppi import PPIStudy, SubsetDraw, draw_subset, ppi_study
from engine.annotation.settings import AGREEMENT, PPI, AgreementSettings, PPISettings
from engine.workspace.store import Workspace

__all__ = [
    "agreement_at",
    "assign_at",
    "draw_subset_at",
    "export_package_at",
    "import_packages_at",
    "ppi_study_at",
]


class AgreementView(AgreementReportDict):
    """:func:`agreement_at`: the agreement report, each annotator's progress, and the
    stamp of the inputs it was computed from."""

    progress: list[AnnotatorProgress]
    inputs_stamp: str


def agreement_at(workspace_path: str, settings: AgreementSettings = AGREEMENT) -> AgreementView:
    """For background lanes: the report (``upabhasha agreement``'s, with the same
    ``settings``) plus per-annotator progress, from a file path."""
    with Workspace(workspace_path, create=False) as ws:
        stamp = inputs_stamp(ws)  # before the read: a write meanwhile shows as out of date
        report = agreement(ws, settings=settings).as_dict()
        return {**report, "progress": progress(ws), "inputs_stamp": stamp}


def ppi_study_at(workspace_path: str, settings: PPISettings = PPI) -> PPIStudy | None:
    """For background lanes: the study of the latest PPI batch (``upabhasha ppi``'s, with
    the same ``settings``), or None when there is none."""
    with Workspace(workspace_path, create=False) as ws:
        batch = latest_batch_id(ws, "ppi")
        return None if batch is None else ppi_study(ws, batch, settings)


def export_package_at(workspace_path: str, annotator: str, out: str) -> PackageExport:
    with Workspace(workspace_path, create=False) as ws:
        return export_package(ws, annotator, out)


def import_packages_at(workspace_path: str, paths: list[str], progress=None, cancelled=None):
    """Merge packages, all or none (every package is checked before any is merged)."""
    with Workspace(workspace_path, create=False) as ws:
        return import_packages(ws, paths, progress=progress, cancelled=cancelled)


def assign_at(
    workspace_path: str, name: str, kind: str, annotators: list[str], options: dict
) -> AssignmentResult:
    """A new batch (:func:`~engine.annotation.assignment.assign`, one transaction) on the
    writer lane: a paper-scale study's batch is long enough that the GUI thread should not wait it out.
    ``options``: assign's keywords (a dict, so the bridge adds no ``progress`` to them)."""
    with Workspace(workspace_path, create=False) as ws:
        return assign(ws, name, kind, annotators, **options)


def draw_subset_at(
    workspace_path: str, name: str, judge_run: int, annotators: list[str], options: dict
) -> SubsetDraw:
    """A human-scoring draw (:func:`~engine.annotation.ppi.draw_subset`) on the writer lane."""
    with Workspace(workspace_path, create=False) as ws:
        return draw_subset(ws, name, judge_run, annotators, **options)
