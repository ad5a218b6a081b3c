"""Letters spelt by a spelling alphabet or drawn as symbols: the NATO/ICAO words ("Golf
India Victor Echo", its digits "Five", "Niner"), regional-indicator letters, which a row of
flag emoji is ("🇫🇮🇻🇪" shows Finland and Venezuela, and reads FIVE), and parenthesized
letters ("⒢⒤⒱⒠", which NFKC leaves as "(g)(i)(v)(e)"). Circled, squared, full-width and
mathematical letters need no decoder: the matching form folds them.

A legitimate answer spells a name in the alphabet or shows a country's flag because it is
asked to; what it spells is a name, not grading's words. A reading is kept only when it
speaks of grading (:func:`~engine.judging.injection.decoders.words.about_grading`): the rules
then read it as a hidden payload.
"""

from __future__ import annotations

import re

from engine.judging.injection.decoders.words import about_grading, segmented

_LIMIT = 20_000
_NATO = {
    **{
        w: w[0]
        for w in (
            "alfa alpha bravo charlie delta echo foxtrot golf hotel india juliett juliet kilo "
            "lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey "
            "whisky xray x-ray yankee zulu"
        ).split()
    },
    **dict.fromkeys(("zero", "nadazero"), "0"),
    **dict.fromkeys(("one", "wun", "unaone"), "1"),
    **dict.fromkeys(("two", "too", "bissotwo"), "2"),
    **dict.fromkeys(("three", "tree", "terrathree"), "3"),
    **dict.fromkeys(("four", "fower", "kartefour"), "4"),
    **dict.fromkeys(("five", "fife", "pantafive"), "5"),
    **dict.fromkeys(("six", "soxisix"), "6"),
    **dict.fromkeys(("seven", "setteseven"), "7"),
    **dict.fromkeys(("eight", "ait", "oktoeight"), "8"),
    **dict.fromkeys(("nine", "niner", "novenine"), "9"),
}
# the alphabet's words as Bengali writes them
_NATO_BN = {
    **dict.fromkeys(("আলফা", "আলফ়া"), "a"),
    **dict.fromkeys(("ব্রাভো", "ব্রাবো"), "b"),
    **dict.fromkeys(("চার্লি", "চারলি"), "c"),
    **dict.fromkeys(("ডেল্টা", "ডেলটা"), "d"),
    **dict.fromkeys(("ইকো", "একো"), "e"),
    **dict.fromkeys(("ফক্সট্রট", "ফক্সট্রোট"), "f"),
    **dict.fromkeys(("গলফ", "গল্ফ"), "g"),
    **dict.fromkeys(("হোটেল",), "h"),
    **dict.fromkeys(("ইন্ডিয়া", "ইন্ডিয়া", "ইনডিয়া"), "i"),
    **dict.fromkeys(("জুলিয়েট", "জুলিয়েট", "জুলিয়েট"), "j"),
    **dict.fromkeys(("কিলো",), "k"),
    **dict.fromkeys(("লিমা",), "l"),
    **dict.fromkeys(("মাইক",), "m"),
    **dict.fromkeys(("নভেম্বর",), "n"),
    **dict.fromkeys(("অস্কার", "অসকার"), "o"),
    **dict.fromkeys(("পাপা",), "p"),
    **dict.fromkeys(("কুইবেক", "কেবেক"), "q"),
    **dict.fromkeys(("রোমিও", "রোমিয়ো"), "r"),
    **dict.fromkeys(("সিয়েরা", "সিয়েরা", "সিয়েরা"), "s"),
    **dict.fromkeys(("ট্যাঙ্গো", "টাঙ্গো", "ট্যাংগো", "ট্যাঙ্গো"), "t"),
    **dict.fromkeys(("ইউনিফর্ম", "ইউনিফরম"), "u"),
    **dict.fromkeys(("ভিক্টর", "ভিকটর"), "v"),
    **dict.fromkeys(("হুইস্কি", "হুইস্কি"), "w"),
    **dict.fromkeys(("এক্সরে", "এক্স-রে"), "x"),
    **dict.fromkeys(("ইয়াংকি", "ইয়াঙ্কি", "ইয়াংকি", "ইয়াঙ্কি"), "y"),
    **dict.fromkeys(("জুলু",), "z"),
    **dict.fromkeys(("ফাইভ",), "5"),
    **dict.fromkeys(("টেন",), "10"),
}
_NATO |= _NATO_BN
_DIGIT_WORDS = {w for w, c in _NATO.items() if c.isdigit()}
_TOKEN = "|".join(sorted((re.escape(w) for w in _NATO), key=len, reverse=True))
_EDGE, _END = r"(?<![\w\u0980-\u09ff])", r"(?![\w\u0980-\u09ff])"
_SEP = r"[ \t,;.:/|\-–—।]"
# three or more alphabet words in a row, apart by blanks, hyphens, dots or commas
_NATO_RUN = re.compile(rf"{_EDGE}(?:{_TOKEN}){_END}(?:{_SEP}+(?:{_TOKEN}){_END}){{2,}}", re.I)
# a guard: two letter words of the alphabet in a row (digit words are common English)
_LETTER_WORDS = "|".join(w for w, c in _NATO.items() if not c.isdigit())
_NATO_PAIR = re.compile(rf"{_EDGE}(?:{_LETTER_WORDS}){_SEP}+(?:{_LETTER_WORDS}){_END}", re.I)
_NATO_PIECE = re.compile(rf"{_EDGE}({_TOKEN}){_END}({_SEP}*)", re.I)


