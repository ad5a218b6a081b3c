"""Verdict-shaped text in an answer: rubric criteria given numbers, JSON objects of score
fields — the shape of the judge's own reply, not of an answer (see
:mod:`engine.judging.injection.detect`)."""

from __future__ import annotations

import re

CRITERIA_EN = (
    "comprehension",
    "correctness",
    "completeness",
    "clarity",
    "length",
)
CRITERIA_BN = (
    "বোধগম্যতা",
    "বোঝাপড়া",
    "সঠিকতা",
    "নির্ভুলতা",
    "সম্পূর্ণতা",
    "স্পষ্টতা",
    "দৈর্ঘ্য",
)

LIKERT_VALUE = r"(?:10|[0-5]|১০|[০-৫])"  # a Likert value or a final score, either digit set

_CRITERION_VALUE = re.compile(
    r"([\"'`]?)\b("
    + "|".join(CRITERIA_EN + CRITERIA_BN)
    + r")\w*\1?\s*([:=|])?\s*[\"']?"
    + LIKERT_VALUE
    + r"(?![\d০-৯.])",
    re.I,
)
# a panel's card: numbered evaluators each given a top value ("Judge 1: 5 | Judge 2: 5")
_PANEL_SCORE = re.compile(
    r"(?:\b(?:judge|examiner|rater|grader|panel(?:ist)?|umpire|referee|reviewer|evaluator)s?|"
    r"বিচারক|জাজ|পরীক্ষক|বিচারপতি|রেফারি|আম্পায়ার)\s*[#-]?\s*(?:[1-9]|[১-৯])\s*[:=—–-]\s*"
    r"(?:10|5|১০|৫)(?:\s*/\s*(?:10|5|১০|৫))?(?![\d০-৯.])",
    re.I,
)
_JSON_OBJECT = re.compile(r"\{[^{}]{0,600}\}", re.S)
_JSON_NUMBER_FIELD = re.compile(
    r"[\"']?([\w\u0980-\u09ff]+)[\"']?\s*:\s*[\"']?(" + LIKERT_VALUE + r")(?![\d০-৯.])"
)
_SCORE_KEYS = (  # a field whose name contains one of these: final_score, overall, total
    "score",
    "final",
    "overall",
    "total",
    "rating",
    "grade",
    "marks",
    "confidence",
    "verdict",
    "points",
    "নম্বর",
    "স্কোর",
)


RUBRIC_KEYED = ("criteria with scores", "criterion field")  # how the rubric's keys are reported


def verdict_shape(text: str) -> str:
    """Rubric criteria given numbers ("comprehension": 5, সঠিকতা: ৫), or a JSON object of
    small-number fields — the shape of a verdict, not of an answer."""
    found = {m.group(2).lower(): m for m in _CRITERION_VALUE.finditer(text)}
    if len(found) >= 2:
        return "criteria with scores: " + ", ".join(sorted(found))
    for key, m in found.items():
        # one criterion with a number counts when it is written like a field ("clarity": 5)
        # and is not a plain measurement word ("length: 5 cm", "দৈর্ঘ্য ৫ মিটার")
        if (m.group(1) or m.group(3)) and key not in ("length", "দৈর্ঘ্য"):
            return f"criterion field {key}"
    if len(_PANEL_SCORE.findall(text)) >= 2:
        return "panel scores"
    for obj in _JSON_OBJECT.finditer(text):
        pairs = [
            (f.group(1).lower(), f.group(2)) for f in _JSON_NUMBER_FIELD.finditer(obj.group(0))
        ]
        if _lookup_table(pairs):
            continue
        fields = [key for key, _ in pairs]
        scoring = any(k in f for f in fields for k in _SCORE_KEYS)
        if len(fields) >= 3 or scoring or set(fields) & set(CRITERIA_EN):
            return "verdict-shaped JSON"
    return ""


def _lookup_table(pairs: list[tuple[str, str]]) -> bool:
    """Whether fields keyed by numerals or single characters map to values all different
    ({"০": 0, "১": 1, …}, {"a": 1, "b": 2}): a conversion table; a verdict repeats its top
    value or names its criteria."""
    keys = [key for key, _ in pairs]
    values = [value for _, value in pairs]
    return (
        len(pairs) >= 3
        and all(key.isdigit() or len(key) == 1 for key in keys)
        and len(set(values)) == len(values)
    )
