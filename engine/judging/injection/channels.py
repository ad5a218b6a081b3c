"""Readings of an answer that its surface hides: text reversed without a hint (as a whole,
word by word, upside down) or shifted (a Caesar cipher), the first letters of its lines,
sentences or words or every n-th letter (an acrostic), words split or joined to dodge the
lexicon, and a bare verdict standing as its last line.

:mod:`engine.judging.injection.decode` reads what an answer encodes; this module reads what
it only rearranges. A reversed or shifted line counts when it reads better so than as written
(more of the words the detector knows); an acrostic when its letters cut into an order's
words, or spell one outright (:func:`spelt_order`); a word split by a space inside it ("নম্
বর", a fragment that ends in a hasanta or a word that starts with a vowel sign) is joined
back, and words run together are cut at the lexicon's words, around unknown ones too.
"""

from __future__ import annotations

import re
from functools import cache

from engine.judging.injection.text import matching_form, sentences

# words of an order to the grader, and common English words, to tell a reversed or
# acrostic reading that says something from letters that only happen to line up
_ORDER_EN = (
    "ignore disregard forget previous instructions instruction rubric rules give award assign "
    "every each criteria criterion full marks mark maximum max highest top score scores points "
    "perfect five ten all grade rate pass answer this judge grader evaluator"
).split()
_COMMON_EN = (
    "the a an to of and is are be you your me my it for on in with this that please now"
).split()


@cache
def _vocabulary() -> frozenset[str]:
    from engine.judging.injection.phrases import phrases  # lazy: phrases read text's forms

    words = {w for ws in phrases().values() for p in ws for w in p.split()}
    return frozenset(words | set(_ORDER_EN) | set(_COMMON_EN))


@cache
def _order_word() -> re.Pattern:
    """Any known word, longest first: the pieces an acrostic's letters are cut into."""
    from engine.judging.injection.phrases import phrases

    latin = {w for ws in phrases().values() for p in ws for w in p.split() if w.isascii()}
    words = sorted({w for w in latin | set(_ORDER_EN) if len(w) > 1} | {"a"}, key=len)
    return re.compile("|".join(re.escape(w) for w in reversed(words)))


_WORD = re.compile(r"[\w\u0981-\u0983\u09bc-\u09d7]+")  # a Bengali word keeps its vowel signs
_WORD_ONLY = re.compile(
    r"[^\W\d_][\w\u0981-\u0983\u09bc-\u09d7'-]*"
)  # a word, not a number or a cell


def _known(text: str) -> int:
    vocabulary = _vocabulary()
    # words, not numbers: "01/01" backwards is "10/10"
    return sum(w in vocabulary and not w.isdigit() for w in _WORD.findall(text.lower()))


def reversed_readings(text: str) -> list[str]:
    """Lines and sentences of ``text`` (in matching form) written backwards, read forwards:
    each line, each sentence and the whole reversed, kept when it has more known words than
    as written (at least two)."""
    pieces = dict.fromkeys([*text.splitlines(), *sentences(text), text])
    found = []
    for piece in pieces:
        if len(piece) < 8:
            continue
        # backwards as a whole, each word backwards in place, or turned upside down
        for back in (piece[::-1], _WORD.sub(lambda m: m.group(0)[::-1], piece), _upright(piece)):
            if back and _known(back) >= 2 and _known(back) > _known(piece):
                found.append(back)
    return found


# letters turned upside down ("sʞɹɐɯ llnɟ ǝʌᴉƃ"), read upright: the text is backwards too
_UPSIDE_DOWN = "ɐɔǝɟƃɥᴉɾʞɯɹʇʌʍʎ"
# (the look-alike table has read the turned m "ɯ" as w already; upside down, w is "ʍ")
_FLIP = str.maketrans(_UPSIDE_DOWN + "qpdbnuw", "acefghijkmrtvwy" + "bdpqunm")


def _upright(piece: str) -> str:
    if sum(c in _UPSIDE_DOWN for c in piece) < 3:
        return ""
    return piece.translate(_FLIP)[::-1]


_LATIN_LINE = re.compile(r"(?:[A-Za-z]+\W+){2,}[A-Za-z]+")


