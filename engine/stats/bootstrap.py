"""Mean with a bootstrap confidence interval clustered by base question.

Answers to one base question (its standard form and every dialect, or several models) are
not independent, so the unit of resampling is the question: each replicate draws questions
with replacement and takes the pooled mean of all their items (a ratio of sums). Runs on
``scipy.stats.bootstrap`` with the per-question sums and counts as paired samples; the
percentile method by default (BCa is available but unstable with very few questions).
Seeded, so the same data give the same interval.

The percentile interval is computed here from the very draws ``scipy.stats.bootstrap``
makes (paired samples, one batch: ``default_rng(seed).integers(0, K, (R, K))``), counted
into an R × K matrix of how often each cluster enters each replicate; the replicates are
then two matrix products, and the matrix — which depends on K, R and the seed, never on
the data — is cached. At ten times the paper's study (4,000 questions per dialect) this
is what keeps the bootstrap cheap per group, so live charts and reports stay fast; a test checks
the intervals against scipy's.
"""

from __future__ import annotations

import collections
import math
import threading
import warnings
from dataclasses import asdict, dataclass

import numpy as np

from engine.stats import nan_to_none

DEFAULT_RESAMPLES = 2000
COUNTS_CACHE_BYTES = 256 * 2**20  # resample-count matrices kept (2000 × 4000 is 64 MB)

_counts_cache: collections.OrderedDict[tuple[int, int, int], np.ndarray] = collections.OrderedDict()
_counts_lock = threading.Lock()


@dataclass(frozen=True)
class MeanCI:
    mean: float
    low: float  # NaN when fewer than two clusters: no interval can be claimed
    high: float
    n: int  # items
    n_clusters: int  # base questions
    level: float

    def as_dict(self) -> dict:
        return nan_to_none(asdict(self))


def cluster_sums(values, clusters) -> tuple[np.ndarray, np.ndarray]:
    """Per-cluster sums and counts (cluster order: sorted labels)."""
    v = np.asarray(values, dtype=float)
    labels = np.asarray(clusters)
    if v.shape != labels.shape or v.ndim != 1:
        raise ValueError("values and clusters must be 1-D and of equal length")
    _, inverse = np.unique(labels, return_inverse=True)
    sums = np.bincount(inverse, weights=v)
    counts = np.bincount(inverse).astype(float)
    return sums, counts


def _ratio(sums, counts, axis=-1):
    return np.sum(sums, axis=axis) / np.sum(counts, axis=axis)


def resample_counts(n_clusters: int, resamples: int, seed: int) -> np.ndarray:
    """R × K: how often each of K clusters is drawn into each of R replicates — the draws of
    ``scipy.stats.bootstrap(..., paired=True, rng=np.random.default_rng(seed))`` in one
    batch. Cached by (K, R, seed); read-only."""
    key = (n_clusters, resamples, seed)
    with _counts_lock:
        cached = _counts_cache.get(key)
        if cached is not None:
            _counts_cache.move_to_end(key)
            return cached
    draws = np.random.default_rng(seed).integers(0, n_clusters, (resamples, n_clusters))
    flat = draws + (np.arange(resamples) * n_clusters)[:, None]
    counts = np.bincount(flat.ravel(), minlength=resamples * n_clusters)
    matrix = counts.reshape(resamples, n_clusters).astype(float)
    matrix.setflags(write=False)
    with _counts_lock:
        _counts_cache[key] = matrix
        while sum(m.nbytes for m in _counts_cache.values()) > COUNTS_CACHE_BYTES:
            if len(_counts_cache) == 1:
                break
            _counts_cache.popitem(last=False)
    return matrix


