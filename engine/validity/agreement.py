"""Agreement between a judge's original and changed verdicts (whole points of the final
score), with intervals from a bootstrap over base questions (the items of one question are
not independent: engine.stats.bootstrap draws questions, seeded).

Weighted κ is quadratic-weighted Cohen's κ, written here on the count matrix because the
bootstrap needs it for every replicate at once (``sklearn.metrics.cohen_kappa_score``, which
a test checks it against, takes a millisecond per call); Krippendorff's α is the
``krippendorff`` library's, ordinal.
"""

from __future__ import annotations

import math
import warnings

import krippendorff
import numpy as np

from engine.stats.bootstrap import resample_counts
from engine.validity.card import Interval


def verdicts(scores) -> np.ndarray:
    """Final scores as whole-point verdicts (halves round up)."""
    return np.floor(np.asarray(scores, dtype=float) + 0.5).astype(int)


def _kappa(weights: np.ndarray, a: np.ndarray, b: np.ndarray, categories: int) -> np.ndarray:
    """Quadratic-weighted κ of each row of item ``weights`` (R × n)."""
    grid = np.arange(categories)
    penalty = (grid[:, None] - grid[None, :]) ** 2.0
    one_a = np.eye(categories)[a]  # n × C
    one_b = np.eye(categories)[b]
    total = weights.sum(axis=1)
    pa = weights @ one_a / total[:, None]
    pb = weights @ one_b / total[:, None]
    observed = weights @ penalty[a, b] / total
    expected = np.einsum("rj,jk,rk->r", pa, penalty, pb)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(expected > 0, 1.0 - observed / expected, np.nan)


def _alpha(a: np.ndarray, b: np.ndarray, categories: int) -> float:
    if len(set(a.tolist()) | set(b.tolist())) < 2:
        return math.nan  # one value only: no disagreement can be expected
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(
            krippendorff.alpha(
                reliability_data=np.vstack([a, b]).astype(float),
                level_of_measurement="ordinal",
                value_domain=list(range(categories)),
            )
        )


def _interval(point: float, replicates: np.ndarray, level: float) -> Interval:
    if math.isnan(point):
        return Interval()
    finite = replicates[np.isfinite(replicates)]
    if finite.size < 2:
        return Interval(point)
    tail = (1 - level) / 2
    low, high = np.quantile(finite, [tail, 1 - tail])
    return Interval(point, float(low), float(high))


def kappa_alpha(
    original,
    changed,
    clusters,
    *,
    scale: float,
    level: float,
    resamples: int,
    seed: int,
) -> tuple[Interval, Interval]:
    """Weighted κ and Krippendorff's α of the two verdicts, each with its interval."""
    a, b = verdicts(original), verdicts(changed)
    if a.size < 2:
        return Interval(), Interval()
    categories = int(math.floor(scale + 0.5)) + 1
    _labels, cluster = np.unique(np.asarray(clusters), return_inverse=True)
    kappa = float(_kappa(np.ones((1, a.size)), a, b, categories)[0])
    alpha = _alpha(a, b, categories)
    if _labels.size < 2:
        return Interval(None if math.isnan(kappa) else kappa), Interval(
            None if math.isnan(alpha) else alpha
        )
    weights = resample_counts(int(_labels.size), resamples, seed)[:, cluster]  # R × n
    kappas = _kappa(weights, a, b, categories)
    alphas = np.array(
        [
            _alpha(np.repeat(a, row.astype(int)), np.repeat(b, row.astype(int)), categories)
            for row in weights
        ]
    )
    return _interval(kappa, kappas, level), _interval(alpha, alphas, level)
