"""Background tasks of the validity panel (Qt-free): each takes the workspace path and opens
its own connection, so it runs in a worker of the bridge. The suite itself is the step's
request (:class:`engine.validity.request.ValidityRequest`, the one ``upabhasha validity``
builds); before it runs, its scope is planned without writing, and its time estimate
calibrates the judge on the probes not decoded yet."""

from __future__ import annotations

from typing import TypedDict

from engine.judging.store import JudgeRunRow, judge_runs, primary_judge
from engine.llm.runs.estimates import ModelEstimate, estimate_planned, left_to_decode
from engine.llm.types import CancelFn, ProgressFn
from engine.validity.card import ValidityCard
from engine.validity.request import ValidityRequest, ValidityResult
from engine.validity.saved_rubrics import saved_rubrics
from engine.validity.store import latest_cards, validity_cards
from engine.workspace.store import Workspace

__all__ = [
    "JudgeRunRow",
    "ValidityOverview",
    "ValidityScope",
    "estimate_validity_at",
    "plan_validity_at",
    "run_validity_at",
    "validity_cards_at",
    "validity_overview_at",
]


class ValidityOverview(TypedDict):
    """What the panel shows of a workspace: the judge runs it can check (the primary's id),
    the newest card of each judge run checked, and the rubric of each judge run judged with
    a rubric other than the bundled one that is saved beside the workspace (judge run id ->
    the rubric's data; engine.validity.saved_rubrics)."""

    judge_runs: list[JudgeRunRow]
    primary: int | None
    cards: list[ValidityCard]
    rubrics: dict[int, dict]


class ValidityScope(TypedDict):
    """What a suite would decode: the judge run checked and its model, the sampled items per
    dialect, the probes in all and those not decoded yet (a stopped suite resumes)."""

    judge_run: int
    model: str
    model_id: int
    items: dict[str, int]
    probes: int
    left: int


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


def plan_validity_at(workspace_path: str, request: ValidityRequest) -> ValidityScope:
    """The suite's scope, planned as a run would plan it; nothing is written."""
    with Workspace(workspace_path, create=False) as ws:
        plan = request.plan(ws)
        per_dialect: dict[str, int] = {}
        for item in plan.items:
            per_dialect[item.dialect] = per_dialect.get(item.dialect, 0) + 1
        return {
            "judge_run": plan.judge_run,
            "model": plan.model["name"],
            "model_id": plan.model["id"],
            "items": per_dialect,
            "probes": len(plan.probes.requests),
            "left": len(left_to_decode(ws, plan.planned, plan.model, None)),
        }


def validity_overview_at(workspace_path: str) -> ValidityOverview:
    with Workspace(workspace_path, create=False) as ws:
        runs = judge_runs(ws)
        return {
            "judge_runs": runs,
            "primary": primary_judge(ws),
            "cards": latest_cards(ws),
            "rubrics": saved_rubrics(ws, [r["run_id"] for r in runs]),
        }


def validity_cards_at(workspace_path: str, judge_run_id: int | None = None) -> list[ValidityCard]:
    """The stored cards (engine.validity.store.validity_cards), newest first."""
    with Workspace(workspace_path, create=False) as ws:
        return validity_cards(ws, judge_run_id)
