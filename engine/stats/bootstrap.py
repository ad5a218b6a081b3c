"""Mean with a bootstrap confidence interval clustered by base question.

Answers to one base question (its standard form and every dialect, or several models) are
not independent, so the unit of resampling is the question: each replicate draws questions
with replacement and takes the pooled mean of all their items (a ratio of sums). Runs on
``scipy.stats.bootstrap`` with the per-question sums and counts as paired samples; the
percentile method by default (BCa is available but unstable with very few questions).
Seeded, so the same data give the same interval.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import asdict, dataclass

import numpy as np

from engine.stats import nan_to_none

DEFAULT_RESAMPLES = 2000


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
    return MeanCI(mean, low, high, int(v.size), int(sums.size), level)
