"""Paired tests per base question with Holm correction across the comparison family.

Each group (a dialect for one model, or a model for one dialect) gives one value per base
question (the mean final score of its items). Every pair of groups is compared on the
questions both have, with the Wilcoxon signed-rank test (``scipy.stats.wilcoxon``,
zero differences dropped — Wilcoxon's method). The family is every comparison in one call;
p-values are adjusted with Holm's step-down method, written out below because scipy offers
only Benjamini–Hochberg/Yekutieli (``false_discovery_control``) and statsmodels is not a
dependency.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Mapping
from dataclasses import asdict, dataclass

import numpy as np

from engine.stats import nan_to_none


def holm(pvalues) -> list[float]:
    """Holm–Bonferroni adjusted p-values (monotone, capped at 1), in input order.

    NaN p-values (comparisons that could not be tested) stay NaN and do not count towards
    the family size.
    """
    p = np.asarray(pvalues, dtype=float)
    adjusted = np.full(p.shape, math.nan)
    valid = np.flatnonzero(~np.isnan(p))
    m = valid.size
    running = 0.0
    for rank, idx in enumerate(valid[np.argsort(p[valid], kind="stable")]):
        running = max(running, min(1.0, (m - rank) * p[idx]))
        adjusted[idx] = running
    return adjusted.tolist()


@dataclass(frozen=True)
class PairedComparison:
    a: str
    b: str
    n: int  # questions both groups answered
    n_nonzero: int  # pairs with a non-zero difference (what Wilcoxon ranks)
    mean_diff: float  # mean of a − b
    median_diff: float
    statistic: float
    p: float
    p_holm: float

    def as_dict(self) -> dict:
        return nan_to_none(asdict(self))


def wilcoxon_pair(a: Mapping, b: Mapping) -> tuple[int, int, float, float, float, float]:
    """(n, n_nonzero, mean diff, median diff, statistic, p) on the shared keys of a and b."""
    keys = sorted(set(a) & set(b), key=str)
    if not keys:
        return 0, 0, math.nan, math.nan, math.nan, math.nan
    diff = np.array([a[k] for k in keys], dtype=float) - np.array([b[k] for k in keys], dtype=float)
    nonzero = int(np.count_nonzero(diff))
    mean_d, median_d = float(diff.mean()), float(np.median(diff))
    if nonzero == 0:  # identical everywhere: no evidence of a difference
        return len(keys), 0, mean_d, median_d, math.nan, 1.0
    # lazy: scipy.stats is slow to import
    from scipy import stats

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = stats.wilcoxon(diff, zero_method="wilcox")
    return len(keys), nonzero, mean_d, median_d, float(res.statistic), float(res.pvalue)


def paired_tests(groups: Mapping[str, Mapping], pairs=None) -> list[PairedComparison]:
    """Compare groups (name → {question id → value}) pairwise; Holm over the family.

    ``pairs`` defaults to every unordered pair of group names in sorted order.
    """
    names = sorted(groups)
    pairs = list(pairs) if pairs is not None else list(itertools.combinations(names, 2))
    raw = [(a, b, *wilcoxon_pair(groups[a], groups[b])) for a, b in pairs]
    adjusted = holm([r[-1] for r in raw])
    return [
        PairedComparison(a, b, n, nz, md, med, stat, p, padj)
        for (a, b, n, nz, md, med, stat, p), padj in zip(raw, adjusted)
    ]
