"""What a stored text may hold, the same for every way text comes in: imports of every kind,
review packages, adjudication texts, batch replies, names typed on the command line or in the
GUI. One rule, so that no path lets through what another refuses.

A hidden character is refused rather than dropped: a control character, a bidirectional
embedding, override or isolate, a tag character, a variation selector outside an emoji
sequence, an invisible filler (Hangul fillers, the Braille blank) or any other default-ignorable
code point makes a text display one way and read another (``\\u202eঢাকা`` shows reversed; tag
characters spell a payload nobody sees), and storing it would pass it on to exports, prompts
and gold data. A text must also show something: empty or only invisible characters is not a
text. What passes is stored in Unicode NFC.

What stays allowed, because real text needs it: the joiners ZWJ/ZWNJ (U+200D, U+200C) inside
a word of an Indic script, where they choose a conjunct, a reph or an explicit hasanta
(ক্‍ষ, র‍্য, আহ্‌); ZWJ inside an emoji sequence; VS15/VS16 (U+FE0E/U+FE0F) after an emoji;
the tag spelling of the three subdivision flags (🏴 England, Scotland, Wales). Running text
(not names) may also hold tab and line breaks, a joiner at the edge of an Indic word, and
the formatting characters that the shipped corpora hold and that hide and reorder nothing
(U+200B, U+2060, U+FEFF, U+00AD, LRM/RLM/ALM).

Model replies are not refused (they keep what the model wrote); :func:`visible` shows their
hidden characters to a person and :func:`neutralised` is what a judge model reads.

Written by hand over the Unicode properties of the ``regex`` package (Default_Ignorable_Code_Point,
Extended_Pictographic, Emoji_Modifier): no maintained library states this policy (which hidden
characters a text may keep, and where), only the properties it is built from.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

import regex

from engine.errors import UserError
from engine.i18n import _

# The one bound on a name (of a model, an annotator, a reviewer, a dialect, a set, a file).
MAX_NAME_CHARS = 200
JOINERS = frozenset("\u200c\u200d")

# Every character that shows nothing or changes how others show. Cc covers C0, DEL and C1;
# Default_Ignorable_Code_Point covers format characters, joiners, variation selectors, tag
# characters and the Hangul fillers; U+2800 (Braille blank) and U+2028/U+2029 are added.
_HIDDEN = regex.compile(r"[\p{Cc}\p{Default_Ignorable_Code_Point}\u2800\u2028\u2029]")
_SPACES = regex.compile(r"[\p{Zs}\t]+")
_LINE_SPACE = frozenset("\t\n\r")
# Formatting that real corpora hold (web copies, RTL quotations) and that hides no text and
# reorders none: zero-width space, word joiner, BOM, soft hyphen, the LRM/RLM/ALM marks.
# Running text may hold them (the stored form drops U+200B and U+FEFF); a name may not.
_FORMATTING = frozenset("\u200b\u2060\ufeff\u00ad\u200e\u200f\u061c")
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")
_EMOJI_VS = frozenset("\ufe0e\ufe0f")
_INDIC = regex.compile(
    r"[\p{Script=Bengali}\p{Script=Devanagari}\p{Script=Gurmukhi}\p{Script=Gujarati}"
    r"\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}"
    r"\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Syloti_Nagri}]"
)
_EMOJI = regex.compile(r"[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Emoji}]")
_PICTOGRAPH = regex.compile(r"[\p{Extended_Pictographic}\p{Emoji_Modifier}]")
# 🏴 + tag letters of an ISO 3166-2 code + CANCEL TAG: the only tag characters emoji use.
_FLAG_TAGS = regex.compile("\U0001f3f4([\U000e0061-\U000e007a]+)\U000e007f")
_FLAGS = frozenset({"gbeng", "gbsct", "gbwls"})

# Unicode gives controls no Name; these are their Name_Alias values (C0 and DEL).
_C0 = (
    "NULL|START OF HEADING|START OF TEXT|END OF TEXT|END OF TRANSMISSION|ENQUIRY|ACKNOWLEDGE|"
    "BELL|BACKSPACE|CHARACTER TABULATION|LINE FEED|LINE TABULATION|FORM FEED|CARRIAGE RETURN|"
    "SHIFT OUT|SHIFT IN|DATA LINK ESCAPE|DEVICE CONTROL ONE|DEVICE CONTROL TWO|"
    "DEVICE CONTROL THREE|DEVICE CONTROL FOUR|NEGATIVE ACKNOWLEDGE|SYNCHRONOUS IDLE|"
    "END OF TRANSMISSION BLOCK|CANCEL|END OF MEDIUM|SUBSTITUTE|ESCAPE|INFORMATION SEPARATOR FOUR|"
    "INFORMATION SEPARATOR THREE|INFORMATION SEPARATOR TWO|INFORMATION SEPARATOR ONE"
).split("|")


def char_name(ch: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``: the code point and its Unicode name (or alias)."""
    code = ord(ch)
    if code < 0x20:
        name = _C0[code]
    elif code == 0x7F:
        name = "DELETE"
    elif 0x80 <= code <= 0x9F:
        name = "C1 CONTROL"
    else:
        name = unicodedata.name(ch, "UNNAMED")
    return f"U+{code:04X} {name}"


