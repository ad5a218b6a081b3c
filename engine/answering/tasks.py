"""Background task of the generate dialog (Qt-free; run through the bridge).

It calls the same engine function as ``upabhasha generate`` (app/cli/answering.py) with
plain inputs, opening its own workspace connection; generation is resumable.
"""

from __future__ import annotations

from engine.answering.generation import DEFAULT_SAMPLER, generate_answers
from engine.errors import UserError
from engine.llm.model_registry import find_model
from engine.llm.run_estimates import estimator
from engine.llm.types import Sampler
from engine.workspace.store import Workspace

__all__ = [
    "estimate_answers_at",
    "generate_answers_at",
]


def generate_answers_at(
    workspace_path: str,
    model_id: int,
    statuses: list[str],
    max_tokens: int = 384,
    dialects: list[str] | None = None,
    question_set: str | None = None,
    limit: int | None = None,
    *,
    progress=None,
    cancelled=None,
) -> dict:
    """One model answers the standard question and each chosen dialect variant."""
    if not statuses:
        raise UserError("choose at least one variant status to answer")
    sampler = Sampler(
        **{**DEFAULT_SAMPLER.as_dict(), "max_tokens": int(max_tokens), "stop": DEFAULT_SAMPLER.stop}
    )
    with Workspace(workspace_path, create=False) as ws:
        model = find_model(ws, model_id)
        summaries = generate_answers(
            ws,
            [model],
            statuses=tuple(statuses),
            dialects=dialects or None,
            question_set=question_set,
            limit=limit or None,
            sampler=sampler,
            progress=progress,
            cancelled=cancelled,
        )
    if not summaries:
        return {
            "model": model["name"],
            "run_id": None,
            "items": 0,
            "done_before": 0,
            "done_now": 0,
            "cached": 0,
            "errors": 0,
            "complete": False,
            "cancelled": True,
        }
    return summaries[0]


# the planner's estimate of generate_answers_at with the same arguments (engine.llm.run_estimates)
estimate_answers_at = estimator(generate_answers_at)
