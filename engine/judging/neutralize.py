"""Defuse untrusted text (questions and answers) before it is fenced into a judge prompt.

What is removed or defanged, and why:

- hidden characters, as the one text rule names them (:mod:`engine.text.text_rules`: controls
  other than newline and tab, bidi overrides and isolates, tag characters, variation selectors
  outside emoji, invisible fillers) — ZWJ/ZWNJ inside a word stay: they select Bengali conjuncts;
- model control tokens of the common chat formats (``<start_of_turn>``, ``<|im_start|>``,
  ``<|eot_id|>``, ``[INST]``, ``<<SYS>>``, ``<s>`` …), removed until none is left, so that a
  token split by another token cannot re-form;
- the fence brackets ⟦ ⟧ and anything imitating a fence line ("END dialect_answer"), so no
  untrusted text can close its fence early;
- JSON: braces become full-width ｛ ｝ and quoted verdict keys get typographic quotes, so an
  answer cannot contain anything that parses as a verdict;
- role labels at the start of a line ("Assistant:", "System:") get a look-alike colon, so a
  plain-transcript prompt cannot be continued by the answer.

The text stays readable for the judge: only these constructs change.
"""

from __future__ import annotations

import re

from engine.judging.rubric import CRITERION_KEYS
from engine.text.text_rules import neutralised

FENCE_OPEN, FENCE_CLOSE = "⟦", "⟧"
FENCE_LABELS = ("standard_question", "standard_answer", "dialect_question", "dialect_answer")
VERDICT_KEYS = ("chain_of_thought_reasoning",) + CRITERION_KEYS + ("confidence",)
REMOVED = "[removed control token]"

_CONTROL_TOKENS = re.compile(
    r"<\|[^<>|\n]{0,40}\|>"  # ChatML, Llama 3, Phi
    r"|<\s*/?\s*(?:s|bos|eos|pad|unk|mask|sep|cls|eot|start_of_turn|end_of_turn"
    r"|start_of_image|end_of_image|think|tool_call|tool_response)\s*/?\s*>"
    r"|<(?:unused|extra_id_)\d+>"  # Gemma / T5 reserved
    r"|\[/?\s*(?:INST|SYSTEM_PROMPT|AVAILABLE_TOOLS|TOOL_CALLS|TOOL_RESULTS)\s*\]"  # Mistral
    r"|<</?\s*SYS\s*>>",  # Llama 2
    re.IGNORECASE,
)
_FENCE_IMITATION = re.compile(
    r"(?:BEGIN|END)[\W_]{0,3}(?:standard|dialect)[\W_]{0,3}(?:question|answer)", re.IGNORECASE
)
_QUOTED_KEY = re.compile(r'["\']\s*(' + "|".join(VERDICT_KEYS) + r')\s*["\']', re.IGNORECASE)
_ROLE_LABEL = re.compile(
    r"^(\s*[#>*]*\s*(?:system|user|assistant|model|human|ai|judge|verdict|json verdict))\s*:",
    re.IGNORECASE | re.MULTILINE,
)
_MANY_NEWLINES = re.compile(r"\n{3,}")
_COT_KEY = re.compile(r"chain_of_thought_reasoning", re.IGNORECASE)


def strip_invisible(text: str) -> str:
    """The text a person sees: every hidden character the workspace's one text rule names
    (:func:`engine.text.text_rules.neutralised`) removed, line breaks made ``\n``."""
    return neutralised(text.replace("\r\n", "\n").replace("\r", "\n"))


def remove_control_tokens(text: str) -> str:
    while True:
        cleaned = _CONTROL_TOKENS.sub(REMOVED, text)
        if cleaned == text:
            return text
        text = cleaned


def neutralize(text: str) -> str:
    """The form in which untrusted ``text`` may appear inside a fence.

    Applied until nothing changes: one rewrite can re-form another construct
    (``[/INST⟧`` becomes ``[/INST]`` when the fence bracket is replaced).
    """
    text = strip_invisible(text or "")
    while True:
        cleaned = _neutralize_once(text)
        if cleaned == text:
            return text
        text = cleaned


def _neutralize_once(text: str) -> str:
    text = remove_control_tokens(text)
    text = text.replace(FENCE_OPEN, "[").replace(FENCE_CLOSE, "]")
    text = _FENCE_IMITATION.sub("[removed fence imitation]", text)
    text = text.replace("{", "｛").replace("}", "｝")
    text = _QUOTED_KEY.sub(lambda m: f"“{m.group(1)}”", text)
    text = _COT_KEY.sub("chain of thought reasoning", text)
    text = _ROLE_LABEL.sub(lambda m: m.group(1) + "꞉", text)
    text = _MANY_NEWLINES.sub("\n\n", text)
    return text.strip()


def contains_control_token(text: str) -> bool:
    return _CONTROL_TOKENS.search(text) is not None
