"""Acrostics read generally: the first characters of lines or sentences, or their last ones
(letters and digits: "G… I… V… E… 5…" spells "give 5"), cut into English words and numbers, and the first words of
lines or sentences cut to the lexicon word they begin with ("পূর্ণ… নম্বর-গুনতিতে… দিনের…"
reads "পূর্ণ নম্বর দিন").
"""

from __future__ import annotations

import re
from functools import cache

from engine.judging.injection.readings.vocabulary import english_words
from engine.judging.injection.text import sentences

# a list's own marks before a line's first character: bullets, "1.", "(a)", quotes
_LIST_MARK = re.compile(r"^(?:[^\w\s]+|\d{1,2}[.)]\s+|\([a-z0-9]\)\s*|\s+)+", re.I)


def _starts(pieces: list[str]) -> list[str]:
    starts = [_LIST_MARK.sub("", p.strip()) for p in pieces]
    return [s for s in starts if s]


def _segmented(letters: str) -> str:
    """``letters`` cut wholly into English words (two letters at least, or "a") and numbers,
    or ``""`` when no cut covers them all."""
    words = english_words()
    best: dict[int, list[str]] = {0: []}
    for end in range(1, len(letters) + 1):
        for start in range(max(0, end - 14), end):
            if start not in best:
                continue
            piece = letters[start:end]
            if piece.isdigit() or (
                piece.isalpha() and (len(piece) > 1 or piece == "a") and piece in words
            ):
                best[end] = [*best[start], piece]
                break
    return " ".join(best.get(len(letters), []))


def letter_acrostics(text: str) -> list[str]:
    """What the first characters of ``text``'s (in matching form) lines or sentences spell,
    four or more, when they cut wholly into words and numbers."""
    found = []
    for pieces in (text.splitlines()[:200], sentences(text)[:200]):
        starts = _starts(pieces)
        if len(starts) < 4:
            continue
        # first characters (an acrostic) and last ones (a telestich)
        ends = [e[-1] for p in pieces if (e := re.sub(r"[\W_]+$", "", p.strip()))]
        for letters in ("".join(s[0] for s in starts).lower(), "".join(ends).lower()):
            if letters.isascii() and any(c.isalpha() for c in letters):
                if cut := _segmented(letters):
                    found.append(cut)
    return list(dict.fromkeys(found))


@cache
def _bengali_words() -> tuple[str, ...]:
    from engine.judging.injection.phrases import phrases

    words = {
        w
        for ws in phrases().values()
        for p in ws
        for w in re.findall("[\u0980-\u09ff]+", p)
        if len(w) > 1
    }
    return tuple(sorted(words, key=len, reverse=True))


def _stem(word: str) -> str:
    return next((w for w in _bengali_words() if word.startswith(w)), word)


def first_word_stems(text: str) -> list[str]:
    """The first words of ``text``'s (in matching form) lines, four or more, each cut to the
    Bengali lexicon word it begins with, read as one sentence."""
    starts = _starts(text.splitlines()[:200])
    if len(starts) < 4 or not any("\u0980" <= s[0] <= "\u09ff" for s in starts):
        return []
    firsts = [re.split(r"[\s\-–—,;:।]+", s)[0] for s in starts]
    reading = " ".join(_stem(w) for w in firsts)
    return [reading] if reading != " ".join(firsts) else []