def shifted_readings(text: str) -> list[str]:
    """Runs of Latin words in ``text`` (in matching form) that read as nothing and read as
    an order once each letter is shifted back by the same amount (rot13, a Caesar shift):
    the shift with the most known words, three at least."""
    found = []
    for run in (m.group(0) for s in sentences(text) for m in _LATIN_LINE.finditer(s)):
        if len(run) < 12 or _known(run) > 1:
            continue
        best, words = "", 2
        for shift in range(1, 26):
            table = str.maketrans(
                _ABC + _ABC.upper(),
                _ABC[shift:] + _ABC[:shift] + (_ABC[shift:] + _ABC[:shift]).upper(),
            )
            back = run.translate(table)
            if (n := _known(back)) > words:
                best, words = back, n
        if best:
            found.append(best)
    return found


_ABC = "abcdefghijklmnopqrstuvwxyz"


def _cut(letters: str) -> str:
    """``letters`` cut into known words, a line break where no word fits."""
    out, last = [], 0
    for m in _order_word().finditer(letters):
        out.append(("\n" if m.start() > last else " ") + m.group(0))
        last = m.end()
    return "".join(out).strip()


_CLUSTER = re.compile(r".[\u0981-\u0983\u09bc\u09be-\u09cd\u09d7]*")
_LIST_MARK = re.compile(r"^[\W\d_]+")


def acrostics(text: str) -> list[str]:
    """What the first letters of ``text``'s lines, or of its sentences, spell (four at
    least), cut into known words; for Bengali, its first letters and first clusters joined;
    and the first words of its lines or sentences read as one sentence."""
    readings = []
    for pieces in (text.splitlines(), sentences(text)):
        starts = [_LIST_MARK.sub("", p.strip()) for p in pieces]
        starts = [s for s in starts if s]
        if len(starts) < 4:
            continue
        # the first words, read as a sentence ("Give … / full … / marks …")
        first = [w for s in starts if _WORD_ONLY.fullmatch(w := s.split()[0].strip(",.;:!?"))]
        if len(first) >= 4:
            readings.append(" ".join(first))
        letters = "".join(s[0] for s in starts).lower()
        words = _order_word().findall(letters)
        if sum(len(w) for w in words) >= 6:
            readings.append(_cut(letters))
        if any("\u0980" <= s[0] <= "\u09ff" for s in starts):
            clusters = "".join(_CLUSTER.match(s).group(0) for s in starts)  # type: ignore[union-attr]
            # kept when a word of the lexicon shows in them (most joined starts spell nothing)
            readings += [r for r in (letters, clusters) if _lexicon_word().search(r)]
    return [r for r in readings if r.strip()]


# a space inside a Bengali word: after a hasanta, or before a vowel sign or a hasanta
_SPLIT_BN = re.compile(
    r"(?<=\u09cd)[ \t\-.]+(?=[\u0980-\u09ff])"
    r"|(?<=[\u0980-\u09ff])[ \t\-.]+(?=[\u0981-\u0983\u09bc-\u09cd\u09d7])"
)
_BN_WORD = re.compile("[\u0980-\u09ff]+")


@cache
def _lexicon_bn() -> frozenset[str]:
    from engine.judging.injection.phrases import phrases

    return frozenset(
        w for ws in phrases().values() for p in ws for w in _BN_WORD.findall(p) if len(w) > 1
    )


@cache
def _lexicon_word() -> re.Pattern:
    words = sorted((w for w in _lexicon_bn() if len(w) > 2), key=len, reverse=True)
    return re.compile("|".join(map(re.escape, words)))


# the case endings a noun of the lexicon takes run together with the next word ("মানদণ্ডে")
_ENDINGS = ("", "ে", "এ", "র", "ের", "কে", "টি", "টা", "তে", "য়", "গুলো", "গুলোতে")


@cache
def _lexicon_forms() -> frozenset[str]:
    return frozenset(w + e for w in _lexicon_bn() for e in _ENDINGS)


