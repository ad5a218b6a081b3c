"""The human-only and judge-only intervals beside PPI: Student t with the sample SD, n
reported, and a note whenever an interval leaves the score scale."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from engine.annotation.ppi import classical_mean, ppi_mean, with_scale_note


def test_t_interval_equals_scipy_at_small_n():
    judge = np.array([0.0, 2.0, 10.0, 1.0, 0.0, 10.0])  # n = 6 on 0-10, as in Noakhali
    est = classical_mean(judge, alpha=0.05, scale=(0, 10))
    low, high = stats.t.interval(0.95, len(judge) - 1, loc=judge.mean(), scale=stats.sem(judge))
    assert (est.low, est.high) == (pytest.approx(low, abs=1e-12), pytest.approx(high, abs=1e-12))
    assert est.n == 6 and est.method == "mean, Student t"
    # wider than the old normal interval with the population SD
    z_half = stats.norm.ppf(0.975) * judge.std(ddof=0) / np.sqrt(6)
    assert est.high - est.low > 2 * z_half
    assert est.low < 0 and "below the scale minimum 0 (n = 6)" in est.note
    assert est.as_dict()["note"] == est.note


def test_no_note_inside_the_scale_and_ppi_gets_one_when_it_leaves():
    inside = classical_mean([4.0, 5.0, 6.0, 5.0, 4.5, 5.5], scale=(0, 10))
    assert inside.note is None
    rng = np.random.default_rng(1)
    y = np.array([0.0, 10.0, 0.0, 10.0])
    p = ppi_mean(y, y * 0.5, rng.uniform(0, 10, 20))
    noted = with_scale_note(p, (0, 10))
    assert (noted.low < 0 or noted.high > 10) == (noted.note is not None)
    assert classical_mean([3.0]).note is None and classical_mean([3.0]).n == 1
