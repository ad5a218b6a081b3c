"""Active draws for PPI: label where the judge is least sure, weigh by inverse probability.

Each answer ``i`` of a cell is labelled with probability ``π_i`` (a Poisson draw, seeded),
proportional to the judge's own uncertainty ``u_i`` — the spread between judges that
scored the same answer, else its stated confidence — and never below a floor. Proportional
to the expected size of the judge's error is Neyman's allocation: it minimises the variance
at a fixed expected number of labels when ``u`` tracks that size. The estimate of active
statistical inference (Zrnic & Candès 2024, arXiv:2403.03208) is

    θ = mean_i [ λ·Yhat_i + ξ_i·(Y_i − λ·Yhat_i)/π_i ]   over all N answers (ξ_i: labelled),

unbiased for any fixed λ because E[ξ_i/π_i] = 1; its standard error is the sample SD of
the N terms over √N. The prediction is λ·Yhat + c: the constant c (zero in expectation in
the estimate) takes out the judge's mean offset, which a Poisson draw would otherwise count
as variance; λ (clipped to [0, 1]) and c are tuned to the smallest estimated variance, as
PPI++ tunes λ. The floor keeps every answer drawable, so a judge sure and wrong still meets a
person; ``bench/active_ppi.py`` measures what the design gains at equal budgets.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from engine.annotation.ppi_means import MeanEstimate, _z
from engine.annotation.settings import PPI
from engine.workspace.store import Workspace

if TYPE_CHECKING:  # numpy loads when a statistic is computed, not with the front door
    import numpy as np

# no answer below this share of the uniform probability: at a tenth of it, a judge whose
# uncertainty says nothing of its error cost coverage (87 % for a 95 % interval) on
# bench/active_ppi.py's demo study; at a quarter, 91 %
FLOOR_SHARE = 0.25


def inclusion_probabilities(uncertainty, budget: float, floor: float):
    """π_i ∝ uncertainty, clipped to [floor, 1], summing to ``budget`` (expected labels).
    An answer of no stated uncertainty (NaN) takes the median one."""
    import numpy as np

    u = np.asarray(uncertainty, dtype=float)
    n = len(u)
    if n == 0:
        return u
    if not 0 <= floor <= 1:
        raise ValueError(f"floor {floor} must lie in [0, 1]")
    budget = min(float(budget), n)
    known = u[np.isfinite(u)]
    u = np.where(np.isfinite(u), u, np.median(known) if len(known) else 1.0)
    u = np.maximum(u, 0.0)
    if floor * n >= budget or not u.any():
        return np.full(n, budget / n)

    def total(c: float) -> float:
        return float(np.clip(c * u, floor, 1.0).sum())

    low, high = 0.0, 1.0
    while total(high) < budget:
        high *= 2
        if high > 1e12:
            break
    for _ in range(100):  # bisection: total is monotone in c
        mid = (low + high) / 2
        low, high = (mid, high) if total(mid) < budget else (low, mid)
    return np.clip(high * u, floor, 1.0)


def poisson_draw(pi, rng: np.random.Generator, minimum: int = 2):
    """Labelled mask: each answer independently with its probability; drawn again (rarely)
    until at least ``minimum`` are labelled, or all when there are no more."""
    import numpy as np

    pi = np.asarray(pi, dtype=float)
    for _ in range(1000):
        mask = rng.random(len(pi)) < pi
        if mask.sum() >= min(minimum, len(pi)):
            return mask
    return np.ones(len(pi), dtype=bool)


def active_coefficients(y, yhat, pi, labelled) -> tuple[float, float]:
    """(λ, c) of the smallest sample variance of the terms, λ clipped to [0, 1]."""
    import numpy as np

    a, b, d = _parts(y, yhat, pi, labelled)
    # terms = λ·a + c·d + b: least squares of −b on (a, d), both centred
    x = np.column_stack([a - a.mean(), d - d.mean()])
    target = -(b - b.mean())
    coef, *_ = np.linalg.lstsq(x, target, rcond=None)
    lam = float(np.clip(coef[0], 0, 1))
    dd = float(np.var(d))
    rest = -(b + lam * a)
    c = float(np.mean((d - d.mean()) * (rest - rest.mean())) / dd) if dd > 0 else 0.0
    return lam, c


def _parts(y, yhat, pi, labelled):
    """terms = λ·a + c·d + b for the prediction λ·Yhat + c of each answer."""
    import numpy as np

    yhat, pi = np.asarray(yhat, dtype=float), np.asarray(pi, dtype=float)
    labelled = np.asarray(labelled, dtype=bool)
    y = np.where(labelled, np.nan_to_num(np.asarray(y, dtype=float)), 0.0)
    weight = np.where(labelled, 1.0 / pi, 0.0)
    return yhat - weight * yhat, weight * y, 1.0 - weight


def active_mean(
    y, yhat, pi, labelled, *, alpha: float = PPI.alpha, lam: float | None = None
) -> MeanEstimate:
    """The inverse-probability-weighted PPI mean of one cell: ``yhat`` the judge's score of
    each of its N answers, ``pi`` each one's probability of being labelled, ``labelled``
    the draw, ``y`` the human scores (read where labelled)."""
    import numpy as np

    labelled = np.asarray(labelled, dtype=bool)
    n, big_n = int(labelled.sum()), len(labelled)
    method = "active ppi++ (inverse probability, normal)"
    if n < 2 or big_n < 2:
        return MeanEstimate(math.nan, math.nan, math.nan, math.nan, n, big_n, method=method)
    lam, c = active_coefficients(y, yhat, pi, labelled) if lam is None else (float(lam), 0.0)
    a, b, d = _parts(y, yhat, pi, labelled)
    terms = lam * a + c * d + b
    theta = float(terms.mean())
    se = float(terms.std(ddof=1) / math.sqrt(big_n))
    half = _z(alpha) * se
    return MeanEstimate(theta, theta - half, theta + half, se, n, big_n - n, lam, method=method)


def judge_uncertainty(ws: Workspace, judge_run: int) -> dict[int, float]:
    """judgment id -> the judge's uncertainty about it: the mean absolute difference from
    the other judge runs' scores of the same answer where there are any; else, when no
    judgment of the run has such a spread, 6 − its stated confidence (1-5). Absent (NaN in
    the draw: the median) for a judgment with neither."""
    rows = ws.query(
        "SELECT j.id, j.confidence, avg(abs(j.final - o.final)) AS spread FROM judgments j "
        "LEFT JOIN judgments o ON o.response_id = j.response_id AND o.run_id != j.run_id "
        "AND o.final IS NOT NULL WHERE j.run_id = ? AND j.final IS NOT NULL GROUP BY j.id",
        (judge_run,),
    )
    if any(r["spread"] is not None for r in rows):
        return {r["id"]: r["spread"] for r in rows if r["spread"] is not None}
    return {r["id"]: 6.0 - r["confidence"] for r in rows if r["confidence"] is not None}
