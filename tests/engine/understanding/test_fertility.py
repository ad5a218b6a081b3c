"""The native−Romanized gap regressed on token inflation."""

from __future__ import annotations

import numpy as np
import pytest

from engine.understanding.fertility import _regress


def test_regression_slope_and_ci_match_least_squares():
    rng = np.random.default_rng(1)
    keys = [f"pair{i}" for i in range(40)]
    native = {(k, "native"): int(n) for k, n in zip(keys, rng.integers(10, 30, 40))}
    roman = {
        (k, "roman"): int(native[(k, "native")] * f)
        for k, f in zip(keys, rng.uniform(1.0, 2.0, 40))
    }
    x = np.array([roman[(k, "roman")] / native[(k, "native")] for k in keys])
    y = 12.0 * x + rng.normal(0, 2, 40)
    got = _regress({"item_gaps": dict(zip(keys, y))}, {**native, **roman})
    slope, intercept = np.polyfit(x, y, 1)
    assert got["beta"] == pytest.approx(slope, abs=1e-9)
    assert got["low"] < slope < got["high"] and got["p"] < 1e-6 and got["n"] == 40
    flat = _regress({"item_gaps": dict.fromkeys(keys, 0.0)}, {**native, **roman})
    assert flat["beta"] is None  # no variation: no slope claimed
