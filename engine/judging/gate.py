"""Checks run on every answer before a judge sees it (paper 000, §3.3 "Script Validity").

**Script gate.** The primary text of an answer must be in Bengali script; English is allowed
for numbers, proper nouns and technical terms. Measured on *letters* only — characters that
are alphabetic or combining marks (Bengali vowel signs and virama count; digits, spaces,
punctuation and symbols do not) — after URLs and e-mail addresses are removed:

- no letters, only Bengali digits (e.g. "৮", "১৯৭১")   → ok (Bengali script)
- no letters otherwise (e.g. "8", "1971", ":)")       → indeterminable
- share of Bengali letters ≥ ``BENGALI_OK`` (0.6)      → ok
- fewer than ``MIN_LETTERS`` (10) letters otherwise    → indeterminable (e.g. "CPU", "DNA")
- share ≤ ``BENGALI_FAIL`` (0.3)                       → fail: English, Romanized Bengali
                                                          ("kritrim buddhimotta holo ...") or
                                                          another script
- in between                                           → indeterminable

*Indeterminable* does not zero the scores; it forces the judge's confidence to 1 so the
judgment goes to human review (the paper's penalty rule).

**Refusal gate.** Empty answers (no letters and no digits) and answers that open with a
refusal ("I'm sorry, I can't …", "As an AI …", "দুঃখিত, আমি … উত্তর দিতে পারছি না",
"প্রশ্নটি বুঝতে পারিনি") are refusals. Apologies count only at the very start of the answer;
statements of inability within the first ``REFUSAL_WINDOW`` characters, so an answer that
merely contains such a phrase later still counts as an answer.

Either gate failing on the dialect answer zeroes all criteria, as the paper does.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from engine.text.textnorm import BENGALI_DIGITS, normalize_text

BENGALI_OK = 0.6
BENGALI_FAIL = 0.3
MIN_LETTERS = 10
REFUSAL_WINDOW = 200

_URL = re.compile(r"(?:https?://|www\.)\S+|\S+@\S+\.\w+", re.IGNORECASE)

# Apologies count only where the answer opens with them: "দুঃখিত" also means "distressed"
# ("শ্বাস নেওয়ার সময় দুঃখিত হতে দেখা যায়", a real BlanCK question).
_APOLOGY_EN = r"^\W*(?:i(?:'m| am) (?:sorry|afraid)|sorry\b|apologies\b|unfortunately,? i\b)"
_APOLOGY_BN = ["দুঃখিত", "দু:খিত", "ক্ষমা করবেন", "মাফ করবেন", "ক্ষমাপ্রার্থী"]
_INABILITY_EN = [
    r"\bi (?:cannot|can't|can not|won't|will not|(?:am|'m) (?:unable|not able) to)"
    r" (?:help|answer|provide|assist|respond|comply|fulfil|fulfill|understand|do that)",
    r"\bas an? (?:ai|a\.i\.|language model|large language model|llm)\b",
    r"\bi (?:do not|don't) (?:understand|know)\b",
    r"\b(?:unable|not able) to (?:answer|help|understand)\b",
]
_INABILITY_BN = [
    "উত্তর দিতে পারছি না",
    "উত্তর দিতে পারব না",
    "উত্তর দিতে পারবো না",
    "উত্তর দিতে অক্ষম",
    "উত্তর দেওয়া সম্ভব নয়",
    "সাহায্য করতে পারছি না",
    "সাহায্য করতে পারব না",
    "বুঝতে পারছি না",
    "বুঝতে পারিনি",
    "বুঝতে পারি নি",
    "বুঝতে পারলাম না",
    "আমি জানি না",
    "আমি একটি এআই",
    "এআই হিসেবে",
    "ভাষা মডেল হিসেবে",
    "এআই মডেল হিসেবে",
]


def _alternatives(phrases: list[str]) -> str:
    return "|".join(re.escape(normalize_text(p)) for p in phrases)


_REFUSAL = re.compile(
    "|".join(
        [
            _APOLOGY_EN,
            rf"^\W*(?:আমি\s+)?(?:{_alternatives(_APOLOGY_BN)})",
            *_INABILITY_EN,
            _alternatives(_INABILITY_BN),
        ]
    ),
    re.IGNORECASE,
)


@dataclass(frozen=True)
class GateResult:
    gate: str  # 'ok' | 'script' | 'refusal' (the judgments.gate values)
    script: str  # 'bengali' | 'non_bengali' | 'indeterminable'
    bengali_share: float  # share of letters in Bengali script (0 when there are none)
    letters: int
    reason: str

    @property
    def passed(self) -> bool:
        return self.gate == "ok"

    @property
    def indeterminable(self) -> bool:
        return self.script == "indeterminable"


def _is_letter(ch: str) -> bool:
    return ch.isalpha() or unicodedata.category(ch) in ("Mn", "Mc")


def script_profile(text: str) -> tuple[int, float]:
    """(number of letters, share of them in the Bengali block) with URLs removed."""
    letters = [c for c in _URL.sub(" ", text) if _is_letter(c)]
    if not letters:
        return 0, 0.0
    return len(letters), sum(1 for c in letters if "\u0980" <= c <= "\u09ff") / len(letters)


def classify_script(text: str) -> tuple[str, int, float]:
    letters, share = script_profile(text)
    if letters == 0:
        digits = [c for c in text if c.isdigit()]
        if digits and all(c in BENGALI_DIGITS for c in digits):
            return "bengali", 0, 0.0
        return "indeterminable", 0, 0.0
    if share >= BENGALI_OK:
        return "bengali", letters, share
    if letters < MIN_LETTERS:
        return "indeterminable", letters, share
    if share <= BENGALI_FAIL:
        return "non_bengali", letters, share
    return "indeterminable", letters, share


def refusal_reason(text: str) -> str | None:
    """Why ``text`` is a refusal or empty, or None."""
    norm = normalize_text(text or "")
    if not any(_is_letter(c) or c.isdigit() for c in norm):
        return "empty answer (no letters or digits)"
    match = _REFUSAL.search(norm[:REFUSAL_WINDOW])
    if match:
        return f"refusal phrase '{match.group(0)}'"
    return None


def check_answer(text: str | None) -> GateResult:
    """Refusal first (an English refusal is also non-Bengali; refusal is the better label)."""
    text = normalize_text(text or "")
    script, letters, share = classify_script(text)
    refusal = refusal_reason(text)
    if refusal:
        return GateResult("refusal", script, share, letters, refusal)
    if script == "non_bengali":
        return GateResult(
            "script",
            script,
            share,
            letters,
            f"primary text not in Bengali script ({share:.0%} of {letters} "
            f"letters Bengali; threshold {BENGALI_OK:.0%})",
        )
    if script == "indeterminable":
        return GateResult(
            "ok",
            script,
            share,
            letters,
            f"script indeterminable ({share:.0%} of {letters} letters Bengali): "
            "confidence forced to 1",
        )
    return GateResult("ok", script, share, letters, "")
