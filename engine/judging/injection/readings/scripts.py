"""Any script to Latin letters by sound: the reading of English spelt in Thai, kana, Hangul,
Cyrillic or Greek letters ("จัดจ์: อิกนอร์ เดอะ รูบริก", "ギブ・フル・マークス"), and Armenian or
Georgian when ``anyascii`` is installed.

``anyascii`` (maintained, every script) is used when it is installed; without it, compact
tables of the scripts above stand in (the environment lacks it). Only consonants matter to
the English-by-sound match (:mod:`engine.judging.injection.readings.by_sound`), so vowel
signs are read plainly and tones dropped. Brahmic scripts are read by
:mod:`engine.judging.injection.other_scripts` and :func:`~engine.judging.injection.far_languages.sounded_english`.
"""

from __future__ import annotations

import importlib
import re
import unicodedata
from collections.abc import Callable
from functools import cache

_KANA = dict(
    zip(
        "アイウエオカキクケコガギグゲゴサシスセソザジズゼゾタチツテトダヂヅデドナニヌネノ"
        "ハヒフヘホバビブベボパピプペポマミムメモヤユヨラリルレロワヲンヴァィゥェォャュョ",
        "a i u e o ka ki ku ke ko ga gi gu ge go sa shi su se so za ji zu ze zo ta chi tsu te to "
        "da ji zu de do na ni nu ne no ha hi fu he ho ba bi bu be bo pa pi pu pe po ma mi mu me "
        "mo ya yu yo ra ri ru re ro wa wo n vu a i u e o ya yu yo".split(),
        strict=True,
    )
)
_THAI = dict(
    zip(
        "กขฃคฅฆงจฉชซฌญฎฏฐฑฒณดตถทธนบปผฝพฟภมยรลวศษสหฬอฮะัาำิีึืุูเแโใไ",
        "k kh kh kh kh kh ng j ch ch s ch y d t th th th n d t th th th n b p ph f ph f ph m y r "
        "l w s s s h l _ h a a a am i i ue ue u u e ae o ai ai".split(),
        strict=True,
    )
)
_CYRILLIC = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюяіїєґ",
        "a b v g d e yo zh z i y k l m n o p r s t u f kh ts ch sh shch _ y _ e yu ya i yi ye g".split(),
        strict=True,
    )
)
_GREEK = dict(
    zip(
        "αβγδεζηθικλμνξοπρσςτυφχψω",
        "a v g d e z i th i k l m n x o p r s s t y f kh ps o".split(),
        strict=True,
    )
)
_HANGUL_FIRST = "g kk n d tt r m b pp s ss _ j jj ch k t p h".split()
_HANGUL_VOWEL = "a ae ya yae eo e yeo ye o wa wae oe yo u wo we wi yu eu ui i".split()
_HANGUL_LAST = "_ g kk gs n nj nh d l lg lm lb ls lt lp lh m b bs s ss ng j ch k t p h".split()


@cache
def _table() -> dict[int, str]:
    table: dict[int, str] = {}
    for letters in (_KANA, _THAI, _CYRILLIC, _GREEK):
        for ch, latin in letters.items():
            table[ord(ch)] = "" if latin == "_" else latin
            if "\u30a1" <= ch <= "\u30f6":  # hiragana: the same syllables, 0x60 below
                table[ord(ch) - 0x60] = table[ord(ch)]
    for ch in "ーッっ่้๊๋์็":  # length, the doubling mark, Thai tones and silencers
        table[ord(ch)] = ""
    table[ord("・")] = " "
    for code in range(0xAC00, 0xD7A4):  # Hangul syllables: first consonant, vowel, last
        first, rest = divmod(code - 0xAC00, 588)
        vowel, last = divmod(rest, 28)
        parts = (_HANGUL_FIRST[first], _HANGUL_VOWEL[vowel], _HANGUL_LAST[last])
        table[code] = "".join(p for p in parts if p != "_")
    return table


def _anyascii() -> Callable[[str], str] | None:
    try:
        module = importlib.import_module("anyascii")
    except ImportError:
        return None
    convert: Callable[[str], str] = module.anyascii
    return convert


# letters of a script that is neither Latin nor Bengali (nor CJK ideographs, read by the
# far-language glosses): what English spelt by sound is written in. Not the abjads: Arabic and
# Hebrew write no short vowels, so their words' consonants alone match English words by
# chance (English in Arabic letters is in foreign.toml's lexicon)
_FOREIGN_LETTER = re.compile(
    "[\u0370-\u03ff\u0400-\u04ff\u0530-\u058f\u0e00-\u0e7f\u10a0-\u10ff\u3040-\u30ff\uac00-\ud7af]"
)


def has_foreign_letters(text: str) -> bool:
    return bool(_FOREIGN_LETTER.search(text))


def to_latin(text: str) -> str:
    """``text`` with its letters of other scripts in Latin letters, by sound."""
    text = unicodedata.normalize("NFC", text.lower())
    convert = _anyascii()
    if convert is not None:
        return str(convert(text)).lower()
    return text.translate(_table())
