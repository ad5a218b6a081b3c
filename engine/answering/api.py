"""The answering stage's front door: every model answers the standard question and each
dialect variant (resumable), with the default sampler and the variant statuses answered by
default.

Background work of the generate dialog is in :mod:`engine.answering.tasks`. Front ends
import these two modules, never the stage's others (.importlinter).
"""

from __future__ import annotations

from engine.answering.generation import (
    DEFAULT_SAMPLER,
    DEFAULT_STATUSES,
    first_questions,
    generate_answers,
    select_variants,
)
from engine.answering.request import GenerateRequest, GenerateResult
from engine.errors import UserError
from engine.workspace.store import Workspace

__all__ = [
    "DEFAULT_SAMPLER",
    "DEFAULT_STATUSES",
    "GenerateRequest",
    "GenerateResult",
    "answer_scope",
    "generate_answers",
]


def answer_scope(
    ws: Workspace,
    statuses,
    dialects=None,
    question_set: str | None = None,
    limit: int | None = None,
) -> tuple[int, int, int]:
    """(answers, questions, dialects with the standard one) that a generate run with these
    inputs would write per model; zeros when the inputs select nothing."""
    try:
        variants = select_variants(
            ws, statuses=tuple(statuses), dialects=dialects, question_set=question_set
        )
    except UserError:
        return 0, 0, 0
    variants = first_questions(variants, limit)
    return (
        len(variants),
        len({v["question_id"] for v in variants}),
        len({v["dialect"] for v in variants}),
    )
