"""The translation stage's front door: RAG translation into machine drafts, their review
(status, text, history), translation-quality evaluation, and the metric-vs-human study of
scored translation sets.

Background work of the translate dialog and the metrics panel is in
:mod:`engine.translation.tasks`. Front ends import these two modules, never the stage's
others (.importlinter).
"""

from __future__ import annotations

from engine.errors import UserError
from engine.translation.baseline import DIRECTIONS, copy_baselines, write_baseline_csv
from engine.translation.evaluate import (
    TRANSLATION_SCORE_SCALE,
    evaluate_translations,
    record_translation_score,
)
from engine.translation.review import (
    STATUSES,
    VariantState,
    has_questions,
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
    variant_state,
)
from engine.translation.scored_eval import evaluate_measures, evaluate_scored, scored_sets
from engine.translation.translate import translate_questions
from engine.workspace.store import Workspace

__all__ = [
    "DIRECTIONS",
    "STATUSES",
    "TRANSLATION_SCORE_SCALE",
    "VariantState",
    "copy_baselines",
    "evaluate_measures",
    "evaluate_scored",
    "evaluate_translations",
    "has_questions",
    "machine_variants",
    "question_rows",
    "question_sets",
    "record_translation_score",
    "restore_variant",
    "review_counts",
    "review_dialects",
    "review_question_ids",
    "scored_sets",
    "set_variant_status",
    "set_variant_text",
    "translate_questions",
    "variant_cells",
    "variant_detail",
    "variant_exists",
    "variant_state",
    "variants_to_review",
    "write_baseline_csv",
]


def variants_to_review(
    ws: Workspace, status: str | None = None, dialects: list[str] | None = None
) -> list[dict]:
    """Dialect variants (id, question's external id, dialect, status, provenance, text),
    optionally only one status and some dialects, by question then dialect. An unknown
    dialect code is a :class:`UserError`."""
    sql = (
        "SELECT v.id, q.ext_id AS question, v.dialect, v.status, v.provenance, v.text "
        "FROM variants v JOIN questions q ON q.id = v.question_id WHERE v.dialect != 'standard'"
    )
    params: list = []
    if status:
        sql += " AND v.status = ?"
        params.append(status)
    if dialects:
        unknown = set(dialects) - ws.dialect_codes()
        if unknown:
            raise UserError(f"unknown dialect(s): {', '.join(sorted(unknown))}")
        sql += f" AND v.dialect IN ({','.join('?' * len(dialects))})"
        params += dialects
    return ws.query(sql + " ORDER BY v.question_id, v.dialect", tuple(params))


def variant_exists(ws: Workspace, variant_id: int) -> bool:
    return bool(ws.scalar("SELECT count(*) FROM variants WHERE id = ?", (variant_id,)))


def machine_variants(ws: Workspace, dialect: str) -> list[dict]:
    """The machine-drafted variants of one dialect (id, text)."""
    return ws.query(
        "SELECT id, text FROM variants WHERE dialect = ? AND provenance = 'machine'", (dialect,)
    )