def mean_ci_from_cluster_sums(
    sums,
    counts,
    *,
    level: float = 0.95,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    method: str = "percentile",
) -> MeanCI:
    """:func:`clustered_mean_ci` from per-cluster sums and item counts (clusters in sorted
    label order, as :func:`cluster_sums` gives them): what a caller that aggregates in SQL
    already has."""
    s = np.asarray(sums, dtype=float)
    c = np.asarray(counts, dtype=float)
    n = int(c.sum())
    if n == 0:
        return MeanCI(math.nan, math.nan, math.nan, 0, 0, level)
    mean = float(s.sum() / c.sum())
    if s.size < 2:
        return MeanCI(mean, math.nan, math.nan, n, int(s.size), level)
    means = s / c
    if np.all(means == means[0]):  # no spread between clusters: every replicate is the mean
        return MeanCI(mean, mean, mean, n, int(s.size), level)
    if method != "percentile":
        return _scipy_ci(s, c, mean, n, level=level, resamples=resamples, seed=seed, method=method)
    return mean_cis_from_cluster_sums([(s, c)], level=level, resamples=resamples, seed=seed)[0]


def mean_cis_from_cluster_sums(
    groups: list[tuple],
    *,
    level: float = 0.95,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> list[MeanCI]:
    """:func:`mean_ci_from_cluster_sums` (percentile) for several groups at once: groups
    with the same number of clusters share one pass over their resample-count matrix (one
    matrix product for all of them — at 4,000 questions the matrix is read from memory once
    instead of twice per group)."""
    out: list[MeanCI | None] = [None] * len(groups)
    by_size: dict[int, list[tuple[int, np.ndarray, np.ndarray]]] = {}
    for i, (sums, counts) in enumerate(groups):
        s = np.asarray(sums, dtype=float)
        c = np.asarray(counts, dtype=float)
        n = int(c.sum())
        if n == 0:
            out[i] = MeanCI(math.nan, math.nan, math.nan, 0, 0, level)
            continue
        mean = float(s.sum() / c.sum())
        means = s / c
        if s.size < 2:
            out[i] = MeanCI(mean, math.nan, math.nan, n, int(s.size), level)
        elif np.all(means == means[0]):  # no spread between clusters: every replicate is it
            out[i] = MeanCI(mean, mean, mean, n, int(s.size), level)
        else:
            by_size.setdefault(int(s.size), []).append((i, s, c))
    alpha = (1 - level) / 2
    for size, members in by_size.items():
        weights = resample_counts(size, resamples, seed)
        columns = np.column_stack([col for _i, s, c in members for col in (s, c)])
        totals = weights @ columns  # R × 2g: each replicate's sums and counts
        for k, (i, s, c) in enumerate(members):
            replicates = totals[:, 2 * k] / totals[:, 2 * k + 1]
            low, high = np.quantile(replicates, [alpha, 1 - alpha])
            out[i] = MeanCI(
                float(s.sum() / c.sum()), float(low), float(high), int(c.sum()), size, level
            )
    return [ci for ci in out if ci is not None]


def _scipy_ci(sums, counts, mean, n, *, level, resamples, seed, method) -> MeanCI:
    # lazy: scipy.stats is slow to import
    from scipy import stats

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = stats.bootstrap(
            (sums, counts),
            _ratio,
            paired=True,
            vectorized=True,
            n_resamples=resamples,
            confidence_level=level,
            method=method,
            rng=np.random.default_rng(seed),
        )
    low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    return MeanCI(mean, low, high, n, int(sums.size), level)


def clustered_mean_ci(
    values,
    clusters,
    *,
    level: float = 0.95,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    method: str = "percentile",
) -> MeanCI:
    v = np.asarray(values, dtype=float)
    if v.size == 0:
        return MeanCI(math.nan, math.nan, math.nan, 0, 0, level)
    sums, counts = cluster_sums(v, clusters)
    mean = float(v.mean())
    if sums.size < 2:
        return MeanCI(mean, math.nan, math.nan, int(v.size), int(sums.size), level)
    if np.all(v == v[0]):  # no spread: every replicate equals the mean
        return MeanCI(mean, mean, mean, int(v.size), int(sums.size), level)
    ci = mean_ci_from_cluster_sums(
        sums, counts, level=level, resamples=resamples, seed=seed, method=method
    )
    return MeanCI(mean, ci.low, ci.high, int(v.size), int(sums.size), level)
