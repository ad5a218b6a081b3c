"""The LLM-as-judge translation fidelity score (0–10) of paper 000 §3.1.3.

The judge plays a native speaker of the target dialect, reasons through three steps
(exempt spelling/digit/whitespace/punctuation variants, count meaning errors, map the
count to a score) *before* scoring, and replies in JSON constrained by a schema whose
numbers are enums (a grammar does not enforce numeric ranges: docs/design.md). The ceilings
(one error <= 7, two or more <= 6) are enforced again here; a reply that does not parse
is an invalid item, never a score of 0.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.resources import files
from string import Template

from engine.llm.types import Message, Request, Sampler

JUDGE_TEMPLATE = "translation_judge.txt"
REASONING_MAX_CHARS = 300
SCHEMA = {
    "type": "object",
    "properties": {
        "reasoning": {"type": "string", "minLength": 1, "maxLength": REASONING_MAX_CHARS},
        "inaccurate_words": {"type": "integer", "enum": list(range(0, 11))},
        "score": {"type": "integer", "enum": list(range(0, 11))},
    },
    "required": ["reasoning", "inaccurate_words", "score"],
    "additionalProperties": False,
}
# Room for the longest reasoning (a Bengali character can be a token) plus the JSON frame.
JUDGE_SAMPLER = Sampler(temperature=0.0, max_tokens=REASONING_MAX_CHARS + 96)


def ceiling(inaccurate_words: int) -> int:
    return 10 if inaccurate_words <= 0 else 7 if inaccurate_words == 1 else 6


@dataclass(frozen=True)
class JudgeVerdict:
    reasoning: str
    inaccurate_words: int
    raw_score: int
    score: int  # after the ceiling
    ceiling_applied: bool


def parse_verdict(text: str | None) -> JudgeVerdict | None:
    """The verdict in a judge reply, or None when the reply is not a valid verdict."""
    if not text:
        return None
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        data = json.loads(text[start : end + 1], strict=False)  # raw newlines in strings are fine
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict):
        return None
    reasoning, errors, score = (
        data.get("reasoning"),
        data.get("inaccurate_words"),
        data.get("score"),
    )
    if not isinstance(reasoning, str) or not reasoning.strip():
        return None
    if not (_count(errors) and _count(score)):
        return None
    assert isinstance(errors, int) and isinstance(score, int)
    capped = min(score, ceiling(errors))
    return JudgeVerdict(reasoning.strip(), errors, score, capped, capped != score)


def load_template() -> str:
    raw = (files("resources") / "prompts" / JUDGE_TEMPLATE).read_text(encoding="utf-8")
    return "\n".join(ln for ln in raw.splitlines() if not (ln.startswith("# ") or ln == "#"))


def build_judge_request(
    key: str,
    *,
    template: str,
    dialect: dict,
    source: str,
    reference: str,
    candidate: str,
    english: str = "",
    chat: bool,
) -> Request:
    values = {
        "dialect_en": dialect["name_en"],
        "dialect_bn": dialect["name_bn"],
        "source": source,
        "english": english or "not available",
        "reference": reference,
        "candidate": candidate or "(empty)",
    }
    system, _, user = template.partition("### system")[2].partition("### user")
    system = Template(system).safe_substitute(values).strip()
    user = Template(user).safe_substitute(values).strip()
    if chat:
        return Request(
            key=key,
            messages=(Message("system", system), Message("user", user)),
            sampler=JUDGE_SAMPLER,
            json_schema=SCHEMA,
        )
    return Request(
        key=key, prompt=f"{system}\n\n{user}\n\nJSON:\n", sampler=JUDGE_SAMPLER, json_schema=SCHEMA
    )


def _count(value: object) -> bool:
    """A whole number 0-10 (JSON true/false are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10
