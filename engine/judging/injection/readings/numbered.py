"""Numbers read as letters (A=1 … Z=26): a run of numbers in ASCII or Bengali digits joined
by dashes, commas or spaces ("7-9-22-5 / 6-9-22-5"), or the numbers that open a list's
lines, read in the English alphabet's order. A reading that is no words is dropped by the
rules that read it; a count or a date rarely stays within 1-26 for four numbers or more.
"""

from __future__ import annotations

import re

_LIMIT = 20_000
_DIGITS = str.maketrans("০১২৩৪৫৬৭৮৯", "0123456789")
# four or more numbers of one or two digits, joined by dashes, dots, commas or spaces; a
# slash or a bar between groups is a word break
_RUN = re.compile(r"(?<![\d.])\d{1,2}(?:\s*(?:[-–,.·]|\s|/|\|)\s*\d{1,2}){3,}(?![\d.])")
_LIST = re.compile(r"^\s*(\d{1,2})[.)]\s", re.M)


def _letters(numbers: list[str]) -> str | None:
    values = [int(n) for n in numbers]
    if not all(1 <= v <= 26 for v in values):
        return None
    return "".join(chr(ord("A") + v - 1) for v in values)


def numbered_readings(text: str) -> list[str]:
    """What the number runs and the list numbering of ``text`` spell as letters."""
    text = text[:_LIMIT].translate(_DIGITS)
    readings = []
    for run in _RUN.finditer(text):
        # numbers joined by dashes: a space between them is a word break too
        breaks = r"\s*[/|]\s*|\s+" if "-" in run.group() else r"[/|]"
        groups = re.split(breaks, run.group())
        words = [_letters(re.findall(r"\d+", group)) for group in groups]
        if words and all(words):
            readings.append(" ".join(w for w in words if w))
    numbers = _LIST.findall(text)
    if len(numbers) >= 4 and numbers != [str(i) for i in range(1, len(numbers) + 1)]:
        if spelt := _letters(numbers):
            readings.append(spelt)
    return readings
