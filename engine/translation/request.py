"""The translate and eval-translation steps as requests: what is translated, into which
dialects, by which model (and which judge), with exemplars from which retrieval index.

``upabhasha translate`` and the translate dialog build a :class:`TranslateRequest`;
``upabhasha eval-translation`` and the metrics panel's held-out evaluation an
:class:`EvalTranslationRequest`; a batch file carries either as JSON. Each runs through its
``run`` (the index built or reused on the way); the defaults below are the steps' only ones.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import Setting
from engine.i18n import N_, _
from engine.llm.endpoints.reachable import require_answering
from engine.llm.models.registry import find_model
from engine.llm.runs.step_request import (
    RequestError,
    StepRequest,
    names_field,
    optional_count_field,
    optional_name_field,
    optional_text_field,
    seed_field,
)
from engine.llm.types import CancelFn, ProgressFn, labelled_progress
from engine.rag.api import DEFAULT_SPLITS, Retriever, open_retriever
from engine.rag.index import EVAL_SPLITS
from engine.text.textnorm import NORMALIZATIONS
from engine.translation.evaluate import evaluate_translations
from engine.translation.translate import (
    TranslationSummary,
    translate_questions,
    translation_items,
)
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)


def _check_targets(dialects: Sequence[str]) -> None:
    if not dialects:
        raise RequestError(Setting.TARGET_DIALECTS, _("choose at least one dialect"))
    if "standard" in dialects:
        raise RequestError(
            Setting.TARGET_DIALECTS,
            _("standard Bengali is the source of a translation, not a dialect to translate into"),
        )


@dataclass(frozen=True)
class IndexedRequest(StepRequest):
    """The retrieval index a step's exemplars come from: built on first use, reused while
    its corpora and encoder are unchanged (engine.rag.build.ensure_index)."""

    corpora: tuple[str, ...] = names_field(Setting.CORPORA)  # none: every corpus
    splits: tuple[str, ...] = names_field(Setting.SPLITS, DEFAULT_SPLITS)
    # a sentence-transformers folder or a name in the local cache; none: the bundled one
    encoder: str | None = optional_text_field(Setting.ENCODER)

    def validate(self) -> None:
        if not self.splits:
            raise RequestError(Setting.SPLITS, _("choose at least one split to index"))
        held_out = sorted(set(self.splits) & EVAL_SPLITS)
        if held_out:
            raise RequestError(
                Setting.SPLITS,
                _(
                    "the split {split!r} is kept for the evaluation of translations and is "
                    "never indexed"
                ).format(split=held_out[0]),
            )

    def retriever(
        self, ws: Workspace, progress: ProgressFn | None, cancelled: CancelFn | None
    ) -> tuple[Retriever, bool]:
        """The retriever over this request's index, and whether the index was (re)built."""
        retriever, rebuilt = open_retriever(
            ws,
            self.encoder,
            corpora=list(self.corpora) or None,
            splits=self.splits,
            progress=labelled_progress(progress, "index"),
            cancelled=cancelled,
        )
        log.info(N_("retrieval index rebuilt") if rebuilt else N_("retrieval index reused"))
        return retriever, rebuilt


@dataclass(frozen=True)
class TranslateResult:
    """The translation's summary, the model that translated and whether the index was built."""

    summary: TranslationSummary
    model: str
    index_rebuilt: bool

    @property
    def complete(self) -> bool:
        return self.summary.complete

    def as_dict(self) -> dict:
        return {**self.summary.as_dict(), "model": self.model, "index_rebuilt": self.index_rebuilt}


