"""Legacy Bijoy/SutonnyMJ text: detection, conversion to Unicode, and Romanized Bengali.

Bijoy (the Bangladeshi keyboard) with the SutonnyMJ family of fonts stores Bengali as
ASCII and Latin-1/cp1252 glyph codes: "Avwg evsjvq K_v ewj" is আমি বাংলায় কথা বলি. The
file holds glyphs in *visual* order: the vowel signs ি ে ৈ come before the consonant they
follow in Unicode, and the reph (র্) mark comes after the consonant it precedes.

Converter: table-driven (:data:`GLYPHS`, longest match first) plus the reordering rules
above, written here because the PyPI converters measured against our own Bijoy↔Unicode
set (tests/engine/importing/bijoy_pairs.py, 30 pairs) were wrong or unusable:
``bijoytounicode`` 1.1.1 (MPL-2.0, 2018) 27/30, ``bijoy2unicode`` 0.1.1 (2018) 25/30 with
IndexErrors, ``unicodeconverter`` 0.1.0b12 29/30 and GPL-3.0, which an MIT application
cannot take as a dependency. A glyph the table does not know is never passed through
silently: :func:`bijoy_to_unicode` raises :class:`UnknownGlyph`.

Detection (:func:`looks_bijoy`) works without marker characters: in Bijoy the letter 'v'
(া) makes up ~10–25% of the letters and Latin vowels are rare (a e i o u are ধ ব র ড় ঁ),
while English and Romanized Bengali ("ami banglay kotha boli") are vowel-rich. Romanized
Bengali is legitimate data (the script study's 'roman' script), recognised by
:func:`script_of` and never converted.
"""

from __future__ import annotations

import re
import unicodedata

HASANT = "\u09cd"

# Glyph code -> Unicode (SutonnyMJ layout). Multi-character codes are matched first.
# fmt: off
GLYPHS: dict[str, str] = {
    # independent vowels
    "A": "অ", "B": "ই", "C": "ঈ", "D": "উ", "E": "ঊ", "F": "ঋ", "G": "এ", "H": "ঐ",
    "I": "ও", "J": "ঔ",
    # consonants
    "K": "ক", "L": "খ", "M": "গ", "N": "ঘ", "O": "ঙ", "P": "চ", "Q": "ছ", "R": "জ",
    "S": "ঝ", "T": "ঞ", "U": "ট", "V": "ঠ", "W": "ড", "X": "ঢ", "Y": "ণ", "Z": "ত",
    "_": "থ", "`": "দ", "a": "ধ", "b": "ন", "c": "প", "d": "ফ", "e": "ব", "f": "ভ",
    "g": "ম", "h": "য", "i": "র", "j": "ল", "k": "শ", "l": "ষ", "m": "স", "n": "হ",
    "o": "ড়", "p": "ঢ়", "q": "য়", "r": "ৎ",
    # signs
    "s": "ং", "t": "ঃ", "u": "ঁ", "&": HASANT, "|": "।",
    # vowel signs after the consonant
    "v": "া", "x": "ী", "y": "ু", "z": "ু", "~": "ূ", "…": "ৃ", "„": "ৃ", "Š": "ৗ",
    "“": "ু", "–": "ু", "ƒ": "ূ", "‚": "ূ",
    # vowel signs written before the consonant (reordered)
    "w": "ি", "‡": "ে", "†": "ে", "ˆ": "ৈ", "‰": "ৈ",
    # phala forms, joined below or after the consonant
    "¨": HASANT + "য", "Ö": HASANT + "র", "ª": HASANT + "র", "«": HASANT + "র",
    "¬": HASANT + "ল", "œ": HASANT + "ন", "Ÿ": HASANT + "ব", "¦": HASANT + "ব",
    "¡": HASANT + "ব", "¥": HASANT + "ম", "§": HASANT + "ম", "¢": HASANT + "ভ",
    "—": HASANT + "ত", "‘": HASANT + "ত", "Í": HASANT + "ত", "’": HASANT + "থ",
    "‹": HASANT + "ক", "Œ": HASANT + "ক" + HASANT + "র", "¿": HASANT + "ত" + HASANT + "র",
    "è": HASANT + "ন", "ú": HASANT + "প",
    # half forms (consonant + hasant, joined to what follows)
    "¯": "স" + HASANT, "š": "ন" + HASANT, "›": "ঙ" + HASANT, "˜": "দ" + HASANT,
    "™": "দ" + HASANT, "”": "চ" + HASANT, "•": "ঙ" + HASANT, "¤": "ম" + HASANT,
    # conjunct glyphs
    "°": "ক্ক", "±": "ক্ট", "²": "ক্ষ্ণ", "³": "ক্ত", "´": "ক্ম", "µ": "ক্র", "¶": "ক্ষ",
    "ÿ": "ক্ষ", "·": "ক্স", "¸": "গু", "¹": "জ্ঞ", "º": "গ্দ", "»": "গ্ধ", "¼": "ঙ্ক",
    "½": "ঙ্গ", "¾": "জ্জ", "À": "জ্ঝ", "Á": "জ্ঞ", "Â": "ঞ্চ", "Ã": "ঞ্ছ", "Ä": "ঞ্জ",
    "Å": "ঞ্ঝ", "Æ": "ট্ট", "Ç": "ড্ড", "È": "ণ্ট", "É": "ণ্ঠ", "Ê": "ণ্ড", "Ë": "ত্ত",
    "Ì": "ত্থ", "Î": "ত্র", "Ï": "দ্দ", "×": "দ্ধ", "Ø": "দ্ব", "Ù": "দ্ম", "Ú": "ন্ঠ",
    "Û": "ন্ড", "Ü": "ন্ধ", "Ý": "ন্স", "Þ": "প্ট", "ß": "প্ত", "à": "প্প", "á": "প্স",
    "â": "ব্জ", "ã": "ব্দ", "ä": "ব্ধ", "å": "ভ্র", "æ": "ম্ন", "ç": "ম্ফ", "é": "ল্ক",
    "ê": "ল্গ", "ë": "ল্ট", "ì": "ল্ড", "í": "ল্প", "î": "ল্ফ", "ï": "শু", "ð": "শ্চ",
    "ñ": "শ্ছ", "ò": "ষ্ণ", "ó": "ষ্ট", "ô": "ষ্ঠ", "õ": "ষ্ফ", "ö": "স্খ", "÷": "স্ট",
    "ø": "স্ন", "ù": "স্ফ", "û": "হু", "ü": "হৃ", "ý": "হ্ন", "þ": "হ্ম",
    # punctuation drawn with other code points in SutonnyMJ
    "Ñ": "–", "Ò": "“", "Ó": "”", "Ô": "‘", "Õ": "’",
}
# fmt: on
GLYPHS.update({str(d): "০১২৩৪৫৬৭৮৯"[d] for d in range(10)})
REPH = "©"

