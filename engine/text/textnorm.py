"""Bengali-aware text normalisation, shared by importers, retrieval and metrics.

Policy (documented in README):
- Stored text is NFC, trimmed, with runs of white space folded to one space. ZWJ and ZWNJ
  (U+200D, U+200C) are kept: they select conjunct forms. BOM and zero-width space are dropped.
- Under NFC the nukta letters ড় ঢ় য় (U+09DC, U+09DD, U+09DF) are *decomposed* into base +
  U+09BC (they are composition exclusions), while ো ৌ compose. NFC is therefore the one
  canonical form: both spellings of য় become the same code points.
- Digits are stored as written. Comparison keys (:func:`canonical_key`) map Bengali digits
  ০–৯ to ASCII 0–9 so "১০" and "10" compare equal.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from engine.errors import Setting, UserError, setting
from engine.text.bijoy import looks_bijoy

BENGALI_DIGITS = "০১২৩৪৫৬৭৮৯"
_TO_ASCII_DIGITS = str.maketrans(BENGALI_DIGITS, "0123456789")
_DROP = dict.fromkeys(map(ord, "\ufeff\u200b"))
_SPACE = re.compile(r"[\s\u00a0]+")
_BENGALI_LETTER = re.compile(r"[\u0980-\u09ff]")


def normalize_text(text: str) -> str:
    """The stored form: NFC, BOM/ZWSP dropped, white space folded, trimmed."""
    text = unicodedata.normalize("NFC", text.translate(_DROP))
    return _SPACE.sub(" ", text).strip()


# What metrics score (``--normalize``): "nfc" = :func:`normalize_text` on hypotheses and
# references (the stored form; both spellings of য় count as one), "none" = the text exactly
# as given, which reproduces sacrebleu run on the raw file. Signatures name the choice.
NORMALIZATIONS = ("nfc", "none")
DEFAULT_NORMALIZATION = "nfc"


def check_normalization(mode: str) -> str:
    if mode not in NORMALIZATIONS:
        raise UserError(
            f"{setting(Setting.NORMALIZE)} is one of {', '.join(NORMALIZATIONS)}, not {mode!r}"
        )
    return mode


def normalized_for_metrics(text: str, mode: str) -> str:
    """``text`` as the metrics see it under normalisation ``mode`` (see NORMALIZATIONS)."""
    return normalize_text(text) if check_normalization(mode) == "nfc" else text


def canonical_key(text: str) -> str:
    """A key for deduplication and comparison: normalised, ASCII digits, case-folded."""
    return normalize_text(text).translate(_TO_ASCII_DIGITS).casefold()


def record_key(normalize: str) -> Callable[[str], str]:
    """How an import under ``normalize`` compares records: "nfc" by :func:`canonical_key`,
    "none" by the text exactly as written (only byte-equal spellings are one record)."""
    return canonical_key if check_normalization(normalize) == "nfc" else str


def to_ascii_digits(text: str) -> str:
    return text.translate(_TO_ASCII_DIGITS)


def bengali_share(text: str) -> float:
    """Share of letters (not digits, spaces or punctuation) that are Bengali script."""
    letters = [c for c in text if c.isalpha() or unicodedata.category(c) in ("Mn", "Mc")]
    if not letters:
        return 0.0
    return sum(1 for c in letters if "\u0980" <= c <= "\u09ff") / len(letters)


def has_bengali(text: str) -> bool:
    return _BENGALI_LETTER.search(text) is not None


# UTF-8 Bengali read as Latin-1/cp1252: every Bengali code point starts with bytes
# E0 A6 or E0 A7, which show as "à¦" / "à§".
_MOJIBAKE = re.compile("à[\u00a6\u00a7]")


def encoding_problem(text: str) -> str | None:
    """Why ``text`` cannot be Unicode Bengali, or None if it may be. Legacy Bijoy/SutonnyMJ
    ASCII is recognised with or without marker characters (:func:`engine.text.bijoy.looks_bijoy`);
    Romanized Bengali ("ami banglay kotha boli") is not a problem."""
    if _MOJIBAKE.search(text):
        return "mojibake: UTF-8 Bengali decoded as Latin-1/cp1252 (à¦…); re-save the file as UTF-8"
    if has_bengali(text):
        return None
    if looks_bijoy(text):
        return (
            "legacy Bijoy/SutonnyMJ ASCII encoding (no Bengali code points); "
            "convert it to Unicode first"
        )
    return None
