"""Agreement between two judges scoring the same items (paper 000, §3.4; docs/design.md).

- Pearson r and Spearman ρ (scipy.stats) — precision only;
- Lin's CCC = 2·cov / (σ₁² + σ₂² + (μ₁ − μ₂)²) with population moments (ddof = 0), which
  equals 2ρσ₁σ₂ / (…): agreement on the line y = x, penalising shifts of scale or location;
- MAE;
- CBS (Critical Bias Sensitivity): critical set C = items the *primary* judge scores below
  the danger threshold; recall = share of C the secondary judge also scores below it;
  CBS = recall × (1 − MAE / scale), MAE over all items both judges scored, scale = 10.

Undefined values (constant input, empty critical set) are NaN, never 0; every result
carries its n.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import asdict, dataclass

import numpy as np

from engine.stats import nan_to_none


def _pair(x, y) -> tuple[np.ndarray, np.ndarray]:
    a = np.asarray(x, dtype=float)
    b = np.asarray(y, dtype=float)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"need two 1-D sequences of equal length, got {a.shape} and {b.shape}")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise ValueError("scores must be finite numbers")
    return a, b


def _constant(a: np.ndarray) -> bool:
    return a.size == 0 or bool(np.all(a == a[0]))


def pearson(x, y) -> float:
    a, b = _pair(x, y)
    if a.size < 2 or _constant(a) or _constant(b):
        return math.nan
    # lazy: scipy.stats is slow to import
    from scipy import stats

    return float(stats.pearsonr(a, b).statistic)


def spearman(x, y) -> float:
    a, b = _pair(x, y)
    if a.size < 2 or _constant(a) or _constant(b):
        return math.nan
    # lazy: scipy.stats is slow to import
    from scipy import stats

    return float(stats.spearmanr(a, b).statistic)


def ccc(x, y) -> float:
    """Lin's concordance correlation coefficient (population moments)."""
    a, b = _pair(x, y)
    if a.size < 2:
        return math.nan
    cov = float(np.mean((a - a.mean()) * (b - b.mean())))
    denom = float(a.var() + b.var() + (a.mean() - b.mean()) ** 2)
    return math.nan if denom == 0 else 2 * cov / denom


def mae(x, y) -> float:
    a, b = _pair(x, y)
    return math.nan if a.size == 0 else float(np.mean(np.abs(a - b)))


@dataclass(frozen=True)
class CriticalSensitivity:
    cbs: float
    recall: float
    mae: float
    n: int  # items both judges scored
    n_critical: int  # |C|: primary judge below the threshold
    threshold: float


def cbs(primary, secondary, threshold: float = 4.0, scale: float = 10.0) -> CriticalSensitivity:
    p, s = _pair(primary, secondary)
    critical = p < threshold
    n_critical = int(critical.sum())
    recall = float(np.mean(s[critical] < threshold)) if n_critical else math.nan
    err = mae(p, s)
    value = recall * (1 - err / scale) if n_critical else math.nan
    return CriticalSensitivity(value, recall, err, int(p.size), n_critical, threshold)


@dataclass(frozen=True)
class Agreement:
    n: int
    pearson: float
    spearman: float
    ccc: float
    mae: float
    cbs: float
    recall: float
    n_critical: int
    threshold: float

    def as_dict(self) -> dict:
        return nan_to_none(asdict(self))


def agreement(primary, secondary, threshold: float = 4.0, scale: float = 10.0) -> Agreement:
    """All pairwise figures at once, for one primary/secondary judge pair."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        crit = cbs(primary, secondary, threshold, scale)
        return Agreement(
            crit.n,
            pearson(primary, secondary),
            spearman(primary, secondary),
            ccc(primary, secondary),
            crit.mae,
            crit.cbs,
            crit.recall,
            crit.n_critical,
            threshold,
        )


def agreement_from_counts(
    primary_values, secondary_values, counts, threshold: float = 4.0, scale: float = 10.0
) -> Agreement:
    """:func:`agreement` from the joint table of the two judges' scores: each distinct
    (primary, secondary) score pair once, with how many items got it. Judge scores take few
    distinct values (finals are weighted Likert sums), so the table stays small however many
    items there are, and a live chart updates it with the new items only. Spearman's ρ is
    Pearson's r of mid-ranks (ties averaged, as ``scipy.stats.rankdata``), the ranks read
    off each judge's cumulative value counts. Equal to :func:`agreement` on the expanded
    items up to rounding (a test compares them)."""
    x = np.asarray(primary_values, dtype=float)
    y = np.asarray(secondary_values, dtype=float)
    w = np.asarray(counts, dtype=float)
    if not (x.shape == y.shape == w.shape) or x.ndim != 1:
        raise ValueError("need three 1-D sequences of equal length")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("scores must be finite numbers")
    n = int(w.sum())
    if n == 0:
        nan = math.nan
        return Agreement(0, nan, nan, nan, nan, nan, nan, 0, threshold)
    err = float(np.sum(w * np.abs(x - y)) / n)
    critical = x < threshold
    n_critical = int(w[critical].sum())
    recall = float(w[critical & (y < threshold)].sum() / n_critical) if n_critical else math.nan
    value = recall * (1 - err / scale) if n_critical else math.nan

    def moments(a, b):
        ma, mb = np.sum(w * a) / n, np.sum(w * b) / n
        va, vb = np.sum(w * (a - ma) ** 2) / n, np.sum(w * (b - mb) ** 2) / n
        return ma, mb, va, vb, np.sum(w * (a - ma) * (b - mb)) / n

    def correlation(a, b) -> float:
        if n < 2 or np.all(a == a[0]) or np.all(b == b[0]):
            return math.nan
        _ma, _mb, va, vb, cov = moments(a, b)
        return float(cov / math.sqrt(va * vb))

    def midranks(a):
        values, inverse = np.unique(a, return_inverse=True)
        per_value = np.bincount(inverse, weights=w, minlength=values.size)
        before = np.cumsum(per_value) - per_value
        return (before + (per_value + 1) / 2)[inverse]

    mx, my, vx, vy, cov = moments(x, y)
    denom = float(vx + vy + (mx - my) ** 2)
    concordance = math.nan if n < 2 or denom == 0 else float(2 * cov / denom)
    return Agreement(
        n,
        correlation(x, y),
        correlation(midranks(x), midranks(y)),
        concordance,
        err,
        value,
        recall,
        n_critical,
        threshold,
    )
