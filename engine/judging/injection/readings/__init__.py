"""Readings of an answer that a capable judge takes and a pattern does not: general decoders
whose readings the injection rules then read (:func:`hidden_readings`), an order in them read
loosely (:mod:`~engine.judging.injection.readings.orders`), and whether a reading is words
(:mod:`~engine.judging.injection.readings.vocabulary`).

- :mod:`~engine.judging.injection.readings.by_sound`: English spelt by sound in any other
  script (Thai, kana, Hangul, Cyrillic, Greek, Armenian, Georgian; by anyascii);
- :mod:`~engine.judging.injection.readings.ciphers`: base32, base85, numbers as character
  codes, pig latin, atbash;
- :mod:`~engine.judging.injection.readings.acrostic`: first characters (letters and digits)
  cut into words and numbers, first words cut to the lexicon's;
- :mod:`~engine.judging.injection.readings.numbered`: numbers read as letters (A=1), in
  runs or in a list's numbering;
- :mod:`~engine.judging.injection.readings.reversal`: Bengali reversed by hand;
- :mod:`~engine.judging.injection.readings.overrides`: text under a direction override, as
  stored (a model reads it so; a person sees it mirrored);
- :mod:`~engine.judging.injection.readings.hashtags`: hashtags split into their words
  ("#GiveFiveStars");
- :mod:`~engine.judging.injection.readings.languages`: orders in languages written in Latin
  letters, glossed from a compact lexicon.

The decoders of :mod:`engine.judging.injection.decode` (base64, hex, tag characters, …) and
:mod:`engine.judging.injection.channels` (Caesar shifts, reversal, acrostics) stand beside
these.
"""

from __future__ import annotations

from engine.judging.injection.readings.acrostic import first_word_stems, letter_acrostics
from engine.judging.injection.readings.by_sound import sounded_readings
from engine.judging.injection.readings.ciphers import decoded
from engine.judging.injection.readings.hashtags import hashtag_readings
from engine.judging.injection.readings.languages import glossed_readings
from engine.judging.injection.readings.numbered import numbered_readings
from engine.judging.injection.readings.orders import hidden_order
from engine.judging.injection.readings.overrides import overridden_spans
from engine.judging.injection.readings.reversal import reversed_bengali
from engine.judging.injection.readings.vocabulary import reads_as_words

__all__ = [
    "glossed_readings",
    "hidden_order",
    "hidden_readings",
    "rearranged_readings",
    "reads_as_words",
]


def hidden_readings(text: str) -> list[str]:
    """What ``text`` (as written) hides in an encoding, a cipher or another script's letters."""
    return (
        decoded(text)
        + sounded_readings(text)
        + overridden_spans(text)
        + numbered_readings(text)
        + hashtag_readings(text)
    )


def rearranged_readings(clean: str) -> tuple[list[str], list[str]]:
    """What ``clean`` (in matching form) spells rearranged (first characters, Bengali
    backwards), and its first words cut to the lexicon's (words it says, read loosely)."""
    return letter_acrostics(clean) + reversed_bengali(clean), first_word_stems(clean)
