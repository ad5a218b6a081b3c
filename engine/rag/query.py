"""Query normalisation, the [[SHORT]] tag and the Bengali-aware tokenizer.

Tokens are maximal runs of word characters: ASCII/Unicode letters and digits plus the
whole Bengali block (vowel signs, virama ্, nukta ়, chandrabindu ঁ are combining marks
that ``\\w`` does not match; splitting on them would cut conjuncts such as ক্ষ apart) and
ZWJ/ZWNJ, which select conjunct forms. Everything else separates tokens: white space,
ASCII punctuation, the danda । and double danda ॥ (U+0964/U+0965, outside the Bengali
block). Text is NFC-normalised first (engine.text.textnorm), so the decomposed and composed
spellings of য় ড় ঢ় ো give the same tokens, and Bengali digits become ASCII digits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.text.textnorm import canonical_key

SHORT_TAG = "[[SHORT]]"
TOKENIZER_VERSION = "bn-word-1"  # goes into the index manifest: a change rebuilds indexes

_TOKEN = re.compile(r"(?:[^\W_]|[\u0980-\u09ff\u200c\u200d])+")


def normalize_query(text: str) -> str:
    """NFC, folded white space, ASCII digits, case-folded (engine.text.textnorm.canonical_key)."""
    return canonical_key(text)


def tokenize(text: str) -> list[str]:
    """Bengali-aware word tokens of ``text`` (normalised here, so raw text is fine)."""
    tokens = _TOKEN.findall(normalize_query(text))
    # ZWJ/ZWNJ alone or at the edges carry no letter; drop them from the token ends.
    out = [t.strip("\u200c\u200d") for t in tokens]
    return [t for t in out if t]


@dataclass(frozen=True)
class PreparedQuery:
    original: str
    normalized: str
    tokens: tuple[str, ...]
    short: bool

    @property
    def tagged(self) -> str:
        """The normalised query as the paper writes it: short ones carry [[SHORT]]."""
        return f"{self.normalized} {SHORT_TAG}" if self.short else self.normalized


def prepare_query(text: str, short_query_tokens: int = 4) -> PreparedQuery:
    normalized = normalize_query(text)
    tokens = tuple(tokenize(normalized))
    return PreparedQuery(
        original=text, normalized=normalized, tokens=tokens, short=len(tokens) < short_query_tokens
    )


def _char_swap() -> dict[int, int]:
    # A bijection (so every rapidfuzz ratio is unchanged) that puts the Bengali block and
    # the common separators into the one-byte range: rapidfuzz then compares 1-byte
    # strings, about 6x faster than the 2-byte strings Bengali is stored as.
    pairs = {0x980 + i: 0x80 + i for i in range(0x80)}
    pairs.update(
        {
            0x964: 0x01,
            0x965: 0x02,
            0x200C: 0x03,
            0x200D: 0x04,
            0x2018: 0x05,
            0x2019: 0x06,
            0x201C: 0x07,
            0x201D: 0x08,
        }
    )
    swap = dict(pairs)
    swap.update({v: k for k, v in pairs.items()})
    return swap


_CHAR_SWAP = _char_swap()


def char_form(text: str) -> str:
    """``text`` under a fixed bijective code-point swap, for fast character similarity."""
    return text.translate(_CHAR_SWAP)
