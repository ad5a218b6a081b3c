"""What an obfuscated answer says once decoded: the other readings the injection rules and
the model see beside the answer's matching form (:mod:`engine.judging.injection.text`).

A judge reads through obfuscation that a pattern does not: an order in base64 or hex with
"decode this", in Unicode tag characters or variation selectors (invisible, but a model reads
them), in zero-width characters as bits, Morse, binary or Braille, in rot13 or reversed, in
JSON's ``\\u`` escapes, HTML entities or percent-encoding, in
leetspeak ("1gn0r3 th3 rubr1c"), spelt out letter by letter ("i g n o r e", "ন ম্ব র"), or
cut into table cells, JSON strings and code lines; and in the channels of
:mod:`engine.judging.injection.decoders` (Morse in any shape, the NATO alphabet, flag
letters, an ABC tune's lyrics, quoted-printable, uuencode, …). :func:`hidden_payloads` gives what is
hidden (an order found there is never an answer's way of speaking: it flags),
:func:`undisguised` the answer with leetspeak and spelling-out undone (an order that only
appears so was disguised on purpose) and :func:`flattened` its structure cut into lines
(read like the answer itself).
"""

from __future__ import annotations

import base64
import binascii
import codecs
import html
import re
import unicodedata
from urllib.parse import unquote

import regex

from engine.judging.injection.decoders import channel_payloads

# U+E0020-E007E spell ASCII invisibly, wherever they stand and however scattered (a LANGUAGE
# TAG before, a CANCEL TAG after); after U+1F3F4, a few lowercase letters or digits ended by a
# CANCEL TAG are a subdivision flag (England: gbeng), not text
_TAG = re.compile("[\U000e0020-\U000e007e]")
_FLAG = re.compile("\U0001f3f4[\U000e0030-\U000e0039\U000e0061-\U000e007a]{2,7}\U000e007f")
# variation selectors carry bytes the same way: VS1-16 (U+FE00-FE0F) are 0-15 and VS17-256
# (U+E0100-E01EF) 16-255, one after each of a few visible characters or all in one run
_SELECTORS = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]")
_BASE64 = re.compile(r"(?<![\w+/=-])[A-Za-z0-9+/_-]{16,}={0,2}(?![\w+/=-])")
# a base64 block wrapped into lines (76 or 64 columns, as encoders write it): one payload
_BASE64_BLOCK = re.compile(
    r"(?:^[ \t]*[A-Za-z0-9+/_-]{16,}={0,2}[ \t]*\n)+[ \t]*[A-Za-z0-9+/_-]{2,}={0,2}", re.M
)
_HEX = re.compile(r"(?<![\w\\])(?:(?:0x|\\x)?[0-9a-fA-F]{2}(?:[\s:,;-]{1,2}|(?=0x|\\x))?){8,}")
_ESCAPES = re.compile(r"\\u[0-9a-fA-F]{4}|&#x?[0-9a-fA-F]{2,6};|%[0-9a-fA-F]{2}")
_ROT13_HINT = re.compile(r"\brot[\s_-]*13\b|\bcaesar\b|\brotated?\b|রট১৩", re.I)
_REVERSED_HINT = re.compile(
    r"\bbackwards?\b|\breversed?\b|\bright to left\b|উল্টো|উল্টা|\bulto\b|\bulta\b|"
    r"(?:পেছন|পিছন|শেষ|ডান)\s*(?:দিক\s*)?থেকে|\b(?:pechon|pichon|shesh|sesh)\s*theke\b",
    re.I,
)
# leetspeak: a word mixing letters with digits or symbols that stand for letters
_LEET_WORD = re.compile(r"(?<![\w@$])(?=[\w@$]*[A-Za-z])(?=[\w@$]*[013457@$])[A-Za-z013457@$]{3,}")
_LEET = str.maketrans("013457@$", "oieastas")
_ORDINAL = re.compile(r"^\d*(?:1st|2nd|3rd|[04-9]th|1[1-3]th)$|^\d+s$", re.I)
# letters spelt out one by one: "i g n o r e", "G-I-V-E", "ন ম্ব র"
_BN_CLUSTER = r"[\u0985-\u09b9\u09ce\u09dc-\u09df](?:\u09cd[\u0995-\u09b9\u09dc-\u09df])*[\u0981-\u0983\u09bc-\u09cc\u09d7]*"
_SPELT = re.compile(
    r"(?<![A-Za-z])[A-Za-z](?:[ .\-_*·][A-Za-z](?![A-Za-z])){2,}"
    rf"|(?<![\u0980-\u09ff]){_BN_CLUSTER}(?:[ .\-_*·]{_BN_CLUSTER}(?![\u0980-\u09ff])){{2,}}"
)
_SEPARATOR = re.compile(r"[ .\-_*·]")
# the words of an order, to cut a run spelt out with single spaces throughout back into words
_ORDER_WORDS = re.compile(
    r"(ignore|disregard|forget|previous|instructions?|rubric|rules|give|award|assign|every|"
    r"criteri(?:on|a)|full|marks|maximum|highest|score|points|perfect|five|ten|the|all|and)",
    re.I,
)


