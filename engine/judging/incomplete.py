"""A judge run stopped before its pairs were judged (engine.judging.run): a run that holds
nothing is removed, as engine.llm.runs.jobs.run_job_on_model does, and a stop that may pass (a
judge model that did not load, its worker that died mid-run) is reported with how many
pairs are left (the CLI's "N of M not judged", exit 3)."""

from __future__ import annotations

from engine.errors import StepIncomplete
from engine.judging import store
from engine.llm.runs.backend import not_loaded_reason
from engine.llm.runs.run import discard_if_empty
from engine.llm.runtime.worker import ModelDidNotLoad
from engine.workspace.store import Workspace


class JudgeStopped(StepIncomplete):
    """A judge run stopped for ``reason``: ``left`` of the ``pairs`` answer pairs have no
    judgment (what finished is kept; ``run_id`` is None when the run held nothing and was
    removed). Running the same command again resumes the run."""

    def __init__(self, reason: str, *, run_id: int | None, pairs: int, left: int):
        super().__init__(f"{left} of {pairs} answer pairs not judged ({reason})")
        self.reason, self.run_id, self.pairs, self.left = reason, run_id, pairs, left


class JudgeDidNotLoad(JudgeStopped, ModelDidNotLoad):
    """The judge model did not load (so callers that handle any model that did not load,
    e.g. engine.translation.eval_jobs, handle this one too)."""


def judge_stopped(ws: Workspace, judge_model: dict, run_id: int, pairs: list, exc: BaseException):
    """A judge run stopped by ``exc``: remove the run if it holds nothing; a stop that may
    pass (:class:`StepIncomplete`: a model that did not load, a worker that died) raises
    :class:`JudgeStopped` (:class:`JudgeDidNotLoad` for the first), saying how many pairs
    are left."""
    removed = discard_if_empty(ws, run_id)
    if not isinstance(exc, StepIncomplete):
        return
    did_not_load = isinstance(exc, ModelDidNotLoad)
    judged = store.judged_response_ids(ws, run_id)
    raise (JudgeDidNotLoad if did_not_load else JudgeStopped)(
        not_loaded_reason(judge_model, exc) if did_not_load else str(exc),
        run_id=None if removed else run_id,
        pairs=len(pairs),
        left=sum(p["dialect_response_id"] not in judged for p in pairs),
    ) from exc
