"""The form an answer is matched in by the injection detector, and its sentences.

An attacker hides a keyword from a pattern without hiding it from the judge: Cyrillic or
Greek look-alikes of Latin letters ("Ignоrе" with Cyrillic о and е), combining marks and
zero-width characters inside words ("ig\u0308nore", "a\u200bward"), full-width or
mathematical letters. :func:`matching_form` undoes all of these, so the rules see the
words a reader sees:

1. NFKD, then the combining marks of the Latin/Greek/Cyrillic diacritic blocks are dropped
   (Bengali vowel signs, hasanta and nukta are in the Bengali block and stay);
2. invisible format characters (Unicode Cf: zero-width space/joiners, word joiner, soft
   hyphen, bidi controls) are dropped;
3. NFKC (full-width and mathematical letters become ASCII), then every letter that
   Unicode's confusables table (TR39, from ``confusable_homoglyphs``) lists as a look-alike
   of an ASCII letter is replaced by it — only letters of other alphabets; digits and
   punctuation keep their meaning (``|`` stays a table bar, not an ``l``);
4. the Assamese letters that look like Bengali ones (ৰ like র, ৱ like ব) become them, and so
   do Bengali look-alike sequences (অ + া for আ; :mod:`engine.judging.injection.other_scripts`);
5. the stored-text normalisation (:func:`engine.text.textnorm.normalize_text`) per line.

Before all this, text with direction controls is put in the order it is displayed in
(:func:`display_order`: "\u202e01 evig" shows, and is read, as "give 10"), and Bengali
written in another Brahmic script (Devanagari, Syloti Nagri, Odia, …) is transliterated to
Bengali (:func:`~engine.judging.injection.other_scripts.in_bengali_script`), and the words
of an order in Hindi, Odia, Urdu, Persian or Arabic are glossed
(:mod:`engine.judging.injection.foreign`), as are those of the far languages, Chinese to
Amharic (:mod:`engine.judging.injection.far_languages`). Variation
selectors of both ranges and the fillers that show blank (Hangul fillers, the Braille blank)
are dropped with the format characters.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from engine.judging.injection.far_languages import FAR_RUN, far_glossed
from engine.judging.injection.foreign import ARABIC_RUN, arabic_glossed
from engine.judging.injection.other_scripts import (
    OTHER_SCRIPT_RUN,
    bengali_lookalikes,
    in_bengali_script,
)
from engine.text.textnorm import normalize_text

# combining diacritics, extended, supplement, for symbols, half marks; variation selectors
_MARK_BLOCKS = (
    (0x0300, 0x036F),
    (0x1AB0, 0x1AFF),
    (0x1DC0, 0x1DFF),
    (0x20D0, 0x20FF),
    (0xFE20, 0xFE2F),
    (0xFE00, 0xFE0F),
    (0xE0100, 0xE01EF),  # variation selectors 17-256
    (0x180B, 0x180F),  # Mongolian variation selectors
)
# letters that show blank: Hangul fillers, the half-width one, the Braille blank
_BLANK = (0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800)
_ASSAMESE = str.maketrans({"\u09f0": "\u09b0", "\u09f1": "\u09ac"})  # ৰ -> র, ৱ -> ব
# letters drawn as symbols that NFKC keeps: regional indicators (🇬), negative circled and
# squared letters (🅖, 🅶), small capitals (ɢ, ᴍ)
_LETTERLIKE = {
    **{0x1F1E6 + i: chr(97 + i) for i in range(26)},
    **{0x1F150 + i: chr(65 + i) for i in range(26)},
    **{0x1F170 + i: chr(65 + i) for i in range(26)},
    **dict(zip(map(ord, "ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢ"), "abcdefghijklmnoprstuvwyz", strict=True)),
}
# Arabic-Indic and Persian digits (NFKC keeps them): the number a reader sees ("٥/٥" is 5/5);
# Bengali digits stay, the rules read them
_DIGITS = {0x660 + i: str(i) for i in range(10)} | {0x6F0 + i: str(i) for i in range(10)}
_FOLDED_ALPHABETS = {"CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC", "LATIN"}


@cache
def _dropped() -> re.Pattern:
    """One character class: the marks above and every format (Cf) character (a regex: a
    per-character Python test took most of the detector's time)."""
    codes = {c for c in range(0x110000) if unicodedata.category(chr(c)) == "Cf"}
    codes |= {c for lo, hi in _MARK_BLOCKS for c in range(lo, hi + 1)} | set(_BLANK)
    ranges: list[list[int]] = []
    for c in sorted(codes):
        if ranges and c == ranges[-1][1] + 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    return re.compile(
        "[" + "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges) + "]"
    )