def _joined(m: re.Match) -> str:
    return _in_words(_SEPARATOR.sub("", m.group(0)))


def _in_words(word: str) -> str:
    if len(word) > 10 and word.isascii():
        word = re.sub(r"\s+", " ", _ORDER_WORDS.sub(r" \1 ", word)).strip()
    return word


# one character at a time, in any script: "g i v e  f u l l", a Bengali word cut into its
# letters and vowel signs ("ন ম ্ ব র"), one letter a line; a wider gap (two spaces, a blank
# line) parts words. The regex module: a mark (a vowel sign, the hasanta) counts as a letter
# line") parts words. The regex module: a mark (a vowel sign, the hasanta) counts as a letter,
# and a digit too ("G I V E 5": the score comes one character at a time as well)
_ONE_BY_ONE = regex.compile(
    r"(?<![\p{L}\p{M}\p{Nd}])[\p{L}\p{M}](?:(?:[ \t]{1,3}|\n{1,2}|[.\-_*·])[\p{L}\p{M}\p{Nd}]"
    r"(?![\p{L}\p{M}\p{Nd}])){4,}"
)
_WORD_GAP = regex.compile(r"[ \t]{2,}|\n{2,}")


def _letters_joined(m: regex.Match) -> str:
    words = [
        regex.sub(r"(?<=\p{L})(?=\p{Nd})", " ", regex.sub(r"[ \t\n.\-_*·]", "", w))
        for w in _WORD_GAP.split(m.group(0))
    ]
    if len(words) == 1:
        return _in_words(words[0])
    return " ".join(words)


# structure that cuts a sentence into pieces: table bars, JSON quotes and braces, code fences,
# list markers, quote and comment marks (not inline code: `score=0` is what an answer shows)
_STRUCTURE = re.compile(r"```\w*|[|{}\[\]\"#>]|<!--|-->|/\*|\*/|^\s*(?:[-+*]|\d+[.)])\s+", re.M)


def _printable(text: str) -> bool:
    """Text a writer means to be read: valid characters, mostly letters and spaces. Vowel
    signs and the hasanta count as letters: a third of a Bengali sentence is marks, and a
    decoded Bengali order was left unread without them."""
    if len(text) < 6 or any(
        unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") and c not in "\n\t" for c in text
    ):
        return False
    letters = sum(c.isalpha() or c.isspace() or unicodedata.category(c)[0] == "M" for c in text)
    # words, or a short keyed value ("score=5")
    keyed = re.search(r"[A-Za-z]{3,}\s*[=:]\s*\w", text) is not None
    return letters >= 0.7 * len(text) and (" " in text or not text.isascii() or keyed)


