"""correlation_table: declared human scales, no silent bending, against scipy to 1e-9."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from engine.errors import UserError
from engine.translation.metrics import correlation_table, parse_scale


def lin_ccc(x, y):
    x, y = np.asarray(x, float), np.asarray(y, float)
    rho = np.corrcoef(x, y)[0, 1]
    return 2 * rho * x.std() * y.std() / (x.var() + y.var() + (x.mean() - y.mean()) ** 2)


RNG = np.random.default_rng(7)
CHRF = RNG.uniform(10, 90, 40)
UNIT = np.clip(CHRF / 100 + RNG.normal(0, 0.15, 40), 0, 1)  # human scores on 0-1


@pytest.mark.parametrize("lo, hi", [(0, 1), (0, 10), (0, 100), (1, 5), (-25, 25)])
def test_same_figures_whatever_the_declared_scale(lo, hi):
    human = lo + UNIT * (hi - lo)
    rows = [{"chrf++": float(v)} for v in CHRF]
    (row,) = correlation_table(rows, list(human), human_scale=(lo, hi))
    x = CHRF / 100
    assert row["n"] == 40 and row["unavailable"] is None and row["human_scale"] == [lo, hi]
    assert row["pearson"] == pytest.approx(stats.pearsonr(CHRF, human)[0], abs=1e-9)
    assert row["spearman"] == pytest.approx(stats.spearmanr(CHRF, human)[0], abs=1e-9)
    assert row["kendall"] == pytest.approx(stats.kendalltau(CHRF, human)[0], abs=1e-9)
    assert row["ccc"] == pytest.approx(lin_ccc(x, UNIT), abs=1e-9)
    # nothing rounded inside
    assert row["pearson"] != round(row["pearson"], 4)


def test_nan_and_none_are_excluded_and_counted():
    human = list(UNIT * 10)
    human[3], human[5] = math.nan, None
    rows = [{"chrf++": float(v)} for v in CHRF]
    rows[7] = {"chrf++": None}
    (row,) = correlation_table(rows, human, human_scale=(0, 10))
    keep = [i for i in range(40) if i not in (3, 5, 7)]
    assert row["n"] == 37
    assert row["excluded"] == {"human_missing": 2, "metric_missing": 1}
    assert row["pearson"] == pytest.approx(stats.pearsonr(CHRF[keep], UNIT[keep])[0], abs=1e-9)


def test_out_of_range_is_refused_not_clamped():
    rows = [{"chrf++": float(v)} for v in CHRF[:4]]
    with pytest.raises(ValueError, match="position 2: 57 is outside the declared scale 0-10"):
        correlation_table(rows, [1, 57, 3, 4], human_scale=(0, 10))


def test_n2_and_constant_sides_are_unavailable_with_the_reason():
    (row,) = correlation_table([{"bleu": 10.0}, {"bleu": 20.0}], [1, 2], human_scale=(0, 10))
    assert row["unavailable"] == "n = 2 < 3"
    assert all(row[k] is None for k in ("pearson", "spearman", "kendall", "ccc"))
    rows = [{"bleu": 10.0}, {"bleu": 20.0}, {"bleu": 30.0}]
    (row,) = correlation_table(rows, [5, 5, 5], human_scale=(0, 10))
    assert row["unavailable"] == "the human scores are constant" and row["ccc"] is None
    rows = [{"bleu": 10.0}] * 3
    (row,) = correlation_table(rows, [1, 5, 9], human_scale=(0, 10))
    assert row["unavailable"] == "the metric is constant" and row["pearson"] is None


def test_bootstrap_ci_brackets_the_estimate():
    rows = [{"chrf++": float(v)} for v in CHRF]
    (row,) = correlation_table(rows, list(UNIT), human_scale=(0, 1), bootstrap=300, seed=1)
    for key in ("pearson", "spearman", "kendall", "ccc"):
        lo, hi = row["ci"][key]
        assert lo <= row[key] <= hi
    again = correlation_table(rows, list(UNIT), human_scale=(0, 1), bootstrap=300, seed=1)
    assert again[0]["ci"] == row["ci"]


@pytest.mark.parametrize(
    "text, scale",
    [("0-1", (0, 1)), ("0-10", (0, 10)), ("0-100", (0, 100)), ("1-5", (1, 5)), ("-1:1", (-1, 1))],
)
def test_parse_scale(text, scale):
    assert parse_scale(text) == scale


@pytest.mark.parametrize("text", ["10", "5-1", "a-b", ""])
def test_bad_scales_are_user_errors(text):
    with pytest.raises(UserError):
        parse_scale(text)
