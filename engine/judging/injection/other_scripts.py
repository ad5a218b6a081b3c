"""Bengali written in another script, and Bengali letters that imitate others.

A judge reads Bengali written in Devanagari ("पूर्ण नम्बर दिन"), Syloti Nagri, Odia or any
other Brahmic script as the Bengali it spells; a pattern over the Bengali block does not.
:func:`in_bengali_script` transliterates such runs: with indic-transliteration's sanscript
(already the project's transliterator) for the scripts it covers, and for Syloti Nagri, which
it does not cover, with Unicode's own letter-for-letter correspondence (:data:`_SYLOTI`).
Aksharamukha covers Syloti Nagri too, but it is AGPL-3.0 and brings about 90 MB of
dependencies (fontTools, lxml, pykakasi, language data) for one script of 44 letters. Scripts
poorer than Bengali lose letters on the way (Syloti Nagri has no long vowels nor ণ: "পূর্ণ"
comes back "পুর্ন"), so a word the detector knows is put back in its lexicon spelling when it
matches one but for those letters.

:func:`bengali_lookalikes` folds Bengali sequences drawn to look like one letter: অ + া
for আ, ব + nukta for র, the currency sign ৷ for the danda.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from functools import cache
from importlib.resources import files

from engine.judging.injection.foreign import brahmic_gloss

# Unicode blocks of Brahmic scripts -> sanscript's name for them (the Devanagari dandas,
# which Bengali uses too, are left out)
_BLOCKS = (
    ("\u0900-\u0963\u0966-\u097f", "devanagari"),
    ("\u0a00-\u0a7f", "gurmukhi"),
    ("\u0a80-\u0aff", "gujarati"),
    ("\u0b00-\u0b7f", "oriya"),
    ("\u0b80-\u0bff", "tamil"),
    ("\u0c00-\u0c7f", "telugu"),
    ("\u0c80-\u0cff", "kannada"),
    ("\u0d00-\u0d7f", "malayalam"),
    ("\u0d80-\u0dff", "sinhala"),
    ("\uabc0-\uabff", "manipuri"),
    ("\u0f00-\u0fff", "tibetan"),
    ("\u1000-\u109f", "burmese"),
    ("\u1900-\u194f", "limbu"),
    ("\u1c00-\u1c4f", "lepcha"),
    ("\U00011000-\U0001107f", "brahmi"),
    ("\U00011080-\U000110cf", "kaithi"),
    ("\U00011180-\U000111df", "sharada"),
    ("\U00011400-\U0001147f", "newa"),
    ("\U00011480-\U000114df", "tirhuta_maithili"),
    ("\U00011580-\U000115ff", "siddham"),
    ("\U00011600-\U0001165f", "modi"),
    ("\U00011680-\U000116cf", "takri"),
    ("\U00011800-\U0001184f", "dogra"),
)
_SYLOTI_NAGRI = "\ua800-\ua82f"
_OTHER = "".join(r for r, _ in _BLOCKS) + _SYLOTI_NAGRI + "\u1c50-\u1c7f"
_ANY_OTHER = re.compile(f"[{_OTHER}]")
_EACH = tuple((re.compile(f"[{r}]"), name) for r, name in _BLOCKS)
# Syloti Nagri (U+A800-A82C) letter for letter as Bengali, the block's own correspondence:
# one a-vowel (আ), one o (অ/ও: অ, as Aksharamukha reads it), one sibilant (স); its poetry marks
# and the dvisvara dropped
_SYLOTI = str.maketrans(
    dict(zip(
        "ꠀꠁꠃꠄꠅ꠆ꠇꠈꠉꠊꠋꠌꠍꠎꠏꠐꠑꠒꠓꠔꠕꠖꠗꠘꠙꠚꠛꠜꠝꠞꠟꠠꠡꠢꠣꠤꠥꠦꠧ꠬",
        ["আ", "ই", "উ", "এ", "অ", "\u09cd", "ক", "খ", "গ", "ঘ", "ং", "চ", "ছ", "জ", "ঝ", "ট",
         "ঠ", "ড", "ঢ", "ত", "থ", "দ", "ধ", "ন", "প", "ফ", "ব", "ভ", "ম", "র", "ল", "\u09dc",
         "স", "হ", "\u09be", "\u09bf", "\u09c1", "\u09c7", "\u09cb", "\u09cd"],
        strict=True,
    ))
    | {0xA802: None, 0xA828: None, 0xA829: None, 0xA82A: None, 0xA82B: None}
)  # fmt: skip
_BN_WORD = re.compile("[\u0980-\u09ff]+")

# letters a poorer script merges, folded only to look a word up (never shown): long and
# short vowels, ণ/ন, the three sibilants, ও written as অ after a vowel sign, য়/য/জ
_LOOSE = str.maketrans(
    {"\u09c0": "\u09bf", "\u09c2": "\u09c1", "\u0988": "\u0987", "\u098a": "\u0989",
     "\u09a3": "\u09a8", "\u09b7": "\u09b6", "\u09b8": "\u09b6", "\u0993": "\u0985",
     "\u09df": "\u09af", "\u099c": "\u09af"}
)  # fmt: skip


# a run of another script's words, with the spaces and punctuation between them
OTHER_SCRIPT_RUN = re.compile(f"[{_OTHER}](?:[{_OTHER}\\s\u200c\u200d,;:'\"()-]*[{_OTHER}])?")


def in_bengali_script(text: str) -> str:
    """``text`` with every run of another Brahmic script transliterated to Bengali, words the
    detector knows put back in its spelling and words of an order in Hindi, Odia, Gujarati,
    Punjabi or Nepali glossed (:func:`~engine.judging.injection.foreign.brahmic_gloss`);
    unchanged when there is none."""
    if not _ANY_OTHER.search(text):
        return text
    return OTHER_SCRIPT_RUN.sub(lambda m: _glossed(to_bengali_letters(m.group(0))), text)


# Ol Chiki writes vowels as letters (an alphabet, not an abugida), which sanscript maps only in
# part: each letter as the Bengali one it sounds as, a vowel after a consonant as its sign
# (অ, the inherent vowel, as nothing) and a consonant before another with a hasanta
_OL_CHIKI_VOWELS = dict(zip("ᱚᱟᱤᱩᱮᱳ", ["অ", "আ", "ই", "উ", "এ", "ও"], strict=True))
_OL_CHIKI_SIGNS = dict(
    zip("ᱚᱟᱤᱩᱮᱳ", ["", "\u09be", "\u09bf", "\u09c1", "\u09c7", "\u09cb"], strict=True)
)
_OL_CHIKI_CONSONANTS = dict(zip(
    "ᱛᱜᱝᱞᱠᱡᱢᱣᱥᱦᱧᱨᱪᱫᱬᱭᱯᱰᱱᱲᱴᱵ",
    ["ত", "গ", "ং", "ল", "ক", "জ", "ম", "ও", "স", "হ", "ঞ", "র", "চ", "দ", "ণ", "য়", "প", "ড",
     "ন", "ড়", "ট", "ব"],
    strict=True,
))  # fmt: skip
_OL_CHIKI = re.compile("[\u1c50-\u1c7f]+")
# the short e and o of the Dravidian scripts and Sinhala, and Devanagari's candra o (ऑ, English
# "all"), come back as Devanagari,
_SIGNS_LEFT = str.maketrans(
    {"\u0946": "\u09c7", "\u094a": "\u09cb", "\u0949": "\u09cb", "\u0911": "\u0993"}
)
# and Malayalam's chillu and Meitei Mayek's lonsum letters (a consonant without its vowel)
# are left as they are: written as the consonant and a virama
_CHILLU = str.maketrans(
    {"\u0d7a": "ണ്", "\u0d7b": "ന്", "\u0d7c": "ര്", "\u0d7d": "ല്", "\u0d7e": "ള്", "\u0d7f": "ക്"}
    | {0xABDB + i: c + "\uabed" for i, c in enumerate("ꯀꯂꯃꯄꯅꯇꯉꯏ")}
)


def _ol_chiki_word(m: re.Match) -> str:
    out, letters = [], m.group(0)
    for i, ch in enumerate(letters):
        after_consonant = i > 0 and letters[i - 1] in _OL_CHIKI_CONSONANTS
        if ch in _OL_CHIKI_VOWELS:
            out.append(_OL_CHIKI_SIGNS[ch] if after_consonant else _OL_CHIKI_VOWELS[ch])
        elif ch in _OL_CHIKI_CONSONANTS:
            out.append(
                ("\u09cd" if after_consonant and ch != "ᱝ" else "") + _OL_CHIKI_CONSONANTS[ch]
            )
        else:
            out.append(ch)
    return "".join(out)


def to_bengali_letters(text: str) -> str:
    """``text`` with the letters of other Brahmic scripts written in Bengali letters."""
    text = _OL_CHIKI.sub(_ol_chiki_word, text.translate(_SYLOTI).translate(_CHILLU))
    from indic_transliteration import sanscript  # lazy: only an answer in such a script pays

    for pattern, name in _EACH:
        if pattern.search(text):
            text = sanscript.transliterate(text, name, sanscript.BENGALI)
    return text.translate(_SIGNS_LEFT)


def _glossed(run: str) -> str:
    known = _known_words()

    def word(m: re.Match) -> str:
        w = m.group(0)
        return brahmic_gloss(w, _loose, to_bengali_letters) or known.get(_loose(w), w)

    return _BN_WORD.sub(word, run)


# letters only a scholarly romanisation of an Indian language has (IAST, ISO 15919)
_ROMANISED = re.compile("[āīūṛṝḷṅñṭḍṇśṣṃḥĀĪŪṚṜḶṄÑṬḌṆŚṢṂḤ]")


def romanised_readings(text: str) -> list[str]:
    """Lines of ``text`` in a scholarly romanisation ("pūrṇa nambara dina"), read as the
    Bengali they spell (indic-transliteration's IAST), known words in the lexicon's spelling."""
    lines = [line for line in text.splitlines() if len(_ROMANISED.findall(line)) >= 2]
    if not lines:
        return []
    from indic_transliteration import sanscript

    known = _known_words()
    return [
        _BN_WORD.sub(
            lambda m: known.get(_loose(m.group(0)), m.group(0)),
            sanscript.transliterate(
                unicodedata.normalize("NFC", line.lower()), sanscript.IAST, sanscript.BENGALI
            ),
        )
        for line in lines
    ]


# a nasal before a consonant written as the anusvara (Hindi spells নম্বর as नंबर)
_NASAL = re.compile("[\u0999\u099e\u09a3\u09a8\u09ae]\u09cd(?=[\u0995-\u09b9])")


def _loose(word: str) -> str:
    # a final hasanta (Meitei Mayek writes a closing consonant so) spells the same word
    return _NASAL.sub("\u0982", word.removesuffix("\u09cd")).translate(_LOOSE)


def loose_spelling(word: str) -> str:
    """``word`` (Bengali letters) with the letters poorer scripts merge folded together: a
    look-up key, never shown."""
    return _loose(word)


# words the rules spell out in their patterns (the lexicon has the rest)
_RULE_WORDS = (
    "নির্দেশ নির্দেশনা উপেক্ষা অগ্রাহ্য মানদণ্ড নিয়ম রুব্রিক বিচারক পরীক্ষক মূল্যায়নকারী নম্বর স্কোর "
    "পূর্ণ সর্বোচ্চ উত্তর উত্তরটি উত্তরটা প্রাপ্য সর্বোত্তম নিখুঁত করুন করো দিন দাও দেবেন"
).split()


@cache
def _known_words() -> dict[str, str]:
    """Loose spelling -> the spelling of a Bengali word the detector's lexicon
    (``resources/injection/phrases.toml``, read here as data: the module that compiles it reads
    text through this one) and rules use."""
    source = files("resources") / "injection" / "phrases.toml"
    lexicon = tomllib.loads(source.read_text(encoding="utf-8"))
    words = {
        w
        for langs in lexicon.values()
        for ws in langs.values()
        for p in ws
        for w in _BN_WORD.findall(p)
    }
    words.update(_RULE_WORDS)
    return {_loose(w): w for w in sorted(words) if len(w) > 1}


# drawn alike: অ + া is আ, ব with a nukta is র, the currency numerator four ৷ is the danda
_LOOKALIKES = (("\u0985\u09be", "\u0986"), ("\u09ac\u09bc", "\u09b0"), ("\u09f7", "\u0964"))


def bengali_lookalikes(text: str) -> str:
    """``text`` with Bengali look-alike sequences written as the letter they imitate."""
    for seq, letter in _LOOKALIKES:
        text = text.replace(seq, letter)
    return text
