"""The translation stage's front door: RAG translation into machine drafts, their review
(status, text, history), translation-quality evaluation, and the metric-vs-human study of
scored translation sets.

``translate`` and ``eval-translation`` are requests (:class:`TranslateRequest`,
:class:`EvalTranslationRequest`) that every front end builds and runs alike. Background work
of the translate dialog and the metrics panel is in
:mod:`engine.translation.tasks`. Front ends import these two modules, never the stage's
others (.importlinter).
"""

from __future__ import annotations

from engine.importing.stored_choice import scoring_normalization, stored_normalization
from engine.rag.index import corpus_names
from engine.translation.baseline import DIRECTIONS, copy_baselines, write_baseline_csv
from engine.translation.draft_checks import ORDERS as REVIEW_ORDERS
from engine.translation.draft_checks import (
    check_drafts,
    draft_checks,
    figures_line,
    flagged_shares,
    questions_by_need,
)
from engine.translation.evaluate import (
    TRANSLATION_SCORE_SCALE,
    evaluate_translations,
    record_translation_score,
)
from engine.translation.request import (
    EvalTranslationRequest,
    EvalTranslationResult,
    TranslateRequest,
    TranslateResult,
)
from engine.translation.review import (
    STATUSES,
    VariantState,
    has_questions,
    machine_variants,
    question_rows,
    question_sets,
    restore_variant,
    review_counts,
    review_dialects,
    review_question_ids,
    set_variant_status,
    set_variant_text,
    variant_cells,
    variant_detail,
    variant_exists,
    variant_state,
    variants_to_review,
)
from engine.translation.scored_eval import evaluate_measures, evaluate_scored, scored_sets
from engine.translation.translate import (
    dialects_without_pairs,
    translate_questions,
    translation_items,
)

__all__ = [
    "DIRECTIONS",
    "EvalTranslationRequest",
    "EvalTranslationResult",
    "REVIEW_ORDERS",
    "STATUSES",
    "TRANSLATION_SCORE_SCALE",
    "TranslateRequest",
    "TranslateResult",
    "VariantState",
    "check_drafts",
    "copy_baselines",
    "corpus_names",
    "dialects_without_pairs",
    "draft_checks",
    "evaluate_measures",
    "evaluate_scored",
    "evaluate_translations",
    "flagged_shares",
    "has_questions",
    "machine_variants",
    "question_rows",
    "questions_by_need",
    "figures_line",
    "question_sets",
    "record_translation_score",
    "restore_variant",
    "review_counts",
    "review_dialects",
    "review_question_ids",
    "scored_sets",
    "scoring_normalization",
    "stored_normalization",
    "set_variant_status",
    "set_variant_text",
    "translate_questions",
    "translation_items",
    "variant_cells",
    "variant_detail",
    "variant_exists",
    "variant_state",
    "variants_to_review",
    "write_baseline_csv",
]
