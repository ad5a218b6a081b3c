"""Paired Wilcoxon tests per question and Holm's correction, against scipy and by hand."""

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from engine.stats.paired import holm, paired_tests, wilcoxon_pair
from engine.stats.summary import per_question, summarize


def test_holm_by_hand():
    # sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 → max(0.06, 0.04) = 0.06
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == [1.0, 1.0]
    adjusted = holm([0.01, math.nan, 0.02])
    assert adjusted[0] == pytest.approx(0.02) and math.isnan(adjusted[1])
    assert adjusted[2] == pytest.approx(0.02)
    assert holm([]) == []


def test_holm_matches_its_closed_testing_definition():
    """adj p_(i) = max_{j ≤ i} min(1, (m − j + 1) p_(j)), computed independently."""
    rng = np.random.default_rng(5)
    for _ in range(50):
        p = rng.uniform(0, 0.2, rng.integers(1, 12))
        order = np.argsort(p)
        m = len(p)
        expected = np.empty(m)
        for i, idx in enumerate(order):
            expected[idx] = max(min(1.0, (m - j) * p[order[j]]) for j in range(i + 1))
        assert holm(p) == pytest.approx(expected.tolist())


def test_wilcoxon_pair_uses_shared_questions_and_matches_scipy():
    rng = np.random.default_rng(0)
    a = {f"q{i}": float(v) for i, v in enumerate(rng.uniform(4, 9, 25))}
    b = {f"q{i}": a[f"q{i}"] - float(d) for i, d in enumerate(rng.normal(0.8, 1.0, 25))}
    b["only_in_b"] = 1.0
    n, nz, mean_d, median_d, stat, p = wilcoxon_pair(a, b)
    keys = sorted(a)
    ref = stats.wilcoxon([a[k] for k in keys], [b[k] for k in keys])
    assert n == 25 and nz == 25
    assert stat == pytest.approx(ref.statistic) and p == pytest.approx(ref.pvalue)
    assert mean_d == pytest.approx(np.mean([a[k] - b[k] for k in keys]))
    assert median_d == pytest.approx(np.median([a[k] - b[k] for k in keys]))


def test_identical_groups_and_no_overlap():
    same = {"q1": 5.0, "q2": 6.0}
    n, nz, mean_d, _, stat, p = wilcoxon_pair(same, same)
    assert (n, nz, mean_d, p) == (2, 0, 0.0, 1.0) and math.isnan(stat)
    assert wilcoxon_pair({"q1": 1.0}, {"q2": 1.0})[0] == 0


def test_paired_tests_correct_across_the_family():
    rng = np.random.default_rng(11)
    base = rng.uniform(5, 9, 30)
    groups = {
        "chittagong": {i: v - 2.0 + rng.normal(0, 0.3) for i, v in enumerate(base)},
        "sylhet": {i: v + rng.normal(0, 0.3) for i, v in enumerate(base)},
        "noakhali": {i: v + rng.normal(0, 0.3) for i, v in enumerate(base)},
    }
    results = paired_tests(groups)
    assert [(r.a, r.b) for r in results] == list(itertools.combinations(sorted(groups), 2))
    assert [r.p_holm for r in results] == pytest.approx(holm([r.p for r in results]))
    by_pair = {(r.a, r.b): r for r in results}
    assert by_pair[("chittagong", "sylhet")].p_holm < 0.001
    assert by_pair[("chittagong", "sylhet")].mean_diff == pytest.approx(-2.0, abs=0.2)
    assert by_pair[("noakhali", "sylhet")].p_holm > 0.01
    assert all(r.n == 30 for r in results)


def test_summaries_carry_n_and_degradation():
    rows = [
        {"model": "m", "dialect": d, "question_id": q, "final": f}
        for d, q, f in [
            ("sylhet", 1, 8.0),
            ("sylhet", 1, 6.0),
            ("sylhet", 2, 7.0),
            ("sylhet", 3, 9.0),
            ("chittagong", 1, 4.0),
            ("chittagong", 2, 5.0),
        ]
    ]
    out = {r["dialect"]: r for r in summarize(rows, ("model", "dialect"), seed=1)}
    s = out["sylhet"]
    assert (s["n"], s["n_questions"], s["mean"]) == (4, 3, 7.5)
    assert s["degradation"] == pytest.approx(2.5) and s["degradation_share"] == pytest.approx(0.25)
    assert s["degradation_low"] == pytest.approx(10 - s["ci_high"])
    assert out["chittagong"]["n_questions"] == 2
    assert per_question(rows, ("dialect",))["sylhet"] == {1: 7.0, 2: 7.0, 3: 9.0}
