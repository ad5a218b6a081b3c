"""Reading a task answer out of a model's output — counting failures, never guessing.

Every output gets a status:

- ``empty``: nothing but white space;
- ``unparseable``: the format the task asked for is not there (no JSON object with the
  answer key; a chain of thought with no final answer; a classification answer that is not
  exactly one of the labels);
- ``ok``: the answer.

JSON tasks: the first JSON object holding the answer key as a string (zero/few-shot), the
last one after a chain of thought (its final answer). Text tasks: the first non-empty line,
or for CoT the text after the last "Final answer:". A classification answer matches a
label when equal after case-folding and trimming surrounding punctuation and white space;
an answer naming no label, or several, is unparseable.

An answer that is (or consists only of) the prompt's own placeholder — the ``<the standard
Bengali sentence>`` of ``{"standard": "<the standard Bengali sentence>"}``, or any
``<…>`` slot — is unparseable with reason ``placeholder``: the model copied the template
instead of answering, which is a format failure, not an answer to score.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.text.textnorm import normalize_text
from engine.understanding.task_spec import TaskSpec

OK, EMPTY, UNPARSEABLE = "ok", "empty", "unparseable"
_FINAL = re.compile(r"final answer\s*[:：]", re.IGNORECASE)
_TRIM = " \t\r\n\"'`.,;:!?।()[]{}<>*"
_SLOT = re.compile(r"<[^<>\n]{1,200}>")
PLACEHOLDER = "placeholder"


@dataclass(frozen=True)
class Parsed:
    status: str
    answer: str = ""
    reason: str = ""  # why unparseable, when known ("placeholder")

    @property
    def ok(self) -> bool:
        return self.status == OK


def json_objects(text: str):
    """Every JSON object in ``text``, in order (objects inside objects are not repeated)."""
    decoder = json.JSONDecoder()
    pos = 0
    while (start := text.find("{", pos)) != -1:
        try:
            value, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            pos = start + 1
            continue
        if isinstance(value, dict):
            yield value
        pos = end


def only_placeholders(answer: str) -> bool:
    """True when ``answer`` holds nothing but ``<…>`` template slots (and punctuation)."""
    return bool(_SLOT.search(answer)) and not _SLOT.sub("", answer).strip(_TRIM)


def parse_output(
    text: str | None,
    spec: TaskSpec,
    regime: str,
    labels: Sequence[str] = (),
    *,
    normalize: str = "nfc",
) -> Parsed:
    """The status and answer of one output; ``normalize`` "none" keeps the answer's code
    points as the model wrote them (only surrounding white space is trimmed)."""
    if text is None or not text.strip():
        return Parsed(EMPTY)
    if spec.output == "json":
        answers = [
            o[spec.answer_key]
            for o in json_objects(text)
            if isinstance(o.get(spec.answer_key), str)
        ]
        if not answers:
            return Parsed(UNPARSEABLE)
        answer = answers[-1] if regime == "cot" else answers[0]
    else:
        if regime == "cot":
            parts = _FINAL.split(text)
            if len(parts) < 2:
                return Parsed(UNPARSEABLE)
            text = parts[-1]
        lines = [line for line in text.splitlines() if line.strip()]
        answer = lines[0] if lines else ""
    answer = normalize_text(answer) if normalize == "nfc" else answer.strip()
    if not answer:
        return Parsed(EMPTY)
    if only_placeholders(answer):
        return Parsed(UNPARSEABLE, answer, PLACEHOLDER)
    if spec.classification:
        label = match_label(answer, labels)
        return Parsed(OK, label) if label is not None else Parsed(UNPARSEABLE, answer)
    return Parsed(OK, answer)


def match_label(answer: str, labels: Sequence[str]) -> str | None:
    key = answer.strip(_TRIM).casefold()
    found = [label for label in labels if label.casefold() == key]
    return found[0] if len(found) == 1 else None
