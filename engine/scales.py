"""Declared score scales: every human or metric score carries its (min, max), and the one
grammar of numbers a user writes (options, score cells, scales).

Nothing assumes 0–10 silently (docs/design.md): a scale is declared (``--human-scale 0-1``,
``0-10``, ``0-100`` or any ``MIN-MAX``), stored with the scores, and a value outside it is
refused rather than clamped. NaN means "missing", never a score.
"""

from __future__ import annotations

import math
import re

from engine.errors import UserError

Scale = tuple[float, float]
_BOUND = r"\s*(-?[0-9]+(?:\.[0-9]+)?)\s*"
_SCALE = re.compile(rf"^{_BOUND}(?:-|:|\.\.|–){_BOUND}$")
# Annotation batches store, compare and show their scales written LOW..HIGH only.
DOTTED_SCALE = re.compile(rf"^{_BOUND}\.\.{_BOUND}$")


def scale_bounds(text: str | None, notation: re.Pattern = _SCALE) -> Scale | None:
    """The two numbers of ``text`` written in ``notation`` (either order), or None when it
    is not written so. Bounds are plain decimals: no exponent, '8_0', 'inf' or 'nan'."""
    match = notation.match(ascii_digits(text or ""))
    return (float(match.group(1)), float(match.group(2))) if match else None


def parse_scale(text: str) -> Scale:
    """'0-1', '0-10', '0-100', '1-5', '-1:1' or 'MIN..MAX' -> (min, max) with min < max."""
    bounds = scale_bounds(text)
    if bounds is None:
        raise UserError(f"a score scale is MIN-MAX such as 0-1, 0-10, 0-100 or 1-5, not '{text}'")
    if not bounds[0] < bounds[1]:
        raise UserError(f"a score scale needs MIN < MAX, not '{text}'")
    return bounds


def scale_text(scale: Scale) -> str:
    return "-".join(f"{v:g}" for v in scale)


def check_on_scale(value: float, scale: Scale) -> str | None:
    """Why ``value`` is not a score on ``scale`` (None: it is, or it is NaN = missing)."""
    if math.isnan(value):
        return None
    if math.isinf(value) or not scale[0] <= value <= scale[1]:
        return f"{value:g} is outside the declared scale {scale_text(scale)}"
    return None


# The one grammar of numbers a user writes, wherever they write them (an option, a score cell,
# a scale): ASCII digits 0-9 or Bengali digits ০-৯ (read as 0-9), surrounding white space
# ignored. Digits of other scripts are not numbers here (Python's int() and float() take
# them, and '8_0' as 80, 'nan', 'inf' and 'infinity'; none of those is accepted).
_BENGALI_DIGITS = str.maketrans("০১২৩৪৫৬৭৮৯", "0123456789")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_WHOLE = re.compile(r"[+-]?[0-9]+")
# more digits than any bounded option takes; int() refuses over 4,300 digits
MAX_DIGITS = 40


def ascii_digits(text: str) -> str:
    """``text`` without surrounding white space, its Bengali digits as ASCII ones."""
    return text.strip().translate(_BENGALI_DIGITS)


def parse_number(text: str) -> float | None:
    """``text`` as a finite float, or None when it is not a plain decimal number (the
    grammar above)."""
    text = ascii_digits(text)
    if not _NUMBER.fullmatch(text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None  # '1e999' overflows to inf


def parse_whole(text: str) -> int | None:
    """``text`` as a whole number (the grammar above, no point or exponent), or None. A
    number of more than :data:`MAX_DIGITS` digits is read as its sign times 10**MAX_DIGITS,
    beyond every range, so that a range check words it."""
    text = ascii_digits(text)
    if not _WHOLE.fullmatch(text):
        return None
    if len(text.lstrip("+-").lstrip("0")) > MAX_DIGITS:
        return (-1 if text.startswith("-") else 1) * 10**MAX_DIGITS
    return int(text)


# A file's scores spanning less than this share of the declared scale are implausible.
PLAUSIBLE_SHARE = 0.1
MIN_FOR_RANGE_CHECK = 3


def implausible_scale(values, scale: Scale) -> str | None:
    """Why ``values`` do not look like scores on ``scale`` (None: they may): they span
    less than a tenth of it — 0–1 scores declared 0–100 span at most 1 of 100. Fewer than
    three scores show no range, so they pass."""
    finite = [v for v in values if not math.isnan(v)]
    if len(finite) < MIN_FOR_RANGE_CHECK:
        return None
    lo, hi = min(finite), max(finite)
    if hi - lo < PLAUSIBLE_SHARE * (scale[1] - scale[0]):
        return (
            f"the scores span {lo:g}-{hi:g}, less than a tenth of the declared scale "
            f"{scale_text(scale)}"
        )
    return None
