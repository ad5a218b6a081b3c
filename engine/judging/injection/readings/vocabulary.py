"""Whether a decoded reading is words: the share of its tokens a compact English vocabulary
knows (the common function words, and the words of grading and of orders to a grader).

Hand-written: the environment has no English word list (no ``wordfreq``, no NLTK corpora),
and a decoder only needs to tell words from the noise a wrong key gives.
"""

from __future__ import annotations

import re
from functools import cache

_COMMON = """
a about above after again all also am an and answer any are as at back be because been before
being below best both but by can could correct did do does done each every few first for from
full get give given gives go good got grade had has have he her here high him his how i if in
into is it its just know last like make many may me more most must my new next no not now of
off on once one only or other our out over own please right same say says score see she should
so some such than that the their them then there these they this those through to too two under
until up us use very was we well were what when where which while who whom why will with would
yes yet you your yours final only new note system mode read output print return write set
value true false done pass passed fail top max maximum highest perfect excellent marks mark
points point rating rate grader judge evaluator examiner assessor reviewer ignore disregard
forget skip override previous prior instructions instruction rules rule rubric criteria
criterion guidelines prompt evaluation grading scoring award assign grant deserve deserves
ten five four three nine eight seven six zero hundred out verified checked approved secret
hidden message ai model assistant user admin developer always never ever again kindly dear
hello hi thank thanks regards sir madam full-marks answer's is this them it's that's
""".split()


@cache
def english_words() -> frozenset[str]:
    """The vocabulary above, with the Latin words of the detector's own lexicon."""
    from engine.judging.injection.phrases import phrases  # lazy: phrases read text's forms

    lexicon = {w for ws in phrases().values() for p in ws for w in p.split() if w.isascii()}
    return frozenset(_COMMON) | frozenset(w for w in lexicon if w.isalpha())


_TOKEN = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def known_share(text: str) -> tuple[int, float]:
    """(known words, their share of the words) of ``text``."""
    tokens = [t.lower() for t in _TOKEN.findall(text)]
    if not tokens:
        return 0, 0.0
    known = sum(t in english_words() for t in tokens)
    return known, known / len(tokens)


def reads_as_words(text: str, least: int = 3, share: float = 0.5) -> bool:
    """Whether ``text`` reads as English words: ``least`` known ones, ``share`` of them."""
    known, part = known_share(text)
    return known >= least and part >= share