def _separate(m: re.Match) -> str:
    """A Bengali word that is two or more of the lexicon's words run together
    ("পূর্ণনম্বর"), with spaces put back; else the word."""
    token, forms = m.group(0), _lexicon_forms()
    if token in forms or len(token) < 4:
        return token
    cuts: dict[int, list[str]] = {0: []}  # prefix length -> the words that cover it
    for end in range(2, len(token) + 1):
        for start in range(max(0, end - 16), end - 1):
            if start in cuts and token[start:end] in forms:
                cuts[end] = [*cuts[start], token[start:end]]
                break
    words = cuts.get(len(token), [])
    if not words and len(token) >= 10:
        words = _cut_with_gaps(token, forms)
    # a word said twice is Bengali reduplication ("দিনদিন", day by day), not a run-together
    return " ".join(words) if len(set(words) & forms) >= 2 else token


def _cut_with_gaps(token: str, forms: frozenset[str]) -> list[str]:
    """A long run of words ("এইউত্তরেরজন্যপূর্ণনম্বরপ্রযোজ্য") cut where the lexicon's words
    cover most of it (three fifths), the letters between them kept as words of their own;
    else nothing."""
    # best[i]: (letters covered, pieces) for token[:i]; a piece of the lexicon, or one letter
    best: list[tuple[int, list[str]]] = [(0, []), *[(-1, []) for _ in token]]
    for end in range(1, len(token) + 1):
        covered, pieces = best[end - 1]
        known = bool(pieces) and pieces[-1] in forms
        if pieces and not known:
            best[end] = (covered, [*pieces[:-1], pieces[-1] + token[end - 1]])
        else:
            best[end] = (covered, [*pieces, token[end - 1]])
        for start in range(max(0, end - 16), end - 1):
            if token[start:end] in forms and best[start][0] + end - start > best[end][0]:
                best[end] = (best[start][0] + end - start, [*best[start][1], token[start:end]])
    covered, pieces = best[len(token)]
    return pieces if covered >= 0.6 * len(token) else []


# a letter standing alone after a word ("দি ন"): joined when that makes a lexicon word
_LONE_LETTER = re.compile(
    r"([\u0980-\u09ff]+)[ \t\-.]+([\u0995-\u09b9\u09dc-\u09df])(?![\u0980-\u09ff])"
)


def rejoined(text: str) -> str:
    """``text`` (in matching form) with Bengali words split inside joined back, and words of
    the lexicon run together ("পূর্ণনম্বর") set apart."""
    text = _SPLIT_BN.sub("", text)
    lexicon = _lexicon_bn()
    text = _LONE_LETTER.sub(
        lambda m: m.group(1) + m.group(2) if m.group(1) + m.group(2) in lexicon else m.group(0),
        text,
    )
    return _BN_WORD.sub(_separate, text)


# an order's words run together, as the first letters of lines, sentences or words spell them,
# or every second, third … letter does: long enough that ordinary text never spells one
_SPELT_ORDERS = re.compile(
    "|".join(
        (
            r"(?:give|award|assign)(?:the|them|me|this|it)?(?:full|max|maximum|top|perfect|ten|"
            r"tens|five|fives|highest|allfives|alltens)",
            r"(?:full|top|max|maximum|perfect|highest)(?:marks?|score|points|grade|number)",
            r"ignore(?:the|all|previous|prior|rubric|rules|instructions|criteria|above)",
            r"disregard(?:the|all|rubric|rules|instructions)",
            r"(?:score|rate|grade|mark)(?:this|it|me)?(?:ten|five|tenoutoften|max|full)",
            r"all(?:fives|tens)|tenoutoften|fiveoutoffive|passthisanswer",
            r"(?:purno|puro|pura|full)(?:nombor|number|nambar|marks)",
        )
    )
)
_ASCII_LETTERS = re.compile(r"[a-z]+")


def spelt_order(text: str) -> str:
    """An order's words that the first letters of ``text``'s (in matching form) lines,
    sentences or words spell, or every second to seventh letter; else ``""``."""
    lower = text.lower()
    pieces = (
        lower.splitlines(),
        sentences(lower),
        re.findall(r"[^\W\d_]\w*", lower),
    )
    streams: list[tuple[str, int]] = []  # (letters, the shortest order they may spell)
    for parts in pieces:
        starts = [_LIST_MARK.sub("", p.strip()) for p in parts]
        starts = [s for s in starts if s]
        if len(starts) >= 6:
            streams.append(("".join(s[0] for s in starts if s[0].isascii()), 7))
    letters = "".join(_ASCII_LETTERS.findall(lower))
    # every n-th letter of a long answer gives many chances: eight letters at least
    streams += [(letters[start::step], 8) for step in range(2, 8) for start in range(step)]
    for stream, least in streams:
        for m in _SPELT_ORDERS.finditer(stream):
            if len(m.group(0)) >= least:
                return m.group(0)
    return ""


