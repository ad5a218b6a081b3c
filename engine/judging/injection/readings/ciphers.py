"""Encodings and ciphers read without a hint: base32 and base85, numbers that are character
codes (decimal, octal, hex, as ASCII or Unicode code points), pig latin, atbash.

Each decoder is bounded (the text it reads, the runs it tries) and keeps a reading only when
it decodes to readable text: printable characters for an encoding, words the vocabulary knows
for a cipher (:mod:`engine.judging.injection.readings.vocabulary`), so a legitimate number list
or a word that merely ends in "ay" gives nothing.
"""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata

from engine.judging.injection.readings.vocabulary import english_words, reads_as_words

_LIMIT = 20_000  # characters read by each decoder
_RUNS = 40  # runs tried by each decoder

_BASE32 = re.compile(r"(?<![A-Za-z0-9=])[A-Z2-7]{16,}={0,6}(?![A-Za-z0-9=])")
_ASCII85 = re.compile(r"<~(.{5,}?)~>", re.S)
_BASE85 = re.compile(r"(?<!\S)[0-9A-Za-z!#$%&()*+\-;<=>?@^_`{|}~]{20,}(?!\S)")
# four or more numbers in a row: decimal 32-126 or code points, octal or hex with a prefix
_NUMBERS = re.compile(r"(?<![\w.])(?:(?:0x|0o|\\)?[0-9a-fA-F]{1,6}(?:[ \t,;]+|$)){4,}", re.M)


def readable(text: str) -> bool:
    """Text a writer means to be read: printable, mostly letters and spaces, and either
    words (a space) or a short keyed value ("score=5")."""
    if len(text) < 5 or any(
        unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") and c not in "\n\t" for c in text
    ):
        return False
    letters = sum(c.isalpha() or c.isspace() or unicodedata.category(c)[0] == "M" for c in text)
    return letters >= 0.6 * len(text)


def _text(data: bytes) -> str | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if readable(text) else None


def _base32(token: str) -> str | None:
    try:
        return _text(base64.b32decode(token + "=" * (-len(token) % 8)))
    except (binascii.Error, ValueError):
        return None


def _base85(token: str, ascii85: bool) -> str | None:
    try:
        data = base64.a85decode(token) if ascii85 else base64.b85decode(token)
    except (ValueError, binascii.Error):
        return None
    return _text(data)


def _code_points(run: str) -> str | None:
    tokens = re.findall(r"(?:0x|0o|\\)?[0-9a-fA-F]+", run)
    bases = (16,) if "0x" in run else (8,) if "0o" in run else (10, 8, 16)
    for base in bases:
        codes = []
        for t in tokens:
            digits = t[2:] if t[:2] in ("0x", "0o") else t.lstrip("\\")
            try:
                codes.append(int(digits, base))
            except ValueError:
                break
        if len(codes) < len(tokens) or not codes:
            continue
        # ASCII, or Bengali code points (a space between words): what a judge reads back
        if all(32 <= c < 127 or 0x980 <= c < 0xA00 for c in codes):
            text = "".join(map(chr, codes))
            if readable(text) and sum(c.isalpha() for c in text) >= 3:
                return text
    return None


_PIG = re.compile(r"\b[a-z]{2,}(?:ay|way|yay)\b", re.I)


def _unpig(word: str) -> str:
    low = word.lower()
    stem = low[:-2]
    candidates = [low[:-3]] if low.endswith("way") or low.endswith("yay") else []
    candidates += [stem[-k:] + stem[:-k] for k in (1, 2, 3) if len(stem) > k]
    known = [c for c in candidates if c in english_words()]
    return known[0] if known else word


def pig_latin(text: str) -> str | None:
    """``text`` with its pig-latin words put back, when three or more are and the result
    reads as words."""
    if len(_PIG.findall(text[:_LIMIT])) < 3:
        return None
    back = _PIG.sub(lambda m: _unpig(m.group(0)), text[:_LIMIT])
    return back if reads_as_words(back, least=3, share=0.5) and back != text else None


_ABC = "abcdefghijklmnopqrstuvwxyz"
_ATBASH = str.maketrans(_ABC + _ABC.upper(), _ABC[::-1] + _ABC.upper()[::-1])
_LATIN_RUN = re.compile(r"(?:[A-Za-z]+[^\w\n]+){2,}[A-Za-z]+")


def atbash(text: str) -> list[str]:
    """Runs of Latin words that read as nothing and as words once each letter is mirrored."""
    found = []
    for m in list(_LATIN_RUN.finditer(text[:_LIMIT]))[:_RUNS]:
        run = m.group(0)
        if reads_as_words(run, least=2, share=0.3):
            continue
        back = run.translate(_ATBASH)
        if reads_as_words(back):
            found.append(back)
    return found


def decoded(text: str) -> list[str]:
    """What ``text`` (as written) decodes to by the decoders above."""
    text = text[:_LIMIT]
    found = [t for m in list(_BASE32.finditer(text))[:_RUNS] if (t := _base32(m.group(0)))]
    found += [t for m in _ASCII85.finditer(text) if (t := _base85(m.group(1), True))]
    found += [
        t
        for m in list(_BASE85.finditer(text))[:_RUNS]
        if re.search(r"[^A-Za-z0-9]", m.group(0)) and (t := _base85(m.group(0), False))
    ]
    found += [t for m in list(_NUMBERS.finditer(text))[:_RUNS] if (t := _code_points(m.group(0)))]
    if pig := pig_latin(text):
        found.append(pig)
    return found + atbash(text)
