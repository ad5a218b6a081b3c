"""The field-notes study's model step as a request: each chosen model says in a few words
what every note is about. ``upabhasha gist-notes``, the Study menu's dialog and a batch file
each build a :class:`GistRequest` and run it (engine.steps.tasks.run_request_at); the
defaults below are the step's only ones."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from engine.errors import Setting, UserError
from engine.i18n import _
from engine.llm.api import find_models
from engine.llm.runs.model_runs import PlannedRun, RunsResult, run_models
from engine.llm.runs.step_request import (
    MAX_TOKENS,
    StepRequest,
    count_field,
    names_field,
    optional_count_field,
)
from engine.llm.types import CancelFn, Message, ProgressFn, Request, Sampler
from engine.workspace.store import Workspace

GIST_KIND = "note_gist"  # the runs' kind; the report reads the replies by it
PROMPT = "এই নোটটি কী নিয়ে, এক লাইনে বলুন:\n{note}"


class GistResult(RunsResult):
    """One summary per model's run."""


@dataclass(frozen=True)
class GistRequest(StepRequest):
    STEP = "gist-notes"

    models: tuple[str, ...] = names_field(Setting.MODELS)  # none: the default model
    limit: int | None = optional_count_field(Setting.LIMIT)  # the first notes only
    max_tokens: int = count_field(Setting.MAX_TOKENS, 8, MAX_TOKENS)

    def run(
        self,
        ws: Workspace,
        *,
        progress: ProgressFn | None = None,
        cancelled: CancelFn | None = None,
    ) -> GistResult:
        models = cast("list[dict]", find_models(ws, list(self.models)))
        notes = ws.query("SELECT id, text FROM field_notes ORDER BY id")[: self.limit]
        if not notes:
            raise UserError(_("There are no field notes to read."))
        sampler = Sampler(temperature=0.0, max_tokens=self.max_tokens)
        planned = PlannedRun(
            GIST_KIND,
            {"task": self.STEP, "prompt": PROMPT, "sampler": sampler.as_dict()},
            [
                Request(
                    key=f"n{note['id']}",
                    sampler=sampler,
                    messages=(Message("user", PROMPT.format(note=note["text"])),),
                )
                for note in notes
            ],
        )
        runs = run_models(
            ws, models, lambda _model: [planned], progress=progress, cancelled=cancelled
        )
        return GistResult(tuple(runs))
