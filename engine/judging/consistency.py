"""Verdicts that do not fit cheap signals: a near-perfect score for a dialect answer that
shares almost nothing with its own standard answer, or is a fraction of its length, is
implausible and goes to review."""

from __future__ import annotations

import re

from engine.text.textnorm import normalize_text

HIGH_SCORE_SHARE = 0.8  # a final score at or above this share of the scale is "near-perfect"
MIN_SIMILARITY = 0.15  # word overlap to the standard answer below this is "unrelated"
MIN_LENGTH_RATIO = 0.2  # a dialect answer this much shorter than the standard answer


_WORD = re.compile(r"[\w\u0980-\u09ff]+")


def answer_similarity(dialect_answer: str, standard_answer: str) -> float:
    """Word overlap of two answers in [0, 1]: shared words over the smaller answer's words
    (NFC-normalised, case-folded). Character similarity is useless here: two unrelated
    Bengali sentences share a third of their characters."""
    a = set(_WORD.findall(normalize_text(dialect_answer or "").casefold()))
    b = set(_WORD.findall(normalize_text(standard_answer or "").casefold()))
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def consistency_flags(
    final: float | None,
    max_score: float,
    dialect_answer: str,
    standard_answer: str,
) -> list[str]:
    """Flags for a near-perfect score the answer texts cannot support."""
    if final is None or final < HIGH_SCORE_SHARE * max_score:
        return []
    flags = []
    if answer_similarity(dialect_answer, standard_answer) < MIN_SIMILARITY:
        flags.append("consistency:unrelated-to-standard")
    a, b = len((dialect_answer or "").strip()), len((standard_answer or "").strip())
    if b and a < MIN_LENGTH_RATIO * b:
        flags.append("consistency:much-shorter-than-standard")
    return flags
