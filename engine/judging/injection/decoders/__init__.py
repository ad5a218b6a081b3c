"""Decoders of the channels that hide or disguise text beyond
:mod:`engine.judging.injection.decode`'s encodings: what each gives is a hidden payload, read
by the injection rules like a decoded base64 one (an order there flags).

- :mod:`~engine.judging.injection.decoders.morse`: Morse in any glyphs, a letter a line, or
  written out as words (dit/dah, dot/dash, ডট/ড্যাশ);
- :mod:`~engine.judging.injection.decoders.spelling`: the NATO spelling alphabet,
  regional-indicator (flag) letters and parenthesized letters;
- :mod:`~engine.judging.injection.decoders.markup`: an ABC tune's lyrics, bold fragments of
  words and bracketed words read joined;
- :mod:`~engine.judging.injection.decoders.encodings`: quoted-printable, uuencode,
  lower-case base32, a QWERTY key shift, phone-keypad presses;
- numbers read as letters with no word break, cut into words.

What base64, hex, tag characters and the like hide is read by
:mod:`engine.judging.injection.decode`, ciphers without a hint by
:mod:`engine.judging.injection.readings`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from engine.judging.injection.decoders.encodings import encoded_payloads
from engine.judging.injection.decoders.markup import markup_payloads
from engine.judging.injection.decoders.morse import morse_payloads
from engine.judging.injection.decoders.spelling import spelling_payloads
from engine.judging.injection.decoders.words import segmented
from engine.judging.injection.readings.numbered import numbered_readings

__all__ = ["channel_payloads"]

_DIGIT = re.compile("[0-9০-৯]")


def channel_payloads(text: str) -> list[str]:
    """What ``text`` (as written) hides in the channels above."""
    return list(_channel_payloads(text))


@lru_cache(maxsize=256)  # the rules and the model's views ask for one answer's payloads twice
def _channel_payloads(text: str) -> tuple[str, ...]:
    return tuple(
        morse_payloads(text)
        + spelling_payloads(text)
        + markup_payloads(text)
        + encoded_payloads(text)
        + numbers_as_words(text)
    )


def numbers_as_words(text: str) -> list[str]:
    """Numbers read as letters (A=1, :mod:`~engine.judging.injection.readings.numbered`)
    with no word break among them ("7.9.22.5.6.21.12.12" is GIVEFULL), cut into words."""
    if len(_DIGIT.findall(text[:20_000])) < 9:  # nine letters need nine numbers
        return []
    return [
        cut
        for reading in numbered_readings(text)
        if any(len(w) > 8 for w in reading.split())
        and (cut := " ".join(segmented(w) for w in reading.split())) != reading
    ]
