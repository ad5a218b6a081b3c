"""Background task of the generate dialog (Qt-free; run through the bridge).

It runs the same request as ``upabhasha generate`` (:class:`GenerateRequest`, the one path
of the step), opening its own workspace connection; generation is resumable.
"""

from __future__ import annotations

from engine.answering.request import GenerateRequest, GenerateResult
from engine.llm.runs.estimates import estimator
from engine.llm.types import CancelFn, ProgressFn
from engine.workspace.store import Workspace

__all__ = [
    "estimate_answers_at",
    "generate_answers_at",
]


def generate_answers_at(
    workspace_path: str,
    request: GenerateRequest,
    *,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> GenerateResult:
    """Run ``request`` (its models answer the standard question and each chosen variant)."""
    with Workspace(workspace_path, create=False) as ws:
        return request.run(ws, progress=progress, cancelled=cancelled)


# the planner's estimate of generate_answers_at with the same arguments (engine.llm.runs.estimates)
estimate_answers_at = estimator(generate_answers_at)
