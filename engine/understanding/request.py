"""The run-task step as a request: one task over items × models × regimes × scripts.

``upabhasha run-task``, the Tasks panel and a batch file each build a
:class:`RunTaskRequest` and run it through :meth:`RunTaskRequest.run`; the defaults below
are the step's only ones. A k-sweep is one request of several plans (:meth:`plans`), each
its own regime and k over the same items.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, cast

from engine.errors import Setting
from engine.i18n import _
from engine.importing.stored_choice import scoring_normalization
from engine.llm.api import find_models
from engine.llm.runs.model_runs import RunSummary
from engine.llm.runs.step_request import (
    MAX_TOKENS,
    RequestError,
    StepRequest,
    choice_field,
    choices_field,
    flag_field,
    name_field,
    names_field,
    optional_count_field,
    seed_field,
    whole_field,
    wholes_field,
)
from engine.llm.types import CancelFn, ProgressFn
from engine.text.textnorm import NORMALIZATIONS
from engine.understanding.regimes import MAX_K
from engine.understanding.run import SCRIPTS, run_task, user_task_dir
from engine.understanding.scripts import DEFAULT_SCHEME, SCHEMES
from engine.understanding.task_spec import REGIMES, get_task
from engine.workspace.store import Workspace

PAIRS = "pairs"  # the workspace's sentence pairs; an item set is "items:<name>"
SET_PREFIX = "items:"
# the evaluated split: the train split feeds the few-shot demonstrations
EVALUATED_SPLITS = ("validation", "test")


@dataclass(frozen=True)
class RunTaskResult:
    """One summary per run (model × plan × regime × script) and what the metrics score."""

    task: str
    runs: tuple[RunSummary, ...]
    normalize: str  # what task-stats scores: the items' stored choice unless asked
    notes: tuple[str, ...] = ()  # why it differs from the one asked for

    def as_dict(self) -> dict:
        return {"task": self.task, "runs": list(self.runs), "normalize": self.normalize}


@dataclass(frozen=True)
class RunTaskRequest(StepRequest):
    """Every chosen model answers the task's items in every regime and script chosen; with
    ``k_sweep``, once per k (0 zero-shot, else few-shot with k demonstrations per dialect)
    in place of ``regimes`` and ``k``."""

    STEP = "run-task"
    # what a front end offers (the fields' checks refuse anything else)
    SPLITS: ClassVar[tuple[str, ...]] = EVALUATED_SPLITS
    SCRIPTS: ClassVar[tuple[str, ...]] = SCRIPTS
    MAX_K: ClassVar[int] = MAX_K

    task: str = name_field(Setting.TASK, "dialect-to-standard")
    models: tuple[str, ...] = names_field(Setting.MODEL_LIST)  # none: the default model
    source: str = name_field(Setting.ITEM_SOURCE, PAIRS)
    regimes: tuple[str, ...] = choices_field(Setting.REGIMES, REGIMES, ("zero",))
    scripts: tuple[str, ...] = choices_field(Setting.SCRIPTS, SCRIPTS, ("native",))
    scheme: str = choice_field(Setting.SCHEME, SCHEMES, DEFAULT_SCHEME)
    dialects: tuple[str, ...] = names_field(Setting.DIALECT_LIST)  # none: every dialect
    split: str = choice_field(Setting.SPLIT, EVALUATED_SPLITS, "validation")
    k: int = whole_field(Setting.K, 6, 0, MAX_K)  # demonstrations per dialect (few-shot)
    k_sweep: tuple[int, ...] = wholes_field(Setting.K_SWEEP, 0, MAX_K)
    limit: int | None = optional_count_field(Setting.LIMIT)  # items per dialect
    seed: int = seed_field(Setting.SEED)  # the sample's and the demonstrations'
    draw_train: int | None = optional_count_field(Setting.DRAW_TRAIN)  # per dialect
    constrained: bool = flag_field(Setting.CONSTRAINED_DECODING)
    normalize: str | None = choice_field(Setting.NORMALIZE, NORMALIZATIONS, None)
    max_tokens: int | None = optional_count_field(Setting.MAX_TOKENS, MAX_TOKENS)

    def validate(self) -> None:
        if self.source != PAIRS and not (
            self.source.startswith(SET_PREFIX) and self.source[len(SET_PREFIX) :].strip()
        ):
            raise RequestError(
                Setting.ITEM_SOURCE,
                _("{value!r} is neither {pairs!r} nor an item set ({prefix}NAME)").format(
                    value=self.source, pairs=PAIRS, prefix=SET_PREFIX
                ),
            )

    def plans(self) -> list[tuple[tuple[str, ...], int]]:
        """The (regimes, k) the request runs in turn: one, or one per k of the sweep."""
        if not self.k_sweep:
            return [(self.regimes, self.k)]
        return [(("zero",), 0) if k == 0 else (("few",), k) for k in self.k_sweep]

    def run(
        self,
        ws: Workspace,
        *,
        progress: ProgressFn | None = None,
        cancelled: CancelFn | None = None,
        user_dir: str | None = None,
    ) -> RunTaskResult:
        """``user_dir``: the folder of the user's own task files (default: this machine's,
        :func:`~engine.understanding.run.user_task_dir`)."""
        spec = get_task(self.task, user_dir if user_dir is not None else user_task_dir())
        models = cast("list[dict]", find_models(ws, list(self.models)))  # the runner's plain rows
        runs: list[RunSummary] = []
        for regimes, k in self.plans():
            if cancelled is not None and cancelled():
                break
            runs += run_task(
                ws,
                spec,
                models,
                source=self.source,
                regimes=regimes,
                scripts=self.scripts,
                dialects=list(self.dialects) or None,
                split=self.split,
                k=k,
                limit=self.limit,
                seed=self.seed,
                draw_train_per_dialect=self.draw_train,
                scheme=self.scheme,
                constrained=self.constrained,
                normalize=self.normalize,
                max_tokens=self.max_tokens,
                progress=progress,
                cancelled=cancelled,
            )
        scored, notes = scoring_normalization(ws, self.source, None, self.normalize)
        return RunTaskResult(spec.name, tuple(runs), scored, tuple(notes))
