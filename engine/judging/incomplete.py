"""A judge run stopped before its pairs were judged (engine.judging.run): a run that holds
nothing is removed, as engine.llm.jobs.run_job_on_model does, and a judge model that did
not load is reported with how many pairs are left (the CLI's "N of M not judged", exit 3)."""

from __future__ import annotations

from engine.judging import store
from engine.llm.jobs import discard_if_empty, not_loaded_reason
from engine.llm.worker import ModelDidNotLoad
from engine.workspace.store import Workspace


class JudgeDidNotLoad(ModelDidNotLoad):
    """The judge model did not load: ``left`` of the ``pairs`` answer pairs have no judgment
    (what finished is kept; ``run_id`` is None when the run held nothing and was removed)."""

    def __init__(self, reason: str, *, run_id: int | None, pairs: int, left: int):
        super().__init__(f"{left} of {pairs} answer pairs not judged ({reason})")
        self.reason, self.run_id, self.pairs, self.left = reason, run_id, pairs, left


def judge_stopped(ws: Workspace, judge_model: dict, run_id: int, pairs: list, exc: BaseException):
    """A judge run stopped by ``exc``: remove the run if it holds nothing; a model that did
    not load raises :class:`JudgeDidNotLoad`, saying how many pairs are left."""
    removed = discard_if_empty(ws, run_id)
    if not isinstance(exc, ModelDidNotLoad):
        return
    judged = store.judged_response_ids(ws, run_id)
    raise JudgeDidNotLoad(
        not_loaded_reason(judge_model, exc),
        run_id=None if removed else run_id,
        pairs=len(pairs),
        left=sum(p["dialect_response_id"] not in judged for p in pairs),
    ) from exc
