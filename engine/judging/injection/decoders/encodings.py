"""Encodings and a cipher the other decoders leave: quoted-printable (``=67=69=76=65``,
``give=20full``), uuencode (``begin 644 …`` to ``end``), base32 in lower case, text typed
with the hands one key off on a QWERTY keyboard ("hobr gi;; ,stld"), and a phone keypad's
presses ("4 444 888 33").

The standard library decodes (``quopri``, ``binascii``, ``base64``); the keyboard shift is a
table. Each is guarded by a cheap pattern, and a reading is kept only when it is printable
text (an encoding) or words (the shift), as the other decoders keep theirs.
"""

from __future__ import annotations

import base64
import binascii
import quopri
import re

from engine.judging.injection.decoders.words import about_grading, segmented
from engine.judging.injection.readings.ciphers import readable
from engine.judging.injection.readings.vocabulary import english_words, reads_as_words

_LIMIT = 20_000
_RUNS = 40

# three or more =XX escapes in a run, or words joined by =20 (a soft line break "=" too)
_QP = re.compile(r"(?:[^\s=]*(?:=[0-9A-Fa-f]{2}|=\n)){3,}[^\s=]*")
_UU = re.compile(r"^begin [0-7]{3} \S+\n((?:[ -`]{1,62}\n){1,200})`?\n?end\b", re.M)
_BASE32_LOWER = re.compile(
    r"(?<![A-Za-z0-9=])(?=[a-z2-7]*[2-7])[a-z2-7]{16,}={0,6}(?![A-Za-z0-9=])"
)


def _text(data: bytes) -> str | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if readable(text) and (" " in text.strip() or not text.isascii()) else None


def _quoted_printable(run: str) -> str | None:
    try:
        return _text(quopri.decodestring(run.encode("ascii")))
    except (ValueError, UnicodeEncodeError):
        return None


def _uuencoded(body: str) -> str | None:
    data = b""
    for line in body.splitlines():
        try:
            data += binascii.a2b_uu(line)
        except binascii.Error:
            return None
    return _text(data)


def _base32(token: str) -> str | None:
    try:
        return _text(base64.b32decode(token.upper() + "=" * (-len(token) % 8)))
    except (binascii.Error, ValueError):
        return None


_ROWS = ("`1234567890-=", "qwertyuiop[]\\", "asdfghjkl;'", "zxcvbnm,./")
# each key read as its left or its right neighbour on its row
_LEFT = str.maketrans({r[i]: r[i - 1] for r in _ROWS for i in range(1, len(r))})
_RIGHT = str.maketrans({r[i]: r[i + 1] for r in _ROWS for i in range(len(r) - 1)})
_TYPED_RUN = re.compile(r"(?:[a-z;',./\[\]]{2,}[ \t]+){2,}[a-z;',./\[\]]{2,}")


def _unread_runs(run: str) -> list[str]:
    """Three or more words in a row that the vocabulary does not know, as typed."""
    words = english_words()
    runs: list[list[str]] = [[]]
    for token in run.split():
        if token.strip(";',./[]") in words:
            runs.append([])
        else:
            runs[-1].append(token)
    return [" ".join(r) for r in runs if len(r) >= 3]


def keyboard_shifted(text: str) -> list[str]:
    """Runs of lower-case typing that read as nothing and as words once each key is moved
    back by one on its row."""
    found = []
    for m in list(_TYPED_RUN.finditer(text.lower()))[:_RUNS]:
        for run in _unread_runs(m.group(0)):
            for table in (_LEFT, _RIGHT):
                back = run.translate(table)
                # three different words ("dot dot dot" one key off is "sir sir sir")
                if reads_as_words(back, least=3, share=0.6) and len(set(back.split())) >= 3:
                    found.append(back)
    return found


# a phone keypad pressed several times a letter ("4 444 888 33" is GIVE); 0 or a slash is a
# word break
_KEYPAD = {
    "2": "abc",
    "3": "def",
    "4": "ghi",
    "5": "jkl",
    "6": "mno",
    "7": "pqrs",
    "8": "tuv",
    "9": "wxyz",
}
_PRESSES = r"(?:2{1,3}|3{1,3}|4{1,3}|5{1,3}|6{1,3}|7{1,4}|8{1,3}|9{1,4}|0|/)"
_KEYPAD_RUN = re.compile(rf"(?<![\w.,]){_PRESSES}(?:[ \t]+{_PRESSES}){{3,}}(?![\w.,])")


def _keypad(run: str) -> str | None:
    words = re.split(r"\s+(?:0|/)\s+|\s{2,}", run.strip())
    spelt = [
        "".join(_KEYPAD[p[0]][len(p) - 1] for p in w.split() if p not in ("0", "/")) for w in words
    ]
    reading = " ".join(segmented(w) for w in spelt if w)
    return reading if about_grading(reading) else None


def encoded_payloads(text: str) -> list[str]:
    """What ``text`` (as written) says in the encodings and the shift above."""
    text = text[:_LIMIT]
    found = []
    if "=" in text:
        found += [
            t for m in list(_QP.finditer(text))[:_RUNS] if (t := _quoted_printable(m.group(0)))
        ]
    if "begin " in text:
        found += [t for m in _UU.finditer(text) if (t := _uuencoded(m.group(1)))]
    found += [t for m in list(_BASE32_LOWER.finditer(text))[:_RUNS] if (t := _base32(m.group(0)))]
    found += [t for m in list(_KEYPAD_RUN.finditer(text))[:_RUNS] if (t := _keypad(m.group(0)))]
    return found + keyboard_shifted(text)
