"""Script as a factor: Romanization of Bengali with named schemes, and the round trip back.

Schemes (all from maintained PyPI libraries, none written here):

- ``avro``: Avro-style phonetic, the scheme of paper 001's Romanized condition. Bengali →
  Roman with ``avro.reverse`` and back with ``avro.parse`` (avro-py).
- ``itrans`` and ``iso15919``: indic-transliteration's ``sanscript`` (BENGALI ↔ ITRANS / ISO).

Under NFC the nukta letters ড় ঢ় য় are decomposed into base + U+09BC (engine.text.textnorm),
which every library above maps letter by letter and then leaves a stray nukta in the Roman
text; they are recomposed to U+09DC/U+09DD/U+09DF before transliterating. Back-transliterated
text is NFC-normalised before it is compared, so the CER measures letters, not code points.

The round-trip CER (jiwer, characters) measures what a scheme destroys: Avro collapses vowel
length, aspiration and nasal distinctions, so its round trip cannot recover the original.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

import avro
import jiwer

from engine.errors import UserError
from engine.text.textnorm import normalize_text

log = logging.getLogger(__name__)

SCHEMES = ("avro", "itrans", "iso15919")
DEFAULT_SCHEME = "avro"

_COMPOSE = {
    "\u09a1\u09bc": "\u09dc",  # ড় (ড + nukta)
    "\u09a2\u09bc": "\u09dd",  # ঢ়
    "\u09af\u09bc": "\u09df",  # য়
}


def compose_nukta(text: str) -> str:
    for pair, single in _COMPOSE.items():
        text = text.replace(pair, single)
    return text


def _sanscript(name: str) -> tuple[Callable[[str], str], Callable[[str], str]]:
    # lazy: indic-transliteration is slow to import
    from indic_transliteration import sanscript

    scheme = {"itrans": sanscript.ITRANS, "iso15919": sanscript.ISO}[name]
    return (
        lambda text: sanscript.transliterate(text, sanscript.BENGALI, scheme),
        lambda text: sanscript.transliterate(text, scheme, sanscript.BENGALI),
    )


# avro-py 2025.11.3's reverse leaves some letters in Bengali (measured on 5,000 Vashantor
# sentences: অ 1,085 times, a stray hasanta after some conjuncts 3,824 times, ঐ ঈ ঊ a few):
# they get the Avro keys that ``avro.parse`` reads back (o, OI, I, U); a stray hasanta drops.
_AVRO_LEFTOVERS = str.maketrans(
    {"\u0985": "o", "\u0990": "OI", "\u0988": "I", "\u098a": "U", "\u09cd": ""}
)


def _avro() -> tuple[Callable[[str], str], Callable[[str], str]]:
    return (lambda text: avro.reverse(text).translate(_AVRO_LEFTOVERS)), avro.parse


def _pair(scheme: str):
    if scheme not in SCHEMES:
        raise UserError(f"unknown Romanization scheme {scheme!r} (known: {', '.join(SCHEMES)})")
    return _avro() if scheme == "avro" else _sanscript(scheme)


def romanize(texts: Sequence[str], scheme: str = DEFAULT_SCHEME) -> list[str]:
    """Bengali → Roman with the named scheme."""
    forward, _ = _pair(scheme)
    return [normalize_text(forward(compose_nukta(normalize_text(t)))) for t in texts]


def to_bengali(texts: Sequence[str], scheme: str = DEFAULT_SCHEME) -> list[str]:
    """Roman → Bengali (the scheme's inverse mapping)."""
    _, backward = _pair(scheme)
    return [normalize_text(backward(t)) for t in texts]


def cer(hypotheses: Sequence[str], references: Sequence[str]) -> list[float]:
    """Character error rate per pair (jiwer): edits / reference characters, after
    normalisation. An empty reference gives 0 for an empty hypothesis, else 1."""
    out = []
    for h, r in zip(hypotheses, references, strict=True):
        h, r = normalize_text(h), normalize_text(r)
        if not r:
            out.append(0.0 if not h else 1.0)
        else:
            out.append(float(jiwer.cer(r, h)))
    return out


def round_trip(texts: Sequence[str], scheme: str = DEFAULT_SCHEME) -> dict:
    """Romanize, transliterate back and measure per-item CER against the original."""
    roman = romanize(texts, scheme)
    back = to_bengali(roman, scheme)
    rates = cer(back, [normalize_text(t) for t in texts])
    exact = [b == normalize_text(t) for b, t in zip(back, texts)]
    n = len(rates)
    return {
        "scheme": scheme,
        "n": n,
        "mean_cer": sum(rates) / n if n else float("nan"),
        "exact_share": sum(exact) / n if n else float("nan"),
        "roman": roman,
        "back": back,
        "cer": rates,
    }