def _allowed_in_place(text: str, at: int, flag_spans: list[range], *, word: bool) -> bool:
    """Whether the hidden character at ``at`` is one real text needs where it stands; a
    joiner beside an Indic letter, or (``word``) between two."""
    ch = text[at]
    before = text[at - 1] if at else ""
    after = text[at + 1] if at + 1 < len(text) else ""
    if ch in JOINERS:
        sides = [bool(c) and _INDIC.match(c) is not None for c in (before, after)]
        emoji = ch == "\u200d" and bool(
            before
            and after
            and _PICTOGRAPH.match(after)
            and (_PICTOGRAPH.match(before) or before in _EMOJI_VS)
        )
        return (all(sides) if word else any(sides)) or emoji
    if ch in _EMOJI_VS:
        return bool(before) and _EMOJI.match(before) is not None
    return any(at in span for span in flag_spans)


def _flag_spans(text: str) -> list[range]:
    if "\U0001f3f4" not in text:
        return []
    spans = []
    for found in _FLAG_TAGS.finditer(text):
        letters = "".join(chr(ord(c) - 0xE0000) for c in found.group(1))
        if letters in _FLAGS:
            spans.append(range(found.start() + 1, found.end()))
    return spans


def hidden_characters(text: str, *, one_line: bool = False, shown: bool = False) -> list[int]:
    """Positions of the hidden characters ``text`` may not hold. Running text may hold tab
    and line breaks, the formatting characters of _FORMATTING and a joiner beside an Indic
    letter; a one-line text (a name) none of these but a joiner inside an Indic word.
    ``shown``: every hidden character a person should see marked in a model's reply (all
    but tab, line breaks and the joiners of running text)."""
    flags = _flag_spans(text)
    skip = frozenset() if one_line else _LINE_SPACE if shown else _LINE_SPACE | _FORMATTING
    return [
        found.start()
        for found in _HIDDEN.finditer(text)
        if found.group() not in skip
        and not _allowed_in_place(text, found.start(), flags, word=one_line)
    ]


def _kind(ch: str) -> str:
    code = ord(ch)
    if unicodedata.category(ch) == "Cc" or ch in "\u2028\u2029":
        return _("the control character")
    if ch in _BIDI:
        return _("the bidirectional control")
    if 0xE0000 <= code <= 0xE007F:
        return _("the tag character")
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:
        return _("the variation selector")
    if ch in _FILLERS:
        return _("the invisible filler")
    if ch in JOINERS:
        return _("the joiner")
    return _("the invisible character")


def control_problem(text: str, *, one_line: bool = False) -> str | None:
    """``holds the bidirectional control U+202E RIGHT-TO-LEFT OVERRIDE`` for the first hidden
    character ``text`` may not hold, else None."""
    hidden = hidden_characters(text, one_line=one_line)
    return None if not hidden else hidden_problem(text[hidden[0]])


def hidden_problem(ch: str) -> str:
    """``holds the tag character U+E0067 TAG LATIN SMALL LETTER G``: what a refused hidden
    character is, named."""
    where = ""
    if ch in _EMOJI_VS or 0xE0100 <= ord(ch) <= 0xE01EF:
        where = _(" outside an emoji sequence")
    elif ch in JOINERS:
        where = _(" outside a word or an emoji sequence")
    return _("holds {kind} {char}{where}").format(kind=_kind(ch), char=char_name(ch), where=where)