@dataclass(frozen=True)
class TranslateRequest(IndexedRequest):
    """Machine drafts of a question set in each chosen dialect (RAG few-shot translation)."""

    STEP = "translate"

    question_set: str | None = optional_name_field(Setting.QUESTIONS)  # required
    dialects: tuple[str, ...] = names_field(Setting.TARGET_DIALECTS)  # required
    model: str | None = optional_name_field(Setting.MODEL)  # none: the workspace's default
    limit: int | None = optional_count_field(Setting.LIMIT)  # the first N questions

    def validate(self) -> None:
        if self.question_set is None:
            raise RequestError(Setting.QUESTIONS, _("name the question set to translate"))
        _check_targets(self.dialects)
        super().validate()

    def run(
        self,
        ws: Workspace,
        *,
        progress: ProgressFn | None = None,
        cancelled: CancelFn | None = None,
    ) -> TranslateResult:
        assert self.question_set is not None  # validate() refuses a request without one
        model = find_model(ws, self.model)
        items, _protected = translation_items(ws, self.question_set, self.dialects, self.limit)
        # nothing to draft: the summary says so without loading the encoder or the index
        retriever, rebuilt = None, False
        if items:
            require_answering(model)  # a dead endpoint, found before the encoder and index load
            retriever, rebuilt = self.retriever(ws, progress, cancelled)
        summary = translate_questions(
            ws,
            retriever,
            question_set=self.question_set,
            dialects=list(self.dialects),
            model_row=model,
            limit=self.limit,
            progress=progress,
            cancelled=cancelled,
        )
        return TranslateResult(summary, model["name"], rebuilt)


@dataclass(frozen=True)
class EvalTranslationResult:
    """The evaluation's report (engine.translation.evaluate) and the retrieval self-check of
    the index its exemplars came from (encoder, per dialect and overall)."""

    report: dict[str, Any]
    selfcheck: dict[str, Any]

    @property
    def complete(self) -> bool:
        return not (self.report["missing"] or self.report["judge_missing"])

    def as_dict(self) -> dict:
        return self.report


@dataclass(frozen=True)
class EvalTranslationRequest(IndexedRequest):
    """Held-out corpus pairs translated as the questions are, scored against their human
    dialect side (BLEU, chrF++, WER, embeddings) and, with a judge, for fidelity (0-10)."""

    STEP = "eval-translation"

    dialects: tuple[str, ...] = names_field(Setting.TARGET_DIALECTS)  # required
    model: str | None = optional_name_field(Setting.MODEL)  # none: the workspace's default
    judge: str | None = optional_name_field(Setting.JUDGE_MODEL)  # none: no fidelity judge
    limit: int | None = optional_count_field(Setting.LIMIT)  # per dialect, a seeded sample
    seed: int = seed_field(Setting.SEED)  # of the limit's sample
    split: str | None = optional_name_field(Setting.SPLIT)  # none: the validation split
    normalize: str | None = optional_name_field(Setting.NORMALIZE)  # none: as imported

    def validate(self) -> None:
        super().validate()  # the index's splits first: a held-out split is checked against them
        _check_targets(self.dialects)
        if self.normalize is not None and self.normalize not in NORMALIZATIONS:
            raise RequestError(
                Setting.NORMALIZE,
                _("one of {known}, not {value!r}").format(
                    known=", ".join(NORMALIZATIONS), value=self.normalize
                ),
            )
        if self.split is not None and self.split in self.splits:
            raise RequestError(
                Setting.SPLIT,
                _("the split {split!r} is indexed: the pairs evaluated must not be").format(
                    split=self.split
                ),
            )

    def run(
        self,
        ws: Workspace,
        *,
        progress: ProgressFn | None = None,
        cancelled: CancelFn | None = None,
    ) -> EvalTranslationResult:
        model = find_model(ws, self.model)
        judge = find_model(ws, self.judge) if self.judge else None
        require_answering(model, judge)  # before the encoder and index load
        retriever, _rebuilt = self.retriever(ws, progress, cancelled)
        report = evaluate_translations(
            ws,
            retriever,
            dialects=list(self.dialects),
            model_row=model,
            judge_row=judge,
            limit=self.limit,
            split=self.split,
            normalize=self.normalize,
            seed=self.seed,
            progress=progress,
            cancelled=cancelled,
        )
        check = retriever.index.selfcheck or {}
        selfcheck = {
            "encoder_id": report["encoder"],
            "per_dialect": check.get("per_dialect", {}),
            "overall": check.get("overall", {}),
        }
        return EvalTranslationResult(report, selfcheck)
