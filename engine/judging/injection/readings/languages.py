"""Orders in languages written in Latin letters (French, Spanish, Portuguese, Italian,
German, Dutch, Indonesian, Malay, Tagalog, Swahili, Turkish, Vietnamese, Polish): a sentence
that holds two words or more of the compact lexicon ``resources/injection/latin.toml`` is
read with them glossed into English. Hand-made for the reason of
:mod:`engine.judging.injection.far_languages`: no maintained library translates offline.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from functools import cache
from importlib.resources import files

from engine.judging.injection.text import sentences


def _plain(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in text if not unicodedata.combining(c)).replace("ı", "i")


@cache
def _lexicon() -> tuple[dict[str, str], re.Pattern]:
    source = files("resources") / "injection" / "latin.toml"
    data = tomllib.loads(source.read_text(encoding="utf-8"))
    glosses = {_plain(k): v for words in data.values() for k, v in words.items()}
    keys = sorted(glosses, key=len, reverse=True)
    return glosses, re.compile(r"\b(?:" + "|".join(map(re.escape, keys)) + r")\b")


def glossed_readings(clean: str) -> list[str]:
    """The sentences of ``clean`` (in matching form) with two or more of the lexicon's words
    (not all English already), those words glossed into English."""
    glosses, pattern = _lexicon()
    found = []
    for sentence in sentences(clean)[:300]:
        plain = _plain(sentence)
        hits = {m.group(0) for m in pattern.finditer(plain)}
        if len(hits) >= 2 and any(glosses[h] != h for h in hits):
            found.append(pattern.sub(lambda m: glosses[m.group(0)], plain))
    return found
