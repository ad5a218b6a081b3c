"""A job's time estimate before it runs, for the GUI's study dialogs (engine.llm.planning.planner).

A stage builds its job's runs in its own function (``generate_answers``, ``run_probes``,
``run_task``: each hands them to :func:`engine.llm.runs.model_runs.run_models`). So that the
estimate covers exactly what a run would decode, the stage function is called unchanged
inside :func:`capture_plans`: ``run_models`` then records the planned runs instead of
running them (and returns no summaries), and :func:`estimate_planned` calibrates each model
on what is left of them. Nothing is written: no run row is opened, nothing is stored.

What is left is what :func:`engine.llm.runs.jobs.run_job` would decode: the items without a
finished response in the run that :func:`~engine.llm.runs.run.open_run` would resume, with the
finished neighbours of a batch-plan group that has anything left (decoded again for the
plan). Replies the response cache would serve are counted as decoded (an over-estimate).
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
from collections.abc import Iterator
from typing import Any, NotRequired, TypedDict

from engine.llm.planning.batch_plan import plan_groups, plan_size
from engine.llm.planning.planner import Calibration, CalibrationCancelled, calibrate, estimate
from engine.llm.planning.schedule_choice import CANDIDATE_REFILLS
from engine.llm.runs.jobs import ESTIMATE_MIN_ITEMS
from engine.llm.runs.run import existing_run, past_errors, planned_schedule
from engine.llm.runtime.factory import open_backend
from engine.llm.types import CancelFn, ProgressFn, Request
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)

# the planned runs recorded by run_models while capture_plans is active: (model, run)
_captured: contextvars.ContextVar[list | None] = contextvars.ContextVar(
    "captured_plans", default=None
)


@contextlib.contextmanager
def capture_plans() -> Iterator[list]:
    """Within this block ``run_models`` records its ``(model row, PlannedRun)`` pairs in the
    list this yields instead of running them."""
    plans: list = []
    token = _captured.set(plans)
    try:
        yield plans
    finally:
        _captured.reset(token)


def capturing() -> list | None:
    """The list of an active :func:`capture_plans` (``run_models`` asks), else None."""
    return _captured.get()


def left_to_decode(ws: Workspace, planned, model: dict, size: int | None) -> list[Request]:
    """What :func:`engine.llm.runs.jobs.run_job` would decode of ``planned`` (module docstring)."""
    run_id = existing_run(ws, planned.kind, model, planned.card)
    done: set[str] = set()
    if run_id is not None:
        done = {
            key
            for (key,) in ws.conn.execute(
                "SELECT item_key FROM responses WHERE run_id = ? AND status = 'done'", (run_id,)
            )
        }
    if not size:
        return [r for r in planned.requests if r.key not in done]
    groups = plan_groups(list(planned.requests), size)
    return [r for g in groups if any(r.key not in done for r in g) for r in g]


class ModelEstimate(TypedDict):
    """:func:`estimate_planned`: one model's items left to decode and, when there are any,
    the estimate (``planner.Estimate``'s fields, ``tokens``, the calibration, a line of
    ``text`` and the refill ``schedule`` a local model decodes with)."""

    model: str
    model_id: int
    items: int
    left: NotRequired[int]  # set on every estimate returned
    prompt_chars: NotRequired[int]
    output_tokens: NotRequired[int]
    output_tokens_low: NotRequired[int]
    output_tokens_high: NotRequired[int]
    seconds: NotRequired[float]
    seconds_low: NotRequired[float]
    seconds_high: NotRequired[float]
    prompt_tokens: NotRequired[int]
    noise: NotRequired[float]
    model_error: NotRequired[float]
    past_runs: NotRequired[int]
    tokens: NotRequired[int]
    calibration: NotRequired[dict[str, Any]]
    text: NotRequired[str]
    schedule: NotRequired[dict[str, Any]]


def estimate_planned(
    ws: Workspace,
    model: dict,
    planned_runs: list,
    *,
    sample: int | None = None,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> ModelEstimate | None:
    """One model's estimate for ``planned_runs`` (one calibration over all of them: they
    share the loaded model); None when cancelled. ``sample``: the calibration's items
    (default: one batch of the backend, :func:`engine.llm.planning.planner.sample_size`)."""
    result: ModelEstimate = {"model": model["name"], "model_id": model["id"], "items": 0}
    if not planned_runs:
        return {**result, "left": 0}
    first = planned_runs[0]
    schedule, choice = planned_schedule(ws, first.kind, model, first.card)
    backend = open_backend(model, **schedule)
    try:
        size = plan_size(backend)
        todo = [r for p in planned_runs for r in left_to_decode(ws, p, model, size)]
        result["left"] = len(todo)
        if not todo:
            return result
        # what the job would do: a fresh run of a kind without a choice on this machine
        # compares the schedules when it is large enough to calibrate (engine.llm.runs.jobs)
        compare = choice.get("by") == "default" and len(todo) >= ESTIMATE_MIN_ITEMS
        try:
            cal = calibrate(
                backend,
                todo,
                sample,
                refills=CANDIDATE_REFILLS if compare else (),
                progress=progress,
                cancelled=cancelled,
            )
        except CalibrationCancelled:
            return None
    finally:
        backend.close()
    est = estimate(todo, cal, past_errors(ws, model["id"]))
    log.info("estimate for %s: %s", model["name"], est.describe())
    return {
        **result,
        **est.as_dict(),
        "tokens": est.tokens,
        "calibration": cal.as_dict(),
        "text": est.describe(),
        **_schedule_note(schedule, choice, cal),
    }


def _schedule_note(schedule: dict, choice: dict, cal: Calibration) -> dict:
    """The refill the job would decode with, and how it is decided (a local model's)."""
    if cal.refill is not None:
        timings = {str(k): v for k, v in cal.schedules.items()}
        return {"schedule": {"refill": cal.refill, "by": "calibration", "timings": timings}}
    if not schedule.get("refill"):
        return {}
    return {"schedule": {"refill": schedule["refill"], "by": choice.get("by", "set")}}


def estimate_captured(
    ws: Workspace,
    plans: list,
    *,
    sample: int | None = None,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> list[ModelEstimate] | None:
    """:func:`estimate_planned` for each model of a :func:`capture_plans` list, in order;
    None when cancelled."""
    by_model: dict[int, tuple[dict, list]] = {}
    for model, planned in plans:
        by_model.setdefault(model["id"], (model, []))[1].append(planned)
    estimates = []
    for model, runs in by_model.values():
        one = estimate_planned(
            ws, model, runs, sample=sample, progress=progress, cancelled=cancelled
        )
        if one is None:
            return None
        estimates.append(one)
    return estimates


def estimate_job(
    workspace_path: str,
    job,
    args: tuple = (),
    kwargs: dict | None = None,
    *,
    sample: int | None = None,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> list[ModelEstimate] | None:
    """The per-model estimates of what the background task ``job(*args, **kwargs)`` (a
    stage's run task, which opens its own workspace) would decode; nothing is run or
    written. None when cancelled."""
    with capture_plans() as plans:
        job(*args, **(kwargs or {}))
    with Workspace(workspace_path, create=False) as ws:
        return estimate_captured(ws, plans, sample=sample, progress=progress, cancelled=cancelled)


def estimator(job, *, one_model: bool = True):
    """The estimate task of the background task ``job`` (a stage's run task whose first
    argument is the workspace path): called with ``job``'s own arguments, it returns what
    :func:`estimate_job` does — the one model's estimate with ``one_model`` (a task of one
    model), else the list — and None when cancelled."""

    def estimate(
        *args,
        sample: int | None = None,
        progress: ProgressFn | None = None,
        cancelled: CancelFn | None = None,
        **kwargs,
    ):
        estimates = estimate_job(
            str(args[0]),
            job,
            args,
            kwargs,
            sample=sample,
            progress=progress,
            cancelled=cancelled,
        )
        if estimates is None or not one_model:
            return estimates
        return estimates[0] if estimates else {"items": 0, "left": 0}

    estimate.__name__ = estimate.__qualname__ = f"estimate_{job.__name__}"
    estimate.__doc__ = f"The time estimate of :func:`{job.__name__}` with the same arguments."
    return estimate