def _nato_run(run: str) -> str | None:
    pieces = _NATO_PIECE.findall(run)
    if sum(w.lower() not in _DIGIT_WORDS for w, _ in pieces) < 3:
        return None  # counting ("one, two, three") is no spelling
    words, letters = [], ""
    for word, gap in pieces:
        letters += _NATO[word.lower()]
        # a word ends at a comma, a slash, a bar or a full stop (not at a blank or a hyphen)
        if re.search(r"[,;./|।]|\s{2}", gap):
            words.append(letters)
            letters = ""
    if letters:
        words.append(letters)
    return " ".join(segmented(w) for w in words if w)


_FLAG_RUN = re.compile("[\U0001f1e6-\U0001f1ff](?:[\ufe0f\u200d \t]*[\U0001f1e6-\U0001f1ff])+")


def _flag_letters(run: str) -> str:
    """A run of flag letters as words: blanks part words, unless every letter stands apart
    (then two blanks do)."""
    run = re.sub("[\ufe0f\u200d]", "", run)
    spaced = not re.search("[\U0001f1e6-\U0001f1ff]{2}", run)
    parts = re.split(r"\s{2,}" if spaced else r"\s+", run.strip())
    words = ("".join(chr(ord("a") + ord(c) - 0x1F1E6) for c in p if not c.isspace()) for p in parts)
    return " ".join(segmented(w) for w in words if w)


def _flags_line(line: str) -> str:
    return _FLAG_RUN.sub(lambda m: _flag_letters(m.group(0)), line)


# letters in parentheses drawn as one character (⒢, 🄖): NFKC gives "(g)", one letter a word;
# three in a row spell (a list's markers "⒜, ⒝ and ⒞" do not)
_PARENTHESIZED = re.compile("[\u249c-\u24b5\U0001f110-\U0001f129]")
_PARENTHESIZED_RUN = re.compile("[\u249c-\u24b5\U0001f110-\U0001f129]{3,}")


def _parenthesized_line(line: str) -> str:
    def letter(m: re.Match) -> str:
        code = ord(m.group(0))
        return chr(ord("a") + (code - 0x249C if code < 0x1F110 else code - 0x1F110))

    letters = _PARENTHESIZED.sub(letter, line)
    return re.sub(r"[a-z]{3,}", lambda m: segmented(m.group(0)), letters)


def spelling_payloads(text: str) -> list[str]:
    """What the spelling-alphabet runs and the flag letters of ``text`` spell, when it
    speaks of grading: a NATO run as its words, a line with flags as the line read with
    their letters (the words beside them are the sentence they finish)."""
    text = text[:_LIMIT]
    found = []
    for m in _NATO_RUN.finditer(text) if _NATO_PAIR.search(text) else ():
        # a spelling of what the answer says plainly beside it hides nothing ("SCORE: Sierra
        # Charlie Oscar Romeo Echo")
        plain = (text[: m.start()] + " " + text[m.end() :]).lower()
        if (t := _nato_run(m.group(0))) and not all(w in plain for w in t.lower().split()):
            found.append(t)
    if "\U0001f1e6" <= max(text, default=""):
        lines = [line for line in text.splitlines() if _FLAG_RUN.search(line)]
        found += [_flags_line(line) for line in lines]
    if _PARENTHESIZED_RUN.search(text):
        lines = [line for line in text.splitlines() if _PARENTHESIZED_RUN.search(line)]
        found += [_parenthesized_line(line) for line in lines]
    return [t for t in dict.fromkeys(found) if about_grading(t)]
