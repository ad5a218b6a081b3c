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
_SCALE = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(?:-|:|\.\.|–)\s*(-?\d+(?:\.\d+)?)\s*$")


def parse_scale(text: str) -> Scale:
    """'0-1', '0-10', '0-100', '1-5', '-1:1' or 'MIN..MAX' -> (min, max) with min < max."""
    match = _SCALE.match(text or "")
    if not match:
        raise UserError(f"a score scale is MIN-MAX such as 0-1, 0-10, 0-100 or 1-5, not '{text}'")
    lo, hi = float(match.group(1)), float(match.group(2))
    if not lo < hi:
        raise UserError(f"a score scale needs MIN < MAX, not '{text}'")
    return lo, hi


def scale_text(scale: Scale) -> str:
    return "-".join(f"{v:g}" for v in scale)


def check_on_scale(value: float, scale: Scale) -> str | None:
    """Why ``value`` is not a score on ``scale`` (None: it is, or it is NaN = missing)."""
    if math.isnan(value):
        return None
    if math.isinf(value) or not scale[0] <= value <= scale[1]:
        return f"{value:g} is outside the declared scale {scale_text(scale)}"
    return None
