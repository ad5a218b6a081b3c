"""The judge-validity stage's background work, for the desktop: what the panel lists (the
judge runs and their newest cards), what a suite would decode before it runs (its scope,
read without writing; its time, by decoding a sample as every model step's estimate does),
the suite itself (the request ``upabhasha validity`` builds, run as the request runner runs
every step) and a card's sentence in the interface language."""

from __future__ import annotations

from typing import TypedDict

from engine.judging.store import JudgeRunRow, judge_runs
from engine.llm.runs.estimates import ModelEstimate, estimate_planned, left_to_decode
from engine.llm.types import CancelFn, ProgressFn
from engine.validity.card import DialectValidity, ValidityCard
from engine.validity.figures import sentence
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
    "takeaway",
    "validity_cards_at",
    "validity_overview_at",
]


class ValidityOverview(TypedDict):
    """What the validity panel lists: every judge run (engine.judging.store.judge_runs), the
    newest card of each judge run that has one, and the rubric of each judge run that was
    judged with a rubric other than the bundled one and has it saved beside the workspace
    (judge run id -> the rubric's data; :func:`engine.validity.saved_rubrics.saved_rubrics`)."""

    judge_runs: list[JudgeRunRow]
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


def validity_overview_at(workspace_path: str) -> ValidityOverview:
    with Workspace(workspace_path, create=False) as ws:
        runs = judge_runs(ws)
        return {
            "judge_runs": runs,
            "cards": latest_cards(ws),
            "rubrics": saved_rubrics(ws, [r["run_id"] for r in runs]),
        }


def validity_cards_at(workspace_path: str, judge_run_id: int | None = None) -> list[ValidityCard]:
    """The stored cards (engine.validity.store.validity_cards), newest first."""
    with Workspace(workspace_path, create=False) as ws:
        return validity_cards(ws, judge_run_id)


def plan_validity_at(workspace_path: str, request: ValidityRequest) -> ValidityScope:
    """The suite's scope, planned as a run would plan it; nothing is written."""
    with Workspace(workspace_path, create=False) as ws:
        judge_run, model, items, probes, planned = request.plan(ws)
        per_dialect: dict[str, int] = {}
        for item in items:
            per_dialect[item.dialect] = per_dialect.get(item.dialect, 0) + 1
        return {
            "judge_run": judge_run,
            "model": model["name"],
            "model_id": model["id"],
            "items": per_dialect,
            "probes": len(probes.requests),
            "left": len(left_to_decode(ws, planned, model, None)),
        }


def estimate_validity_at(
    workspace_path: str,
    request: ValidityRequest,
    *,
    sample: int | None = None,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> ModelEstimate | None:
    """The time estimate of the probes left to decode (the judge decodes a sample of them);
    None when cancelled."""
    with Workspace(workspace_path, create=False) as ws:
        _judge_run, model, _items, _probes, planned = request.plan(ws)
        return estimate_planned(
            ws, model, [planned], sample=sample, progress=progress, cancelled=cancelled
        )


def run_validity_at(
    workspace_path: str,
    request: ValidityRequest,
    *,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> ValidityResult:
    """Run the suite (as engine.steps.tasks.run_request_at runs any step): resumable; its
    card is stored once every probe is decoded."""
    with Workspace(workspace_path, create=False) as ws:
        return request.run(ws, progress=progress, cancelled=cancelled)


def takeaway(dialect: DialectValidity, name: str) -> str:
    """The dialect's sentence (engine.validity.figures.sentence) worded now, in the interface
    language and with the dialect's ``name`` as the reader knows it: a card keeps the sentence
    in the language it was computed in."""
    return sentence(name, dialect.families, dialect.noise)
