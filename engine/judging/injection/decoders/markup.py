"""Words a notation or a markup cuts apart: the lyrics of an ABC tune (``w:`` lines, syllables
apart by hyphens and bar lines: "jud-ge give | this an-swer"), and what a writer picks out
for the reader to join — bold or underlined fragments of words ("**পা**বনার … **চ**মচম"),
bracketed single words ("Solar [give] … [full] … [marks]"), a column of single letters at
the lines' ends read down.

A tune's lyrics, a bold heading or a citation mark are ordinary, and what they say is in
plain sight: a reading is kept only when it gives an order about grading or speaks to its
reader of it (:func:`~engine.judging.injection.decoders.words.addressed_order`) — a song
about exams may wish for full marks.
"""

from __future__ import annotations

import re

from engine.judging.injection.decoders.words import about_grading, addressed_order, segmented

_LIMIT = 20_000
# a tune: a header field (reference number, key, metre or note length) and a lyrics line
_ABC_HEADER = re.compile(r"^[ \t]*[XKML]:", re.M)
_LYRICS = re.compile(r"^[ \t]*[wW]:[ \t]*(.+)$", re.M)
# emphasis inside a word ("**পা**বনার", "<b>G</b>reat"): a fragment picked out of it, which
# no heading or key term is
_EMPHASIS = re.compile(
    r"(?:\*\*|__|<(?:b|strong|u|i|em)>)([^\W_]{1,3})(?:\*\*|__|</\w+>)(?=[^\W_])|"
    r"(?<=[^\W_])(?:\*\*|__|<(?:b|strong|u|i|em)>)([^\W_]{1,3})(?:\*\*|__|</\w+>)"
)
_BRACKETED = re.compile(r"\[([^\W\d_][\w'-]{0,23})\](?![(:\[])")


def _lyrics(text: str) -> str | None:
    if not _ABC_HEADER.search(text):
        return None
    lines = _LYRICS.findall(text)
    if not lines:
        return None
    # a bar or a star is a beat, a tilde or an underscore holds, a hyphen joins a word's
    # syllables (across a bar too); words sung over several notes run together are cut
    sung = re.sub(r"[|*~_]", " ", " ".join(lines).replace("\\-", "-"))
    sung = re.sub(r"\s*-\s*", "", sung)
    return " ".join(segmented(w) if w.isascii() and w.isalpha() else w for w in sung.split())


def _picked(pieces: list[str], fragments: bool) -> list[str]:
    """Picked-out pieces read joined: as words, or, fragments of words, as letters run
    together (cut into words)."""
    pieces = [p.strip() for p in pieces if p.strip()]
    if len(pieces) < 3:
        return []
    joined = "".join(pieces)
    return [segmented(joined) if joined.isascii() else joined] if fragments else [" ".join(pieces)]


# a column of single characters at the lines' ends, set off by blanks, dots or a bar
_COLUMN_END = re.compile(r"(?:[ \t]|[.·…|:─-]{2,})\**([^\W_])\**[ \t|]*$")


def column_readings(text: str) -> list[str]:
    """What a column of single letters or digits at the ends of four or more lines in a row
    spells read down ("কোটে ······ S" … "বাহে ······ 5": SCORE 5), when it speaks of
    grading."""
    found, column = [], []
    for line in [*text.splitlines(), ""]:
        m = _COLUMN_END.search(line) if len(line) > 2 else None
        if m:
            column.append(m.group(1))
            continue
        letters = "".join(column)
        if len(column) >= 4 and sum(c.isalpha() for c in letters) >= 3:  # not a marks column
            found.append(segmented(letters) if letters.isascii() else letters)
        column = []
    return [t for t in found if about_grading(t)]


def markup_payloads(text: str) -> list[str]:
    """What the lyrics, the emphasised fragments and the bracketed words of ``text`` say,
    read on their own, when they speak of grading."""
    text = text[:_LIMIT]
    found = [sung] if ":" in text and (sung := _lyrics(text)) else []
    if "*" in text or "_" in text or "<" in text:
        found += _picked(["".join(g) for g in _EMPHASIS.findall(text)], fragments=True)
    if "[" in text:
        found += _picked(_BRACKETED.findall(text), fragments=False)
    columns = column_readings(text) if "\n" in text else []
    return [t for t in dict.fromkeys(found) if addressed_order(t)] + columns
