"""The probe step as a request: which models answer which probe sets, in which option order.

``upabhasha probe``, the Social bias panel's Run probes and a batch file each build a
:class:`ProbeRequest` and run it through :meth:`ProbeRequest.run`; the defaults below are the
step's only ones. A user's instruction file travels as its text (with its file name, which
the run card records), so a request replays anywhere.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from engine.bias.run import (
    DEFAULT_SAMPLER,
    Instruction,
    ProbeOptions,
    load_instruction,
    parse_instruction,
    run_probes,
)
from engine.errors import Setting, UserError
from engine.files.user_files import PROBE_INSTRUCTION, read_user_text
from engine.i18n import _
from engine.llm.api import find_models
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
    seed_field,
)
from engine.llm.types import CancelFn, ProgressFn
from engine.workspace.store import Workspace

# the name a run card records for an instruction given as text without its file's name
GIVEN_INSTRUCTION = "instruction"


class ProbeResult(RunsResult):
    """One summary per model × probe set."""


@dataclass(frozen=True)
class ProbeRequest(StepRequest):
    """Every chosen model answers every probe of the chosen sets (a resumable run each)."""

    STEP = "probe"

    models: tuple[str, ...] = names_field(Setting.MODELS)  # none: the default model
    sets: tuple[str, ...] = names_field(Setting.PROBE_SETS)  # none: every probe set
    # a seeded sample of this many probes per set, stratified by category and subcategory
    limit: int | None = optional_count_field(Setting.LIMIT)
    seed: int = seed_field(Setting.SEED)  # of the per-probe order draw and of the sample
    counterbalance: bool = flag_field(Setting.COUNTERBALANCE)  # both option orders
    constrained: bool = flag_field(Setting.CONSTRAINED)  # the reply is one of the options
    max_tokens: int = count_field(Setting.MAX_TOKENS, DEFAULT_SAMPLER.max_tokens, MAX_TOKENS)
    # the user's instruction as its file reads (None: the bundled one) and the file's name
    instruction: str | None = optional_text_field(Setting.INSTRUCTION)
    instruction_name: str | None = optional_name_field(Setting.INSTRUCTION)
    no_instruction: bool = flag_field(Setting.NO_INSTRUCTION)  # the probes as written
    n_seq: int | None = n_seq_field()
    refill: int | None = refill_field()

    def validate(self) -> None:
        if self.no_instruction and self.instruction is not None:
            raise RequestError(
                Setting.NO_INSTRUCTION, _("ask with an instruction or without one, not both")
            )
        if self.instruction_name is not None and self.instruction is None:
            raise RequestError(Setting.INSTRUCTION, _("a file name without its instruction"))
        if self.instruction is not None:
            self.probe_instruction()  # its lines may all be comments

    def probe_instruction(self) -> Instruction | None:
        """The system message before every probe (None: the probes as written)."""
        if self.no_instruction:
            return None
        if self.instruction is None:
            return load_instruction()
        try:
            return parse_instruction(self.instruction, self.instruction_name or GIVEN_INSTRUCTION)
        except UserError:
            raise RequestError(
                Setting.INSTRUCTION, _("the probe instruction is empty (or only comments)")
            ) from None

    def options(self) -> ProbeOptions:
        """What the run card records of this request (the order, decoding, instruction)."""
        return ProbeOptions(
            seed=self.seed,
            counterbalance=self.counterbalance,
            constrained=self.constrained,
            sampler=dataclasses.replace(DEFAULT_SAMPLER, max_tokens=self.max_tokens),
            instruction=self.probe_instruction(),
        )

    def run(
        self,
        ws: Workspace,
        *,
        progress: ProgressFn | None = None,
        cancelled: CancelFn | None = None,
    ) -> ProbeResult:
        runs = run_probes(
            ws,
            cast("list[dict]", find_models(ws, list(self.models))),  # the runner's plain rows
            list(self.sets) or None,
            options=self.options(),
            limit=self.limit,
            schedule=self.schedule,
            progress=progress,
            cancelled=cancelled,
        )
        return ProbeResult(tuple(runs))


def instruction_file(path: str | Path) -> dict:
    """The request fields of a user's instruction file: its text and its name."""
    return {
        "instruction": read_user_text(path, PROBE_INSTRUCTION),
        "instruction_name": Path(path).name,
    }
