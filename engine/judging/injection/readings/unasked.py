"""What an answer holds that nothing calls for: a run of a script that neither the question
nor the rest of the answer is written in, or a direction override (text stored in one order
and shown in another). Neither is an order, but a judge reads what the reader of the answer
does not: suspicious, for the judge run's disagreement check, never a flag.
"""

from __future__ import annotations

import re
import unicodedata

# reasons that make an answer suspicious and never flag it
SUSPICIOUS_ONLY = frozenset({"hidden-text", "unasked-script", "direction-override"})

_OVERRIDE = re.compile("[\u202d\u202e\u2066-\u2068]")
_RTL_LETTER = re.compile("[\u0590-\u08ff]")
# letters that are neither Latin, Bengali nor common: the others, by their script's name
_OTHER = re.compile("[^\\W\\d_A-Za-z\u00c0-\u024f\u0980-\u09ff]")


def _scripts(text: str, least: int) -> set[str]:
    counts: dict[str, int] = {}
    for c in _OTHER.findall(text[:20_000]):
        name = unicodedata.name(c, "").split(" ")[0]
        if name:
            counts[name] = counts.get(name, 0) + 1
    return {s for s, n in counts.items() if n >= least}


def unasked_scripts(text: str, question: str, asked: bool) -> tuple[str, ...]:
    """``("unasked-script",)`` when ``text`` (as written) has a run of four letters or more
    of a script the question neither is written in nor asks for (``asked``), and that most of the answer
    is not in; ``("direction-override",)`` for a direction override outside right-to-left
    text; else nothing."""
    found: tuple[str, ...] = ()
    if _OVERRIDE.search(text) and not _RTL_LETTER.search(text):
        found += ("direction-override",)
    others = _scripts(text, 4)
    if others and not asked:
        letters = sum(c.isalpha() for c in text[:20_000]) or 1
        foreign = sum(1 for c in _OTHER.findall(text[:20_000]))
        if others - _scripts(question, 1) and foreign < 0.5 * letters:
            found += ("unasked-script",)
    return found
