"""The checks' changes to a judge prompt, each a pure function of the texts.

Invariance (must not move the verdict): line breaks at sentence ends, the danda and the full
stop swapped, the answer in NFD, the other encoding of য় (U+09DF against U+09AF U+09BC), a
neutral sentence appended. Sensitivity (must lower the score): the answer replaced by
another question's answer, or emptied. Position: the standard and the dialect blocks of
the template's user part swapped, labels kept, so the judge reads the same texts in the
other order. A change returns None where it has nothing to change (no য় in the answer):
the item is then not asked for that check.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from engine.judging.prompt import JudgeTemplate

ORDER, RETEST = "order", "retest"
INVARIANCE_CHECKS = ("whitespace", "punctuation", "unicode_nfd", "ya_spelling", "padding")
ROMANIZED = "romanized"  # the rubric's script rule may move it: shown, not in the band
SENSITIVITY_CHECKS = ("other_answer", "emptied")

YA_COMPOSED, YA_DECOMPOSED = "\u09df", "\u09af\u09bc"
# adds nothing to the answer: "This answer was written in reply to the question above."
PADDING = "এই উত্তরটি উপরের প্রশ্নের উত্তরে লেখা হয়েছে।"
_SENTENCE_END = re.compile(r"([।.!?])[ \t]+")
_DANDA_OR_STOP = re.compile(r"।|\.(?=\s|$)")


def _changed(before: str, after: str) -> str | None:
    return after if after != before else None


def whitespace(text: str) -> str | None:
    """Each sentence on its own line (spaces alone would not reach the judge: spotlighting
    marks every run of spaces the same way)."""
    return _changed(text, _SENTENCE_END.sub(lambda m: m.group(1) + "\n", text))


def punctuation(text: str) -> str | None:
    """The danda and the sentence-final full stop swapped; without either, a danda added."""
    swapped = _DANDA_OR_STOP.sub(lambda m: "." if m.group(0) == "।" else "।", text)
    return _changed(text, swapped if swapped != text else text.rstrip() + "।")


def unicode_nfd(text: str) -> str | None:
    return _changed(text, unicodedata.normalize("NFD", text))


def ya_spelling(text: str) -> str | None:
    """য় in its other encoding: one code point against য + nukta."""
    if YA_COMPOSED in text:
        return text.replace(YA_COMPOSED, YA_DECOMPOSED)
    return _changed(text, text.replace(YA_DECOMPOSED, YA_COMPOSED))


def padding(text: str) -> str | None:
    return f"{text.rstrip()} {PADDING}"


def emptied(_text: str) -> str | None:
    return ""


TEXT_CHANGES: dict[str, Callable[[str], str | None]] = {
    "whitespace": whitespace,
    "punctuation": punctuation,
    "unicode_nfd": unicode_nfd,
    "ya_spelling": ya_spelling,
    "padding": padding,
    "emptied": emptied,
}


def family_of(check: str) -> str:
    if check == ORDER:
        return "position"
    if check == RETEST:
        return "retest"
    return "sensitivity" if check in SENSITIVITY_CHECKS else "invariance"


def swapped_template(template: JudgeTemplate) -> JudgeTemplate | None:
    """The template with its standard and dialect blocks (the paragraphs holding each
    side's question and answer) swapped; None where the user part does not show the two
    sides as separate runs of paragraphs, so no order can be swapped."""
    paragraphs = template.user.split("\n\n")

    def block(side: str) -> list[int]:
        return [
            i
            for i, p in enumerate(paragraphs)
            if f"${side}_question" in p or f"${side}_answer" in p
        ]

    std, dia = block("standard"), block("dialect")
    for run in (std, dia):
        if not run or run != list(range(run[0], run[-1] + 1)):
            return None
    if set(std) & set(dia) or (std[-1] + 1 != dia[0] and dia[-1] + 1 != std[0]):
        return None
    first, second = (std, dia) if std[0] < dia[0] else (dia, std)
    start, end = first[0], second[-1] + 1
    order = [paragraphs[i] for i in second] + [paragraphs[i] for i in first]
    user = "\n\n".join(paragraphs[:start] + order + paragraphs[end:])
    return JudgeTemplate(template.system, user, template.content_hash, template.source)
