"""Morse in the shapes a writer chooses: dots and dashes in any glyph (``.-``, ``•—``,
``·–``, ``._``), a letter a line, and spoken or written out as words ("dah-dah-dit dit",
"dash dash dot, dot dot", Bengali "ড্যাশ ড্যাশ ডট").

A run counts when every letter is Morse and the reading is words (two at least) or an order
to the grader (:func:`~engine.judging.injection.readings.hidden_order`): a single "SOS" or a
row of dashes reads as nothing.
"""

from __future__ import annotations

import re

from engine.judging.injection.decoders.words import segmented
from engine.judging.injection.readings.orders import hidden_order
from engine.judging.injection.text import matching_form

_LIMIT = 20_000
_CODE = dict(
    zip(
        ".- -... -.-. -.. . ..-. --. .... .. .--- -.- .-.. -- -. --- .--. --.- .-. ... - ..- "
        "...- .-- -..- -.-- --.. ----- .---- ..--- ...-- ....- ..... -.... --... ---.. ----.".split(),
        "abcdefghijklmnopqrstuvwxyz0123456789",
        strict=True,
    )
)
_DOTS = ".·•∙⋅●"
_DASHES = "\\-−–—‒_▬"
_SYMBOLS = str.maketrans({**dict.fromkeys(_DOTS, "."), **dict.fromkeys("-−–—‒_▬", "-")})
_GROUP = rf"[{_DOTS}{_DASHES}]{{1,7}}"
# letters apart by blanks, one line break, a bar or a slash; words by a slash, a blank line or
# three blanks: four letters at least ("score 5" is six)
_GAP = r"(?:[ \t]*\n[ \t]*(?:\n[ \t]*)?|[ \t]+(?:[/|][ \t]*)?|[ \t]*[/|][ \t]*)"
_RUN = re.compile(
    rf"(?<![\w{_DOTS}{_DASHES}]){_GROUP}(?:{_GAP}{_GROUP}){{3,}}(?![\w{_DOTS}{_DASHES}])"
)
_WORD_BREAK = re.compile(r"[ \t]*(?:/|\|)[ \t]*|[ \t]*\n[ \t]*\n[ \t]*|[ \t]{3,}")

# written out as words: dit/di/dot (ডট, ডিট) and dah/da/dash (ড্যাশ, ড্যাস, ডাহ)
_DOT_WORD = r"(?:dit|di|dot|ডট|ডিট)"
_DASH_WORD = r"(?:dash|dah|da|ড্যাশ|ড্যাস|ডাহ)"
_SPOKEN_TOKEN = rf"(?:{_DOT_WORD}|{_DASH_WORD})"
_SPOKEN = re.compile(
    rf"(?<![\w\u0980-\u09ff]){_SPOKEN_TOKEN}(?:[\s,;|/.\-–—]+{_SPOKEN_TOKEN}){{5,}}"
    r"(?![\w\u0980-\u09ff])",
    re.I,
)
_SPOKEN_PIECE = re.compile(rf"({_SPOKEN_TOKEN})([\s,;|/.\-–—]*)", re.I)


def _letters(groups: list[str]) -> str | None:
    letters = [_CODE.get(g) for g in groups if g]
    return "".join(c for c in letters if c) if letters and all(letters) else None


def _reading(words: list[str | None]) -> str | None:
    if not words or not all(words):
        return None
    if len(words) >= 4 and all(w and len(w) == 1 for w in words):
        words = [segmented("".join(w for w in words if w))]  # a slash after every letter
    text = " ".join(w for w in words if w)
    order = hidden_order(matching_form(text))
    return text if order or (len(words) >= 2 and len(text) >= 6) else None


def _symbol_run(run: str) -> str | None:
    run = run.translate(_SYMBOLS)
    return _reading([_letters(w.split()) for w in _WORD_BREAK.split(run) if w.strip()])


def _strength(gap: str) -> int:
    """How far a gap parts dits and dahs: 4 words, 3 and 2 letters or the symbols of one
    letter (whichever the run uses inside letters), 1 inside a letter only."""
    if "/" in gap or "\n\n" in gap or "   " in gap:
        return 4
    if re.search(r"[,;|.\n]|\s{2}", gap):
        return 3
    return 2 if re.search(r"\s", gap) else 1


def _spoken_run(run: str) -> str | None:
    """Dits and dahs written as words ("dah-dah-dit dit", "dash dash dot, dot dot"): the
    weakest gap the run uses parts the symbols of a letter, the next one letters, any
    stronger one words."""
    pieces = _SPOKEN_PIECE.findall(run)
    strengths = [_strength(g) for _, g in pieces[:-1]] + [4]
    levels = sorted(set(strengths) - {4})
    letter_gap = levels[1] if len(levels) > 1 else levels[0] if levels else 4
    words, letters, symbols = [], [], ""
    for (token, _), level in zip(pieces, strengths, strict=True):
        symbols += "." if re.fullmatch(_DOT_WORD, token, re.I) else "-"
        if level >= letter_gap:
            letters.append(symbols)
            symbols = ""
        if level > letter_gap or level == 4:
            words.append(_letters(letters))
            letters = []
    return _reading(words)


def morse_payloads(text: str) -> list[str]:
    """What the Morse runs of ``text`` spell, in any of the shapes above."""
    text = text[:_LIMIT]
    found = []
    for m in _RUN.finditer(text):
        # a run over several lines that fails as a whole may still hold one that reads
        lines = [m.group(0), *(m.group(0).splitlines() if "\n" in m.group(0) else ())]
        found += next(([t] for line in lines if (t := _symbol_run(line))), [])
    if re.search(_SPOKEN_TOKEN, text, re.I):
        found += [t for m in _SPOKEN.finditer(text) if (t := _spoken_run(m.group(0)))]
    return list(dict.fromkeys(found))
