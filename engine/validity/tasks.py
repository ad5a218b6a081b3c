"""Background tasks of the validity panel (Qt-free): each takes the workspace path and opens
its own connection, so it runs in a worker of the bridge. The suite itself is the step's
request (:class:`engine.validity.request.ValidityRequest`, the one ``upabhasha validity``
builds); its time estimate calibrates the judge on the probes not decoded yet."""

from __future__ import annotations

from typing import TypedDict

from engine.judging.store import JudgeRunRow, judge_runs, primary_judge
from engine.llm.runs.estimates import ModelEstimate, estimate_planned
from engine.llm.types import CancelFn, ProgressFn
from engine.validity.card import ValidityCard
from engine.validity.request import ValidityRequest, ValidityResult
from engine.validity.store import latest_cards
from engine.workspace.store import Workspace

__all__ = [
    "ValidityOverview",
    "estimate_validity_at",
    "run_validity_at",
    "validity_overview_at",
]


class ValidityOverview(TypedDict):
    """What the panel shows of a workspace: the judge runs it can check (the primary's id),
    and the newest card of each judge run checked."""

    judge_runs: list[JudgeRunRow]
    primary: int | None
    cards: list[ValidityCard]


def run_validity_at(
    workspace_path: str,
    request: ValidityRequest,
    *,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> ValidityResult:
    """Run (or resume) the suite ``request`` asks for."""
    with Workspace(workspace_path, create=False) as ws:
        return request.run(ws, progress=progress, cancelled=cancelled)


def estimate_validity_at(
    workspace_path: str,
    request: ValidityRequest,
    *,
    sample: int | None = None,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> ModelEstimate | None:
    """The time estimate of :func:`run_validity_at` (the probes no stored reply covers);
    nothing is written. None when cancelled."""
    with Workspace(workspace_path, create=False) as ws:
        plan = request.plan(ws)
        return estimate_planned(
            ws, plan.model, [plan.planned], sample=sample, progress=progress, cancelled=cancelled
        )


def validity_overview_at(workspace_path: str) -> ValidityOverview:
    with Workspace(workspace_path, create=False) as ws:
        return {
            "judge_runs": judge_runs(ws),
            "primary": primary_judge(ws),
            "cards": latest_cards(ws),
        }