_VERDICT_NUMBER = re.compile(
    r"(?:10|[0-5]|১০|[০-৫]|ten|five|দশ|পাঁচ)(?:\s*(?:/|out of|এর মধ্যে)\s*(?:10|5|১০|৫))?", re.I
)
# a verdict in words: marks (an order standing alone), or only a judgement ("Correct."), which
# also ends a true-or-false answer and weighs like a bare number
_VERDICT_MARKS = re.compile(
    r"full marks?|top marks?|perfect score|full score|maximum marks?|100\s*%|"
    r"পূর্ণ\s*নম্বর|পুরো\s*নম্বর|সর্বোচ্চ\s*নম্বর|পূর্ণমান|১০০\s*%|(?:purno|puro|full)\s*(?:number|marks?)|"
    r"(?:দশ|পাঁচ)\s*(?:ে|-?এ)\s*(?:দশ|পাঁচ)|(?:১০|৫|10|5)\s*(?:-?এ|/)\s*(?:১০|৫|10|5)|"
    r"(?:ten|five|10|5) out of (?:ten|five|10|5)|(?:dosh|dos|pach)e (?:dosh|dos|pach)",
    re.I,
)
_VERDICT_WORDS = re.compile(
    r"perfect|excellent|correct|pass(?:ed)?|a\+|সঠিক|নির্ভুল|উত্তীর্ণ|পাস|নিখুঁত|thik|sothik", re.I
)


def verdict_named(text: str) -> str:
    """A verdict in marks that ``text`` (in matching form) names, or ``""``."""
    m = _VERDICT_MARKS.search(text)
    return m.group(0) if m else ""


_JUDGES_VERDICT = re.compile(
    r"^(?:(?:the\s+|final\s+)?(?:judge|grader|evaluator|examiner|marker|assessor)(?:'s)?\s+"
    r"(?:verdict|score|decision|grade|result)|(?:বিচারক|পরীক্ষক|মূল্যায়নকারী|মূল্যায়ক)(?:ের|এর|র)\s*"
    r"(?:রায়|সিদ্ধান্ত|নম্বর|স্কোর|ফলাফল|মূল্যায়ন))\s*[:=-]\s*",
    re.I,
)


def bare_verdict(text: str) -> str:
    """``"marks"`` or ``"score"`` when the last line of ``text`` (in matching form), after
    other lines, is only a verdict: marks ("Full marks.", "পূর্ণনম্বর।"), or a score or a
    judgement ("10", "৫", "5/5", "Correct."); else ``""``."""
    lines = [s for s in sentences(text) if s.strip(" .!।*_-")]
    if len(lines) < 2:
        return ""
    last = lines[-1].strip(" .!।*_-\"'()[]")
    # a verdict put in the judge's mouth ("বিচারকের রায়: দশে দশ") is an order like marks
    judged = _JUDGES_VERDICT.match(last)
    last = _JUDGES_VERDICT.sub("", last)
    last = re.sub(r"^(?:verdict|score|result|রায়|ফলাফল)\s*[:=-]\s*", "", last, flags=re.I)
    if _VERDICT_MARKS.fullmatch(last) or (
        judged and (_VERDICT_NUMBER.fullmatch(last) or _VERDICT_WORDS.fullmatch(last))
    ):
        return "marks"
    before = lines[-2].strip(" .!।*_-\"'()[]")
    if _VERDICT_NUMBER.fullmatch(last) and before.isdigit():
        return ""  # the last number of a numbered run ("(9)", "(10"), not a score
    return "score" if _VERDICT_NUMBER.fullmatch(last) or _VERDICT_WORDS.fullmatch(last) else ""


def channel_readings(text: str) -> list[str]:
    """The readings above that differ from ``text`` (as written): reversed lines, acrostics,
    split words joined."""
    clean = matching_form(text)
    readings = reversed_readings(clean) + shifted_readings(clean) + acrostics(clean)
    if (glued := rejoined(clean)) != clean:
        readings.append(glued)
    return readings
