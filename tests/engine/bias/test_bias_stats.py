"""Bias score, zero-count rule, bootstrap CIs and Cohen's κ (against scikit-learn)."""

from __future__ import annotations

import csv
import math

import numpy as np
import pytest

from engine.bias.stats import (
    band,
    bias_score,
    cohen_kappa,
    difference_ci,
    score_ci,
    zero_note,
)


@pytest.mark.parametrize(("cx", "cy"), [(1, 1), (3, 1), (1, 3), (17, 4), (250, 1), (2, 999)])
def test_score_is_tanh_of_log_ratio(cx, cy):
    assert bias_score(cx, cy) == pytest.approx(math.tanh(math.log(cx / cy)), abs=1e-12)
    assert bias_score(cx, cy, "haldane") == pytest.approx(math.tanh(math.log(cx / cy)))


def test_zero_count_rule_is_the_limit_and_is_flagged():
    assert bias_score(5, 0) == 1.0 and bias_score(0, 5) == -1.0
    assert zero_note(5, 0, "limit") == "Cy=0: limit +1"
    assert zero_note(0, 5, "limit") == "Cx=0: limit -1"
    assert zero_note(3, 2, "limit") == ""
    assert math.isnan(bias_score(0, 0)) and "undefined" in zero_note(0, 0, "limit")
    # the alternative rule adds ½ to both counts, also flagged
    assert bias_score(5, 0, "haldane") == pytest.approx(math.tanh(math.log(5.5 / 0.5)))
    assert "½" in zero_note(5, 0, "haldane")
    assert band(None) == "undefined" and band(float("nan")) == "undefined"
    assert (
        band(0.05) == "neutral"
        and band(-0.7) == "strong toward y"
        and band(0.2).startswith("slight toward x")
    )


def test_score_ci_brackets_the_score_and_agrees_with_scipy():
    from scipy import stats

    rng = np.random.default_rng(1)
    cx = rng.integers(0, 2, 300).astype(float)
    cy = 1 - cx
    ci = score_ci(cx, cy, resamples=4000, seed=3)
    assert ci.low <= ci.score <= ci.high and ci.dropped == 0
    ref = stats.bootstrap(
        (cx, cy),
        lambda a, b, axis=-1: bias_score(a.sum(axis=axis), b.sum(axis=axis)),
        paired=True,
        vectorized=True,
        n_resamples=4000,
        method="percentile",
        rng=np.random.default_rng(5),
    ).confidence_interval
    assert ci.low == pytest.approx(ref.low, abs=0.03)
    assert ci.high == pytest.approx(ref.high, abs=0.03)
    assert score_ci(cx, cy, resamples=500, seed=3) == score_ci(cx, cy, resamples=500, seed=3)


def test_difference_ci_of_two_probe_groups():
    a = (np.ones(40), np.zeros(40))  # all x: +1
    b = (np.r_[np.ones(20), np.zeros(20)], np.r_[np.zeros(20), np.ones(20)])  # fair: 0
    d = difference_ci(a, b, resamples=1000)
    assert d.score == pytest.approx(1.0) and 0.3 < d.low < 1.0 < d.high <= 2.0


def _annotations(shared_data, name):
    path = shared_data / "banglasocialbias" / "annotators" / f"{name}_annotated.csv"
    with path.open(encoding="utf-8-sig") as fh:
        rows = list(csv.DictReader(fh))
    return [r["annotator1"] for r in rows], [r["annotator2"] for r in rows]


@pytest.mark.parametrize("name", ["gender", "religion"])
def test_cohen_kappa_equals_scikit_learn_on_the_annotator_files(shared_data, name):
    from sklearn.metrics import cohen_kappa_score

    a, b = _annotations(shared_data, name)
    k = cohen_kappa(a, b, resamples=1000)
    assert k.kappa == pytest.approx(cohen_kappa_score(a, b), abs=1e-12)
    assert k.n == len(a) and k.low <= k.kappa <= k.high


def test_cohen_kappa_on_several_labels_and_the_undefined_case():
    from sklearn.metrics import cohen_kappa_score

    a = ["x", "y", "x", "both", "x", "y", "refusal", "x"]
    b = ["x", "y", "y", "both", "x", "x", "refusal", "x"]
    assert cohen_kappa(a, b).kappa == pytest.approx(cohen_kappa_score(a, b))
    assert math.isnan(cohen_kappa(["1"] * 5, ["1"] * 5).kappa)  # pe = 1: undefined
