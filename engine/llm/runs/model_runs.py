"""The per-model run loop shared by answering, translation, bias probes and the task suite:
for each model, open each planned run, load the model once, run the job, summarise.

One failure rule for every stage: a model that fails to load (its file, or in its worker at
the first decode: llama.cpp refuses it, or the worker dies loading it) leaves no empty run row
(:func:`engine.llm.runs.run.discard_if_empty`), and each of its planned runs is reported as
incomplete with ``load_error`` naming the model and the reason, every item counted as an
error; the other models still run. A step with such a summary is incomplete (the CLI exits
3), and running it again once the model loads resumes it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import TypedDict

from engine.llm.runs import backend as run_backend
from engine.llm.runs.backend import not_loaded_reason
from engine.llm.runs.estimates import capturing
from engine.llm.runs.jobs import JobSummary, run_job
from engine.llm.runs.run import discard_if_empty, open_run
from engine.llm.runtime.worker import ModelDidNotLoad
from engine.llm.types import (
    Backend,
    CancelFn,
    JobProgress,
    ProgressFn,
    Request,
    labelled_progress,
)
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)

BackendFactory = Callable[[Workspace, int], Backend]


class RunSummary(TypedDict, total=False):
    """One planned run's summary (a stage's plan adds fields of its own: ``label``, …)."""

    model: str
    run_id: int | None
    items: int
    done_before: int
    done_now: int
    cached: int
    errors: int
    complete: bool
    cancelled: bool
    note: str
    last_error: str
    estimate: dict
    actual: dict
    load_error: str


@dataclass(frozen=True)
class RunsResult:
    """A step's result that is its runs' summaries (a model that did not load says so)."""

    runs: tuple[RunSummary, ...]

    def as_dict(self) -> dict:
        return {"runs": list(self.runs)}


@dataclass
class PlannedRun:
    """One run of one model: its kind and card, its requests, and what its summary adds."""

    kind: str
    card: dict
    requests: list[Request]
    label: str = ""  # shown with the progress after the model's name
    summary: dict = field(default_factory=dict)  # extra fields of its summary
    job_options: dict = field(default_factory=dict)  # more keyword arguments of run_job
    # called with the run id once the model has loaded, before the job (e.g. record the
    # items shown); never called for a run whose model did not load
    before_job: Callable[[int], None] | None = None


def run_models(
    ws: Workspace,
    model_rows: Iterable[dict],
    plan: Callable[[dict], Iterable[PlannedRun]],
    *,
    backend_factory: BackendFactory | None = None,
    batch_size: int = 8,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
    total_items: int | None = None,
) -> list[RunSummary]:
    """Run (or resume) ``plan(model)`` for each model, one local model loaded at a time;
    one summary per planned run (``model``, ``run_id``, the plan's fields, the job counts,
    and ``load_error`` when the model did not load). Stops early when cancelled. With
    ``total_items`` (the whole job's), progress counts the job, not each run."""
    captured = capturing()
    if captured is not None:  # a time estimate asks what would run (engine.llm.runs.estimates)
        captured.extend((model, planned) for model in model_rows for planned in plan(model))
        return []
    job = JobProgress(progress, total_items) if total_items is not None else None
    open_backend = (
        backend_factory or run_backend.backend_for_run
    )  # looked up here: tests replace it
    summaries: list[RunSummary] = []
    for model in model_rows:
        backend: Backend | None = None
        planned_runs = iter(plan(model))
        try:
            for planned in planned_runs:
                if cancelled and cancelled():
                    return summaries
                # with its requests: a larger --limit that would change a decoded batch
                # opens a new run (runs.open_run, 'growing a run')
                run_id = open_run(ws, planned.kind, model, planned.card, planned.requests)
                if backend is None:
                    try:
                        backend = open_backend(ws, run_id)
                    except Exception as exc:  # noqa: BLE001 - any load failure is reported
                        summaries += _did_not_load(ws, model, run_id, planned, planned_runs, exc)
                        break
                    except BaseException:  # interrupted while loading: nothing is left behind
                        discard_if_empty(ws, run_id)
                        raise
                else:  # loaded for an earlier run of the model: this run's own schedule
                    run_backend.follow_run_schedule(ws, run_id, backend)
                if planned.before_job is not None:
                    planned.before_job(run_id)
                try:
                    result = run_job(
                        ws,
                        run_id,
                        backend,
                        planned.requests,
                        batch_size=batch_size,
                        cancelled=cancelled,
                        progress=(job.step if job else partial(labelled_progress, progress))(
                            f"{model['name']} {planned.label}".strip()
                        ),
                        **planned.job_options,
                    )
                except ModelDidNotLoad as exc:  # a local model loads at its first decode
                    summaries += _did_not_load(ws, model, run_id, planned, planned_runs, exc)
                    break
                summaries.append(_summary(model, run_id, planned, result))
                if result.cancelled:
                    return summaries
        finally:
            if backend is not None:
                backend.close()
    return summaries


def _summary(model: dict, run_id: int | None, planned: PlannedRun, job: JobSummary) -> RunSummary:
    return {"model": model["name"], "run_id": run_id, **planned.summary, **job.counts()}


def _did_not_load(
    ws: Workspace,
    model: dict,
    run_id: int,
    planned: PlannedRun,
    rest: Iterable[PlannedRun],
    exc: BaseException,
) -> list[RunSummary]:
    """The summaries of ``planned`` and the model's remaining runs, its load having failed."""
    discard_if_empty(ws, run_id)
    reason = not_loaded_reason(model, exc)
    log.error("%s", reason)
    return [
        _not_loaded(ws, model, run_id, planned, reason),
        *(_not_loaded(ws, model, None, other, reason) for other in rest),
    ]


def _not_loaded(
    ws: Workspace, model: dict, run_id: int | None, planned: PlannedRun, reason: str
) -> RunSummary:
    """The summary of a run whose model did not load: what an earlier call finished stays
    (a resumed run keeps its row), everything else failed."""
    done = 0
    if run_id is not None and ws.scalar("SELECT 1 FROM runs WHERE id = ?", (run_id,)):
        keys = {r.key for r in planned.requests}
        done = sum(
            key in keys
            for (key,) in ws.conn.execute(
                "SELECT item_key FROM responses WHERE run_id = ? AND status = 'done'", (run_id,)
            )
        )
    else:
        run_id = None
    total = len(planned.requests)
    job = JobSummary(total, done, 0, total - done, 0, False)
    return {**_summary(model, run_id, planned, job), "load_error": reason}