def _decoded_bytes(data: bytes) -> str | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if _printable(text) else None


def _base64(token: str) -> str | None:
    if re.fullmatch(r"[0-9a-fA-F]+|[A-Za-z]+", token):  # hex, or a plain long word
        return None
    padded = token + "=" * (-len(token) % 4)
    for decode in (base64.b64decode, base64.urlsafe_b64decode):
        try:
            text = _decoded_bytes(decode(padded))
        except (binascii.Error, ValueError):
            continue
        if text:
            return text
    return None


def _hex(run: str) -> str | None:
    digits = re.sub(r"0x|\\x|[\s:,;-]", "", run)
    if len(digits) % 2:
        digits = digits[:-1]
    try:
        data = bytes.fromhex(digits)
    except ValueError:
        return None
    # a word that looks like hex ("be", "cafe") beside the run cuts a multi-byte letter
    for start in range(4):
        for stop in range(len(data), len(data) - 4, -1):
            if text := _decoded_bytes(data[start:stop]):
                return text
    return None


def hidden_payloads(text: str) -> list[str]:
    """Texts hidden in ``text`` (as written): tag characters, base64, hex, rot13 and reversed
    text when the answer says so, escapes and percent-encoding, and what the decoders of
    :mod:`engine.judging.injection.decoders` read."""
    tags = _tag_text(text)
    found = [tags] if tags else []
    found += selector_payloads(text)
    found += [t for m in _BASE64.finditer(text) if (t := _base64(m.group(0)))]
    blocks = (re.sub(r"\s+", "", m.group(0)) for m in _BASE64_BLOCK.finditer(text))
    found += [t for b in blocks if (t := _base64(b)) and t not in found]
    found += [t for m in _HEX.finditer(text) if (t := _hex(m.group(0)))]
    if _ROT13_HINT.search(text):
        found.append(codecs.decode(text, "rot13"))
    if _REVERSED_HINT.search(text):
        found += [line[::-1] for line in text.splitlines() if len(line) >= 12]
    found += channel_payloads(text)
    found += zero_width_payloads(text) + braille_payloads(text)
    found += [t for m in _BINARY.finditer(text) if (t := _binary(m.group(0)))]
    if len(_ESCAPES.findall(text)) >= 4:
        unescaped = html.unescape(_ESCAPES.sub(_unescape, text))
        if unescaped != text:
            found.append(unescaped)
    return [t for t in found if t.strip()]


# bytes written in binary: four or more
_BINARY = re.compile(r"(?<![\w])(?:[01]{8}[ \t,]*){4,}")


def _binary(run: str) -> str | None:
    return _decoded_bytes(bytes(int(b, 2) for b in re.findall(r"[01]{8}", run)))


# characters that show nothing or only a blank: zero-width and other format characters, the
# spaces other than the ordinary one, blank letters (Hangul fillers, the Braille blank)
_INVISIBLE = regex.compile(r"[\p{Cf}\p{Zs}\u115f\u1160\u3164\uffa0\u2800\u180e](?<! )")


def zero_width_payloads(text: str) -> list[str]:
    """What invisible characters spell as bits: any two kinds of them (zero-width
    characters, a thin space beside a no-break space, …) as 0 and 1, either way round, in
    bytes of eight bits or seven, the rest ignored (a separator): a known way to hide text in
    plain sight."""
    marks = _INVISIBLE.findall(text[:50_000])
    if len(marks) < 16:
        return []
    kinds = sorted(set(marks), key=marks.count, reverse=True)[:3]
    found = []
    for a, b in ((x, y) for x in kinds for y in kinds if x != y):
        bits = "".join("0" if m == a else "1" for m in marks if m in (a, b))
        for width in (8, 7):
            data = bytes(
                int(bits[i : i + width], 2) for i in range(0, len(bits) - width + 1, width)
            )
            if (text_ := _decoded_bytes(data)) and text_ not in found:
                found.append(text_)
    return found


