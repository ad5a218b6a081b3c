"""The generate step as a request: which models answer which variants, and how long.

``upabhasha generate``, the generate dialog and a batch file each build a
:class:`GenerateRequest` and run it through :meth:`GenerateRequest.run`; the defaults below
are the step's only ones.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import cast

from engine.answering.generation import DEFAULT_SAMPLER, DEFAULT_STATUSES, generate_answers
from engine.errors import Setting
from engine.i18n import _
from engine.llm.api import find_models
from engine.llm.models.registry import all_models
from engine.llm.runs.model_runs import RunsResult
from engine.llm.runs.step_request import (
    MAX_TOKENS,
    RequestError,
    StepRequest,
    count_field,
    flag_field,
    n_seq_field,
    names_field,
    optional_count_field,
    optional_name_field,
    optional_text_field,
    refill_field,
)
from engine.llm.types import CancelFn, ProgressFn
from engine.workspace.store import Workspace
from engine.workspace.variants import VARIANT_STATUSES


class GenerateResult(RunsResult):
    """One summary per model's answer run."""


@dataclass(frozen=True)
class GenerateRequest(StepRequest):
    """Every chosen model answers the standard question and each chosen dialect variant."""

    STEP = "generate"

    models: tuple[str, ...] = names_field(Setting.MODELS)  # none: the default model
    all_models: bool = flag_field(Setting.MODELS)
    statuses: tuple[str, ...] = names_field(Setting.STATUS, DEFAULT_STATUSES)
    dialects: tuple[str, ...] = names_field(Setting.DIALECTS)  # none: every dialect
    question_set: str | None = optional_name_field(Setting.QUESTION_SET)
    limit: int | None = optional_count_field(Setting.LIMIT)
    max_tokens: int = count_field(Setting.MAX_TOKENS, DEFAULT_SAMPLER.max_tokens, MAX_TOKENS)
    prompts: str | None = optional_text_field(Setting.PROMPTS)
    n_seq: int | None = n_seq_field()
    refill: int | None = refill_field()

    def validate(self) -> None:
        if not self.statuses:
            raise RequestError(Setting.STATUS, _("choose at least one variant status to answer"))
        unknown = [s for s in self.statuses if s not in VARIANT_STATUSES]
        if unknown:
            raise RequestError(
                Setting.STATUS,
                _("unknown status {status!r} (one of: {known})").format(
                    status=unknown[0], known=", ".join(VARIANT_STATUSES)
                ),
            )
        if self.all_models and self.models:
            raise RequestError(Setting.MODELS, _("name models or take them all, not both"))

    def run(
        self,
        ws: Workspace,
        *,
        progress: ProgressFn | None = None,
        cancelled: CancelFn | None = None,
    ) -> GenerateResult:
        # the runners take model rows as plain dicts
        models = (
            all_models(ws)
            if self.all_models
            else cast("list[dict]", find_models(ws, list(self.models)))
        )
        runs = generate_answers(
            ws,
            models,
            statuses=self.statuses,
            dialects=list(self.dialects) or None,
            question_set=self.question_set,
            limit=self.limit,
            sampler=dataclasses.replace(DEFAULT_SAMPLER, max_tokens=self.max_tokens),
            prompt_dir=self.prompts,
            schedule=self.schedule,
            progress=progress,
            cancelled=cancelled,
        )
        return GenerateResult(tuple(runs))