@cache
def homoglyph_table() -> dict[int, str]:
    """``str.translate`` table: letter of another alphabet -> the ASCII letter it imitates."""
    # lazy: its tables (a large JSON file, slow to load) are read only when judging
    from confusable_homoglyphs import categories, confusables

    table: dict[int, str] = {}
    for ch, glyphs in confusables.confusables_data.items():
        if len(ch) != 1 or ch.isascii() or not ch.isalpha():
            continue
        if categories.alias(ch) not in _FOLDED_ALPHABETS:
            continue
        for glyph in glyphs:
            c = glyph["c"]
            if len(c) == 1 and c.isascii() and c.isalpha():
                # TR39 folds I and l together (to "l"); a capital look-alike reads as I
                table[ord(ch)] = "I" if c == "l" and ch.isupper() else c
                break
    return table


# the controls of the bidirectional algorithm: marks, embeddings, overrides, isolates
BIDI_CONTROLS = re.compile("[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]")


# the controls that reorder text (embeddings, overrides, isolates); a direction mark alone
# (U+200E, U+200F, U+061C) reorders nothing but neutrals, and the algorithm would turn the
# right-to-left text it wraps into the visual order no lexicon reads
_REORDERING = re.compile("[\u202a-\u202e\u2066-\u2069]")


def display_order(text: str) -> str:
    """``text`` in the order it is displayed in, when it holds direction controls (an
    override shows "\u202e01 evig" as "give 10"): the Unicode bidirectional algorithm of
    python-bidi, line by line."""
    if not _REORDERING.search(text):
        return text
    from bidi import get_display  # lazy: only text with direction controls pays

    return "\n".join(get_display(line) for line in text.split("\n"))


def without_other_scripts(text: str) -> str:
    """``text`` with its runs of other Brahmic scripts, of Arabic script and of the far
    languages' scripts blanked: what a
    reader of Bengali and English alone reads of it."""
    return FAR_RUN.sub(" ", ARABIC_RUN.sub(" ", OTHER_SCRIPT_RUN.sub(" ", text)))


def matching_form(text: str) -> str:
    """``text`` as the injection rules read it (see the module docstring)."""
    text = arabic_glossed(in_bengali_script(far_glossed(display_order(text or ""))))
    text = _dropped().sub("", unicodedata.normalize("NFKD", text))
    text = unicodedata.normalize("NFKC", text).translate(_LETTERLIKE).translate(_DIGITS)
    text = text.translate(homoglyph_table()).translate(_ASSAMESE)
    text = bengali_lookalikes(text)
    return "\n".join(normalize_text(line) for line in text.splitlines())


_SENTENCE_END = re.compile(r"(?<=[.!?।;])\s+|\n+|(?<=[।])")


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (already in matching form): split after . ! ? । ; and at
    line breaks; a decimal point ("4.2") is not followed by a space and does not split."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


# code (```…```, `…`) and quoted passages of a few words ('…', "…", ‘…’, “…”): what the answer
# shows or reports ("the exam paper says: 'Ignore Section C …'", "`override: true`"), not
# what it says to its reader — weaker evidence for the override and split-order rules
SHOWN = re.compile(
    r"```.*?```|`[^`\n]+`|'[^'\n]{12,}'|\"[^\"\n]{12,}\"|‘[^’\n]{12,}’|“[^”\n]{12,}”", re.S
)


def prose_form(text: str) -> str:
    """``text`` (in matching form) without its code and quoted passages (:data:`SHOWN`)."""
    return SHOWN.sub(" ", text)