_PRE_KARS = {"ি", "ে", "ৈ"}
_CONSONANTS = set("কখগঘঙচছজঝঞটঠডঢণতথদধনপফবভমযরলশষসহৎ") | {"ড়", "ঢ়", "য়"}
_KEYS = sorted(GLYPHS, key=len, reverse=True)
_TOKEN = re.compile("|".join(re.escape(k) for k in _KEYS) + "|" + re.escape(REPH) + "|.", re.S)
# Code points of the SutonnyMJ glyph range that the table does not know.
_GLYPH_RANGE = re.compile(
    r"[\u0080-\u00ff\u0152\u0153\u0160\u0161\u0178\u0192\u02c6\u02dc\u2013-\u203a\u2122]"
)


class UnknownGlyph(ValueError):
    """A code point in the Bijoy glyph range that the conversion table does not know."""


def bijoy_to_unicode(text: str) -> str:
    """Convert Bijoy/SutonnyMJ text to NFC Unicode Bengali (ASCII punctuation kept)."""
    out: list[str] = []
    pending = ""  # a pre-base vowel sign waiting for the end of its consonant cluster
    cluster_start = -1  # index in ``out`` where the last consonant cluster began
    in_cluster = False
    for token in _TOKEN.findall(text):
        if token == REPH:
            if cluster_start < 0:
                raise UnknownGlyph("reph mark '©' with no consonant before it")
            out.insert(cluster_start, "র" + HASANT)
            continue
        piece = GLYPHS.get(token)
        if piece is None:
            if _GLYPH_RANGE.match(token):
                raise UnknownGlyph(f"Bijoy glyph '{token}' (U+{ord(token):04X}) is not known")
            piece = token
        if in_cluster and (piece.startswith(HASANT) or out[-1].endswith(HASANT)):
            if piece.startswith(HASANT) and out[-1].endswith(HASANT):
                piece = piece[1:]  # half form + phala: one hasant
            out.append(piece)  # the cluster goes on: a phala, or after a half form
            continue
        if in_cluster:
            in_cluster = False
            if pending:
                merged = _MERGED.get((pending, piece))
                out.append(merged or pending)
                pending = ""
                if merged:
                    continue
        if piece in _PRE_KARS:
            if pending:
                out.append(pending)  # a sign with no consonant: keep it where it stood
            pending = piece
            continue
        if piece[0] in _CONSONANTS:
            cluster_start, in_cluster = len(out), True
        elif piece.isspace():
            cluster_start = -1
        out.append(piece)
    if pending:
        out.append(pending)
    return unicodedata.normalize("NFC", "".join(out).replace("অা", "আ"))


