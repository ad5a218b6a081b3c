"""Clustered bootstrap CI: determinism, degenerate cases, clustering, and coverage."""

import math

import numpy as np
import pytest

from engine.stats.bootstrap import cluster_sums, clustered_mean_ci


def clustered_sample(rng, n_clusters=30, mean=5.0):
    values, labels = [], []
    for c in range(n_clusters):
        effect = rng.normal(0, 1.0)
        size = rng.integers(2, 7)
        values.extend(mean + effect + rng.normal(0, 0.5, size))
        labels.extend([f"q{c}"] * size)
    return np.array(values), np.array(labels)


def test_mean_interval_and_n():
    values, labels = clustered_sample(np.random.default_rng(1))
    ci = clustered_mean_ci(values, labels, seed=7)
    assert ci.mean == pytest.approx(values.mean())
    assert ci.low < ci.mean < ci.high
    assert ci.n == len(values) and ci.n_clusters == 30 and ci.level == 0.95
    assert clustered_mean_ci(values, labels, seed=7) == ci  # seeded: reproducible
    assert clustered_mean_ci(values, labels, seed=8) != ci


def test_cluster_sums():
    sums, counts = cluster_sums([1, 2, 3, 4], ["b", "a", "b", "c"])
    assert sums.tolist() == [2.0, 4.0, 4.0] and counts.tolist() == [1.0, 2.0, 1.0]


def test_matches_a_hand_written_cluster_bootstrap():
    values, labels = clustered_sample(np.random.default_rng(2))
    ci = clustered_mean_ci(values, labels, resamples=20000, seed=3)
    rng = np.random.default_rng(99)
    names = np.unique(labels)
    groups = [values[labels == n] for n in names]
    means = []
    for _ in range(20000):
        pick = rng.integers(0, len(groups), len(groups))
        means.append(np.concatenate([groups[i] for i in pick]).mean())
    low, high = np.percentile(means, [2.5, 97.5])
    assert ci.low == pytest.approx(low, abs=0.04) and ci.high == pytest.approx(high, abs=0.04)


def test_clustering_widens_the_interval_when_items_are_correlated():
    values, labels = clustered_sample(np.random.default_rng(3))
    clustered = clustered_mean_ci(values, labels, seed=0)
    naive = clustered_mean_ci(values, np.arange(len(values)), seed=0)
    assert (clustered.high - clustered.low) > 1.5 * (naive.high - naive.low)


def test_coverage_on_a_known_distribution():
    """The 95% interval covers the true mean in about 95% of seeded simulated studies."""
    rng = np.random.default_rng(2024)
    trials, covered = 300, 0
    for i in range(trials):
        values, labels = clustered_sample(rng, mean=5.0)
        ci = clustered_mean_ci(values, labels, resamples=999, seed=i)
        covered += ci.low <= 5.0 <= ci.high
    assert 0.88 <= covered / trials <= 0.99


def test_degenerate_inputs():
    empty = clustered_mean_ci([], [])
    assert empty.n == 0 and math.isnan(empty.mean)
    one = clustered_mean_ci([3.0, 5.0], ["q1", "q1"])
    assert one.mean == 4.0 and math.isnan(one.low) and one.n_clusters == 1
    assert one.as_dict()["low"] is None
    flat = clustered_mean_ci([7.0] * 6, ["a", "a", "b", "b", "c", "c"])
    assert (flat.low, flat.mean, flat.high) == (7.0, 7.0, 7.0)


def test_interval_from_cluster_sums_equals_scipy_bootstrap():
    """The cached resample-count matrix reproduces scipy.stats.bootstrap's percentile
    interval (the same draws), and the sums form equals the item form."""
    from scipy import stats

    from engine.stats.bootstrap import mean_ci_from_cluster_sums, resample_counts

    rng = np.random.default_rng(11)
    labels = rng.integers(0, 300, 5000)
    values = rng.choice([0.0, 2.5, 4.0, 6.5, 8.0, 10.0], 5000) + (labels % 7) * 0.3
    sums, counts = cluster_sums(values, labels)
    for resamples, seed, level in ((500, 0, 0.95), (2000, 3, 0.9)):
        res = stats.bootstrap(
            (sums, counts),
            lambda s, c, axis=-1: np.sum(s, axis=axis) / np.sum(c, axis=axis),
            paired=True,
            vectorized=True,
            n_resamples=resamples,
            confidence_level=level,
            method="percentile",
            rng=np.random.default_rng(seed),
        )
        ci = mean_ci_from_cluster_sums(sums, counts, resamples=resamples, seed=seed, level=level)
        assert ci.low == pytest.approx(res.confidence_interval.low, rel=1e-10)
        assert ci.high == pytest.approx(res.confidence_interval.high, rel=1e-10)
        assert ci.n == 5000 and ci.n_clusters == len(sums)
        item = clustered_mean_ci(values, labels, resamples=resamples, seed=seed, level=level)
        assert (item.low, item.high) == (ci.low, ci.high)
        assert item.mean == pytest.approx(ci.mean, rel=1e-12)
    assert resample_counts(len(sums), 500, 0) is resample_counts(len(sums), 500, 0)  # cached
    assert resample_counts(len(sums), 500, 0).sum(axis=1).tolist() == [len(sums)] * 500


def test_groups_at_once_equal_one_at_a_time():
    from engine.stats.bootstrap import mean_ci_from_cluster_sums, mean_cis_from_cluster_sums

    rng = np.random.default_rng(5)
    groups = [(rng.random(40) * 30, rng.integers(1, 5, 40).astype(float)) for _ in range(3)]
    groups.append((rng.random(25) * 30, rng.integers(1, 5, 25).astype(float)))  # other K
    groups.append((np.array([3.0, 6.0]), np.array([1.0, 2.0])))  # no spread: the mean
    together = mean_cis_from_cluster_sums(groups, resamples=300, seed=2)
    for (sums, counts), ci in zip(groups, together):
        alone = mean_ci_from_cluster_sums(sums, counts, resamples=300, seed=2)
        assert (ci.n, ci.n_clusters) == (alone.n, alone.n_clusters)
        assert (ci.mean, ci.low, ci.high) == pytest.approx((alone.mean, alone.low, alone.high))
    assert together[-1].low == together[-1].high == together[-1].mean == 3.0
