"""Letters run together cut back into words (a spelling alphabet or a row of flags spells
"FULLMARKS" without a gap), and the cheap test that a soft channel's reading is worth reading.

Hand-written: no word-segmentation library is installed, and the cut only needs the compact
vocabulary of :mod:`engine.judging.injection.readings.vocabulary` (grading's words and the
common ones); letters it does not know stay together.
"""

from __future__ import annotations

import re
from functools import cache

from engine.judging.injection.readings.orders import hidden_order
from engine.judging.injection.readings.vocabulary import english_words
from engine.judging.injection.text import matching_form

_LONGEST = 12


@cache
def _vocabulary() -> frozenset[str]:
    return frozenset(w for w in english_words() if len(w) > 1 or w in ("a", "i"))


def segmented(letters: str) -> str:
    """``letters`` (one word's worth, no spaces) cut into known words, fewest unknown
    letters first, then fewest words; digits stand alone. A short word that does not cut
    wholly into known ones stays as written."""
    if len(letters) > 200:
        return letters
    low = letters.lower()
    n = len(low)
    # best[i]: (unknown letters, words) for low[:i], and where its last piece starts
    best: list[tuple[int, int, int]] = [(0, 0, 0)] + [(n + 1, n + 1, 0)] * n
    vocabulary = _vocabulary()
    for end in range(1, n + 1):
        for start in range(max(0, end - _LONGEST), end):
            piece = low[start:end]
            if piece in vocabulary or piece.isdigit():
                cost = (best[start][0], best[start][1] + 1, start)
            elif end - start == 1:
                cost = (best[start][0] + 1, best[start][1] + 1, start)
            else:
                continue
            best[end] = min(best[end], cost)
    if best[n][0] and n <= 8:
        return letters  # a short word the vocabulary lacks ("today", "sylhet") stays whole
    pieces, end = [], n
    while end:
        start = best[end][2]
        pieces.append(letters[start:end])
        end = start
    # unknown letters in a row stay one piece ("sylhet", not "s y l h e t")
    out: list[str] = []
    for piece in reversed(pieces):
        if out and len(piece) == 1 and piece.lower() not in vocabulary and not piece.isdigit():
            if len(out[-1]) == 1 or out[-1].lower() not in vocabulary:
                out[-1] += piece
                continue
        out.append(piece)
    return " ".join(out)


# the words a reading about grading uses: what a soft channel (flags, a spelling alphabet,
# lyrics, bold letters) must say before it counts — a legitimate spelling reads as none
_GRADING = re.compile(
    r"\b(?:give|award|assign|grant|full|max(?:imum)?|top|perfect|marks?|score|grade|points?|"
    r"rating|ignore|disregard|forget|rubric|instructions?|criteria|judge|grader|evaluator|"
    r"examiner|reviewer|marker|correct|verdict|pass|ten|five|10|5)\b|"
    r"নম্বর|পূর্ণ|সর্বোচ্চ|বিচারক|পরীক্ষক|মূল্যায়ন|নির্দেশ|রুব্রিক|দশে দশ|পাঁচে পাঁচ|"
    r"\b(?:nombor|number|purno|puro|shorbocchho|bicharok|porikkhok|din|dao|diben)\b",
    re.I,
)


def about_grading(reading: str) -> bool:
    """Whether ``reading`` speaks of grading at all (a soft channel's reading is kept only
    then; the rules decide what it says)."""
    return bool(_GRADING.search(reading) or hidden_order(matching_form(reading)))


# an order's verb or the one it is given to: what a reading in plain sight (a song's lyrics,
# words picked out) needs beside grading's words — "get full marks today" is a song about exams
_ADDRESSED = re.compile(
    r"\b(?:give|award|assign|grant|ignore|disregard|forget|judge|grader|evaluator|examiner|"
    r"marker|reviewer|you|your|this answer|my answer)\b|"
    r"দিন|দাও|দেবেন|উপেক্ষা|বিচারক|পরীক্ষক|মূল্যায়নকারী|এই উত্তর|আমার উত্তর",
    re.I,
)


def addressed_order(reading: str) -> bool:
    """Whether ``reading`` speaks of grading with an order's verb or to someone (a reading of
    what is in plain sight is kept only then)."""
    return about_grading(reading) and bool(_ADDRESSED.search(reading))