_MERGED = {("ে", "া"): "ো", ("ে", "ৗ"): "ৌ"}


# -- detection -----------------------------------------------------------------------------
# Characters that in a text without Bengali code points only Bijoy uses this way.
_MARKERS = set("†‡ˆ‰©¨¯¿Ö×ØÙÚÛÜÝÞßÐÑÒÓÔÕ¤¢£¥¦§ª«¬®±²³´µ¶·¸¹º»¼½¾…„Š‹Œ—š›˜™”œŸ¡ÿ")
# Of those, the ones that European-language or typographic text does not use.
_STRONG_MARKERS = set("†‡ˆ‰Šš›˜œŸ¨¯¬¦‹Œ")
_BIJOY_PUNCT = set("`_~|")
_LATIN_VOWELS = set("aeiou")
# Frequent words of Romanized Bengali (Banglish), to tell it from English.
BANGLISH_WORDS = frozenset(
    """ami amar amra apni apnar tumi tomar tomra se tar tara ki keno kemon kothay kotha
    koro kori kore korchi korbo korte bolo boli bole bollo jai jao jabo ache achi acho achen
    nai nei na hobe hoy holo hoye valo bhalo vai bhai bon ma baba bari bhat khai khabo khete
    onek ekta eta ota kichu kono shob sob amake tomake take bangla banglay bangladesh dhaka
    ekhon tokhon kal aj ajke shathe sathe jonno theke diye kintu abar mone hoy""".split()
)


def _foreign(c: str) -> bool:
    """A letter or combining mark outside ASCII that is not a Bijoy glyph code."""
    if c.isascii() or c in GLYPHS or c in _MARKERS or c == REPH:
        return False
    return c.isalpha() or unicodedata.category(c).startswith("M")


def _letters(text: str) -> list[str]:
    return [c for c in text if c.isascii() and c.isalpha()]


def looks_bijoy(text: str) -> bool:
    """True when ``text`` (without Bengali code points) reads as Bijoy/SutonnyMJ ASCII."""
    if any("\u0980" <= c <= "\u09ff" for c in text):
        return False
    if any(_foreign(c) for c in text):
        return False  # IPA, accented or other-script letters: Bijoy fonts never hold them
    letters = _letters(text)
    if not letters:
        return False
    v_share = letters.count("v") / len(letters)
    w_share = letters.count("w") / len(letters)
    vowels = sum(1 for c in letters if c in _LATIN_VOWELS) / len(letters)
    if any(c in _STRONG_MARKERS for c in text):
        return True
    markers = sum(1 for c in text if c in _MARKERS)
    if (markers >= 3 or (markers and v_share >= 0.03)) and vowels <= 0.32:
        return True
    if len(letters) < 6:
        # one short word: only a Bijoy-typical shape ("XvKv") counts; "Ni" stays unknown
        return len(letters) >= 3 and v_share >= 0.2 and vowels <= 0.25
    upper_inside = sum(
        1 for word in text.split() for c in word[1:] if c.isascii() and c.isupper()
    ) + sum(1 for c in text if c in _BIJOY_PUNCT)
    if vowels > 0.32:
        return False  # English and Romanized Bengali are vowel-rich
    return v_share >= 0.10 or (v_share + w_share >= 0.10 and upper_inside >= 1)


def banglish_share(text: str) -> float:
    """Share of words that are frequent Romanized-Bengali words."""
    words = re.findall(r"[a-z]+", text.casefold())
    return sum(w in BANGLISH_WORDS for w in words) / len(words) if words else 0.0


def script_of(text: str) -> str:
    """'bengali', 'bijoy', 'roman' (Latin letters: Romanized Bengali or other Latin
    text) or 'none' (no letters)."""
    if any("\u0980" <= c <= "\u09ff" for c in text):
        return "bengali"
    if looks_bijoy(text):
        return "bijoy"
    return "roman" if _letters(text) else "none"


__all__ = [
    "GLYPHS",
    "UnknownGlyph",
    "bijoy_to_unicode",
    "looks_bijoy",
    "script_of",
    "banglish_share",
]
