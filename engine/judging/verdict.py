"""The judge's JSON verdict: schema (grammar for local models, ``response_format`` for
endpoints), a strict parser, and the gate/penalty rules that turn it into scores.

Likert and confidence fields are ``enum`` lists because JSON-schema grammars do not enforce
``minimum``/``maximum`` (docs/design.md pitfall); every reply is validated anyway. A reply that
does not parse or is out of range raises :class:`VerdictError`: the judge job records an
error and retries it — a bad reply never becomes a default score.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from engine.files.nesting import too_deep
from engine.judging.gate import GateResult
from engine.judging.rubric import CONFIDENCE_VALUES, LIKERT_VALUES, Rubric

REASONING_KEY = "chain_of_thought_reasoning"
# A reply may be wrapped in one Markdown code fence (some endpoints do it); nothing else.
_CODE_FENCE = re.compile(r"\A```(?:json)?\s*\n?(.*?)\n?```\Z", re.DOTALL)


class VerdictError(ValueError):
    """The judge's reply is not a valid verdict (an error state, retried)."""


@dataclass(frozen=True)
class Verdict:
    reasoning: str
    scores: dict[str, int]
    confidence: int


@dataclass(frozen=True)
class Scored:
    """What is stored in a judgments row."""

    gate: str
    reasoning: str
    scores: dict[str, int]
    confidence: int | None  # None: no judge was asked (the gate decided)
    final: float


def verdict_schema(rubric: Rubric) -> dict:
    """Reasoning first, then the criteria in rubric order, then confidence."""
    properties = {
        REASONING_KEY: {"type": "string", "minLength": 1, "maxLength": rubric.reasoning_max_chars}
    }
    for key in rubric.keys:
        properties[key] = {"type": "integer", "enum": list(LIKERT_VALUES)}
    properties["confidence"] = {"type": "integer", "enum": list(CONFIDENCE_VALUES)}
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def max_tokens_for(rubric: Rubric) -> int:
    """Room for the longest reasoning (Bengali can take a token per character) + fields."""
    return rubric.reasoning_max_chars + 40 * (len(rubric.keys) + 2)


def _no_duplicates(pairs):
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise VerdictError(f"duplicate key '{key}' in the verdict")
        obj[key] = value
    return obj


def parse_verdict(text: str | None, rubric: Rubric) -> Verdict:
    if text is None or not text.strip():
        raise VerdictError("empty judge reply")
    body = text.strip()
    fenced = _CODE_FENCE.match(body)
    if fenced:
        body = fenced.group(1).strip()
    deep = too_deep(body)  # a hostile endpoint's reply must not reach a RecursionError
    if deep:
        raise VerdictError(f"reply is JSON {deep}")
    try:
        # strict=False: a raw newline inside the reasoning string is harmless
        data = json.loads(body, object_pairs_hook=_no_duplicates, strict=False)
    except json.JSONDecodeError as exc:
        raise VerdictError(
            f"reply is not JSON ({exc.msg} at char {exc.pos}): {body[:80]!r}"
        ) from None
    if not isinstance(data, dict):
        raise VerdictError(f"reply is JSON {type(data).__name__}, not an object")
    expected = [REASONING_KEY, *rubric.keys, "confidence"]
    missing = [k for k in expected if k not in data]
    extra = [k for k in data if k not in expected]
    if missing or extra:
        raise VerdictError(f"verdict keys wrong: missing {missing}, unexpected {extra}")
    if list(data)[0] != REASONING_KEY:
        raise VerdictError(f"'{REASONING_KEY}' must come first")
    reasoning = data[REASONING_KEY]
    if not isinstance(reasoning, str) or not reasoning.strip():
        raise VerdictError(f"'{REASONING_KEY}' must be a non-empty string")
    scores = {k: _integer(data[k], LIKERT_VALUES, k) for k in rubric.keys}
    confidence = _integer(data["confidence"], CONFIDENCE_VALUES, "confidence")
    return Verdict(reasoning.strip(), scores, confidence)


def _integer(value, allowed: tuple[int, ...], key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        raise VerdictError(f"'{key}' = {value!r} is not one of {list(allowed)}")
    return value


def zeroed(rubric: Rubric, gate: GateResult) -> Scored:
    """The dialect answer failed the script or refusal gate: every criterion is 0."""
    return Scored(gate.gate, f"[gate] {gate.reason}", {k: 0 for k in rubric.keys}, None, 0.0)


def apply_rules(
    verdict: Verdict, rubric: Rubric, dialect_gate: GateResult, standard_gate: GateResult
) -> Scored:
    """Penalty rule: confidence 1 when the dialect answer's script is indeterminable, or
    when the standard answer (the reference) itself fails a gate."""
    confidence = verdict.confidence
    notes = []
    if dialect_gate.indeterminable:
        notes.append(f"[gate] dialect answer: {dialect_gate.reason}")
    if not standard_gate.passed or standard_gate.indeterminable:
        notes.append(f"[gate] standard answer: {standard_gate.reason}; confidence forced to 1")
    if notes:
        confidence = 1
    reasoning = "\n".join([verdict.reasoning, *notes])
    return Scored(
        "ok", reasoning, dict(verdict.scores), confidence, rubric.final_score(verdict.scores)
    )