# six-dot Braille, grade 1: the letters a-z (the blank pattern parts words)
_BRAILLE = str.maketrans("⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚⠅⠇⠍⠝⠕⠏⠟⠗⠎⠞⠥⠧⠺⠭⠽⠵⠀", "abcdefghijklmnopqrstuvwxyz ")
_BRAILLE_RUN = re.compile("[\u2800-\u28ff](?:[\u2800-\u28ff \t]*[\u2801-\u28ff]){5,}")


def braille_payloads(text: str) -> list[str]:
    """What runs of Braille letters spell."""
    return [
        t
        for m in _BRAILLE_RUN.finditer(text)
        if (t := m.group(0).translate(_BRAILLE)).isascii() and " " in t.strip()
    ]


def selector_payloads(text: str) -> list[str]:
    """What the variation selectors of ``text`` spell: as bytes (VS1-16 the first sixteen,
    VS17-256 the rest: UTF-8, so a Bengali payload too), or, as tag characters are read,
    VS17-256 offset from U+E0100 as ASCII (from NUL or from the space)."""
    codes = [ord(c) for c in _SELECTORS.findall(text)]
    if len(codes) < 6:  # an emoji's presentation selector, an ideographic variant
        return []
    # VS17 as byte 16 (after VS1-16) or, as some encoders write it, as byte 0
    readings = [
        _decoded_bytes(bytes(c - 0xFE00 if c < 0xFF00 else c - 0xE0100 + 16 for c in codes)),
        _decoded_bytes(bytes((c - 0xE0100) % 256 for c in codes if c >= 0xE0100)),
    ]
    supplement = [c - 0xE0100 for c in codes if c >= 0xE0100]
    for start in (0, 0x20):  # VS17 as NUL, or as the space (printable ASCII from VS17)
        if supplement and max(supplement) + start < 0x80:
            readings.append(_decoded_bytes(bytes(c + start for c in supplement)))
    return [t for t in readings if t]


def _unescape(m: re.Match) -> str:
    s = m.group(0)
    if s.startswith("\\u"):
        return chr(int(s[2:], 16))
    if s.startswith("%"):
        return s  # percent-encoding is decoded as a whole below (multi-byte UTF-8)
    return html.unescape(s)


def _unleet(m: re.Match) -> str:
    word = m.group(0)
    return word if _ORDINAL.match(word) or word.isdigit() else word.translate(_LEET)


def _tag_text(text: str) -> str:
    """The ASCII the tag characters of ``text`` spell, all of them in order (three at
    least), subdivision flags left out."""
    tags = _TAG.findall(_FLAG.sub("", text)) if "\U000e0000" < max(text, default="") else []
    return "".join(chr(ord(c) - 0xE0000) for c in tags) if len(tags) >= 3 else ""


def has_tag_text(text: str) -> bool:
    """Whether ``text`` (as written) spells words in invisible tag characters."""
    return bool(_tag_text(text))


def undisguised(text: str) -> str:
    """``text`` (as written, in NFKC) with its disguises undone: letters spelt out one by one
    (words apart by two spaces, or cut at an order's words), leetspeak, percent-encoding."""
    text = _ONE_BY_ONE.sub(_letters_joined, text)
    text = _LEET_WORD.sub(_unleet, _SPELT.sub(_joined, text))
    if re.search(r"(?:%[0-9a-fA-F]{2}){3,}", text):
        text = unquote(text)
    return text


def flattened(clean: str) -> str:
    """``clean`` with its structure (table bars, JSON quotes and braces, code fences, list
    markers, quote and comment marks) turned into line breaks: each cell, string or code
    line read as a sentence of its own."""
    flat = _STRUCTURE.sub("\n", clean)
    return "\n".join(line.strip(" ,:") for line in flat.splitlines() if line.strip(" ,:"))
