"""Declared score scales: every human or metric score carries its (min, max).

Nothing assumes 0–10 silently (docs/design.md): a scale is declared (``--human-scale 0-1``,
``0-10``, ``0-100`` or any ``MIN-MAX``), stored with the scores, and a value outside it is
refused rather than clamped. NaN means "missing", never a score.
"""

from __future__ import annotations

import math
import re

from engine.errors import UserError

Scale = tuple[float, float]
_BOUND = r"\s*(-?\d+(?:\.\d+)?)\s*"
_SCALE = re.compile(rf"^{_BOUND}(?:-|:|\.\.|–){_BOUND}$")
# Annotation batches store, compare and show their scales written LOW..HIGH only.
DOTTED_SCALE = re.compile(rf"^{_BOUND}\.\.{_BOUND}$")


def scale_bounds(text: str | None, notation: re.Pattern = _SCALE) -> Scale | None:
    """The two numbers of ``text`` written in ``notation`` (either order), or None when it
    is not written so. Bounds are plain decimals: no exponent, '8_0', 'inf' or 'nan'."""
    match = notation.match(text or "")
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


# A plain decimal number: digits with an optional sign, point and exponent. Python's
# float() also takes '8_0' (as 80), 'nan', 'inf' and 'infinity', none of which is a score.
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def parse_number(text: str) -> float | None:
    """``text`` (ASCII digits, surrounding spaces allowed) as a finite float, or None when
    it is not a plain decimal number."""
    text = text.strip()
    if not _NUMBER.fullmatch(text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None  # '1e999' overflows to inf


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