def invisible_only(text: str) -> bool:
    """Whether ``text`` shows nothing: empty, or only spaces and hidden characters."""
    return all(ch.isspace() or _HIDDEN.match(ch) for ch in text)


def text_problem(text: str, *, one_line: bool = False) -> str | None:
    """Why ``text`` cannot be stored (a hidden character; nothing visible), else None."""
    hidden = hidden_characters(text, one_line=one_line)
    first = text[hidden[0]] if hidden else ""
    if first and unicodedata.category(first) == "Cc":
        return hidden_problem(first)
    if invisible_only(text):
        shown = next((ch for ch in text if not ch.isspace()), "")
        named = _(" ({char})").format(char=char_name(shown)) if shown else ""
        return _("is empty or only invisible characters{named}").format(named=named)
    return hidden_problem(first) if first else None


def clean_text(text: str, where: str, *, one_line: bool = False, optional: bool = False) -> str:
    """``text`` in NFC, or a UserError ``{where}: the text holds …`` naming the character.
    ``where`` names the file and line, or the item; ``optional`` lets an empty or blank text
    through (a comment; the caller says what a blank text means), never one of only invisible
    characters."""
    text = unicodedata.normalize("NFC", text)
    if optional and not text.strip():
        return text
    problem = text_problem(text, one_line=one_line)
    if problem is not None:
        raise UserError(_("{where}: the text {problem}").format(where=where, problem=problem))
    return text


def name_problem(name: str) -> str | None:
    """Why ``name`` (of a model, an annotator, a reviewer, a set) cannot be used, else None:
    the text rules on one line, of at most MAX_NAME_CHARS characters."""
    if len(name) > MAX_NAME_CHARS:
        return _("has {n} characters, over the {limit} a name may have").format(
            n=len(name), limit=MAX_NAME_CHARS
        )
    return text_problem(name, one_line=True)


def folded_name(name: str) -> str:
    """``name`` in NFC with runs of spaces and tabs folded to one space, trimmed (a line
    break stays, for the rule to refuse)."""
    return _SPACES.sub(" ", unicodedata.normalize("NFC", name)).strip()


def checked_name(name: str, what: str) -> str:
    """``name`` as it is stored (white space folded, NFC), or a UserError saying why ``what``
    ("model name", "reviewer name", …) cannot be it: the one rule every name a user gives
    passes, whichever front end it comes from."""
    folded = folded_name(name)
    problem = name_problem(folded)
    if problem is not None:
        raise UserError(
            _("the {what} {name} {problem}").format(
                what=what, name=ascii_safe(name), problem=problem
            )
        )
    return folded


def ascii_safe(text: str, limit: int = 60) -> str:
    """``text`` quoted for a message, its hidden characters shown and its length cut."""
    shown = visible(text)
    return repr(shown if len(shown) <= limit else shown[:limit] + "…")


def reply_problem(text: str) -> str | None:
    """Why a model's reply cannot be stored as it was written, else None: only a NUL, which
    text columns, exports and terminals cut at. Everything else the model wrote is kept."""
    if "\x00" in text:
        return hidden_problem("\x00")
    return None


def _rewrite(text: str, mark: Callable[[str], str]) -> str:
    hidden = hidden_characters(text, shown=True)
    if not hidden:
        return text
    parts, last = [], 0
    for at in hidden:
        parts += [text[last:at], mark(text[at])]
        last = at + 1
    parts.append(text[last:])
    return "".join(parts)


def visible(text: str) -> str:
    """``text`` with each hidden character shown as ⟨U+202E⟩, for a person to read a model
    reply as it is: a reversed or hidden payload shows as markers where it stands."""
    return _rewrite(text, lambda ch: f"⟨U+{ord(ch):04X}⟩")


def neutralised(text: str) -> str:
    """``text`` without its hidden characters, in NFC: what a judge model reads, the same
    characters a person sees in :func:`visible` and in the same (logical) order."""
    return unicodedata.normalize("NFC", _rewrite(text, lambda ch: ""))
