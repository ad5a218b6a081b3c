"""Bengali written backwards however its letters fall: each word's consonants read in
reverse, and the words in reverse order, matched to the lexicon's words by their consonants.

A writer who reverses Bengali by hand (or stores it backwards inside a right-to-left
override) puts the vowel signs and the hasanta wherever they look right ("রবম্ন" for নম্বর),
so the letters do not reverse back exactly; the consonants do.
"""

from __future__ import annotations

import re
from functools import cache

_CONSONANT = re.compile("[\u0985-\u0994\u0995-\u09b9\u09ce\u09dc-\u09df]")
_BN_WORD = re.compile("[\u0980-\u09ff]+")


def _skeleton(word: str) -> str:
    return "".join(_CONSONANT.findall(word))


@cache
def _by_skeleton() -> dict[str, str]:
    from engine.judging.injection.phrases import phrases

    table: dict[str, str] = {}
    for ws in phrases().values():
        for p in ws:
            for w in _BN_WORD.findall(p):
                if len(s := _skeleton(w)) >= 2:
                    table.setdefault(s, w)
    return table


def _swaps(s: str) -> list[str]:
    """``s`` with two neighbouring letters swapped: a writer's slip in reversing by hand."""
    return [s[:i] + s[i + 1] + s[i] + s[i + 2 :] for i in range(len(s) - 1)]


def _word(token: str) -> str | None:
    back = _skeleton(token)[::-1]
    table = _by_skeleton()
    if back in table:
        return table[back]
    if len(back) >= 3:
        return next((table[s] for s in _swaps(back) if s in table), None)
    return None


def reversed_bengali(text: str) -> list[str]:
    """Lines of ``text`` (in matching form) that read as the lexicon's Bengali words once
    reversed: two such words at least, more than the line has as written."""
    table = _by_skeleton()
    found = []
    for line in text.splitlines()[:200]:
        tokens = _BN_WORD.findall(line[:2000])
        if len(tokens) < 2:
            continue
        forward = sum(_skeleton(t) in table for t in tokens)
        back = [_word(t) for t in reversed(tokens)]
        known = sum(b is not None for b in back)
        if known >= 2 and known > forward:
            rest = re.sub("[\u0980-\u09ff\\s]+", " ", line).strip()
            found.append(
                " ".join(b or t for b, t in zip(back, reversed(tokens), strict=True))
                + (f" {rest}" if rest else "")
            )
    return found
