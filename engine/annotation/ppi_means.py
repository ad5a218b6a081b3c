"""The estimators of prediction-powered means (engine.annotation.ppi reads the study).

PPI++ (Angelopoulos, Duchi & Zrnic 2023, arXiv:2311.01453) for a mean, its power-tuning λ,
the Student-t interval of a plain mean, and the Student-t interval beside PPI's when a cell
has fewer than :data:`SMALL_N` labels: PPI's normal interval is justified as n grows
(a central limit theorem), and at a few labels it is too narrow (README, "PPI").
"""

from __future__ import annotations

import math
import statistics
from dataclasses import asdict, dataclass, replace

from engine.annotation.settings import PPI
from engine.stats import nan_to_none


def _z(alpha: float) -> float:
    return statistics.NormalDist().inv_cdf(1 - alpha / 2)


@dataclass(frozen=True)
class MeanEstimate:
    estimate: float
    low: float
    high: float
    se: float
    n: int  # human labels
    N: int  # judge-only (unlabeled) answers
    lam: float = math.nan
    method: str = "ppi++ (normal)"
    note: str | None = None  # the interval leaves the score scale

    def as_dict(self) -> dict:
        return nan_to_none(asdict(self))


def ppi_lambda(y, yhat, yhat_unlabeled) -> float:
    """PPI++ power-tuning parameter for a mean (ppi-python's _calc_lam_glm, d = 1, clipped)."""
    import numpy as np

    y, yhat, yu = (np.asarray(v, dtype=float) for v in (y, yhat, yhat_unlabeled))
    n, big_n = len(y), len(yu)
    theta = yu.mean() + (y - yhat).mean()  # the λ = 1 estimate
    g, gh, ghu = y - theta, yhat - theta, yu - theta
    cov = 2 * np.sum((g - g.mean()) * (gh - gh.mean())) / n
    var = np.var(np.concatenate([gh, ghu]), ddof=1)
    if var == 0:
        return 0.0
    return float(np.clip(cov / (2 * (1 + n / big_n) * var), 0, 1))


def ppi_mean(y, yhat, yhat_unlabeled, *, alpha: float = PPI.alpha, lam: float | None = None):
    """Prediction-powered mean with its (1 − alpha) interval."""
    import numpy as np

    y, yhat, yu = (np.asarray(v, dtype=float) for v in (y, yhat, yhat_unlabeled))
    if y.shape != yhat.shape or y.ndim != 1:
        raise ValueError("human and judge scores of the labelled answers must pair up")
    n, big_n = len(y), len(yu)
    if n < 2 or big_n < 2:
        return MeanEstimate(math.nan, math.nan, math.nan, math.nan, n, big_n)
    lam = ppi_lambda(y, yhat, yu) if lam is None else float(lam)
    theta = float((lam * yu).mean() + (y - lam * yhat).mean())
    se = math.sqrt(np.var(lam * yu) / big_n + np.var(y - lam * yhat) / n)
    z = _z(alpha)
    return MeanEstimate(theta, theta - z * se, theta + z * se, se, n, big_n, lam)


def classical_mean(x, *, alpha: float = PPI.alpha, scale=None) -> MeanEstimate:
    """Mean with a Student-t (1 − alpha) interval: sample SD (ddof 1), n − 1 degrees of
    freedom. ``scale`` (min, max): a note when the interval leaves it."""
    import numpy as np
    from scipy.stats import t as student_t

    x = np.asarray(x, dtype=float)
    method = "mean, Student t"
    if len(x) < 2:
        return MeanEstimate(math.nan, math.nan, math.nan, math.nan, len(x), 0, method=method)
    se = float(x.std(ddof=1) / math.sqrt(len(x)))
    half = float(student_t.ppf(1 - alpha / 2, len(x) - 1)) * se
    m = float(x.mean())
    return with_scale_note(MeanEstimate(m, m - half, m + half, se, len(x), 0, method=method), scale)


def with_scale_note(est: MeanEstimate, scale) -> MeanEstimate:
    """``est`` with a note when its interval reaches past ``scale`` = (min, max)."""
    if scale is None or not math.isfinite(est.low):
        return est
    lo, hi = scale
    past = [f"below the scale minimum {lo:g}"] if est.low < lo else []
    past += [f"above the scale maximum {hi:g}"] if est.high > hi else []
    if not past:
        return est

    return replace(
        est,
        note=f"the interval reaches {' and '.join(past)} (n = {est.n}): too few scores "
        "to say more than the scale does",
    )


def labels_for_width(y, yhat, yhat_unlabeled, width: float, *, alpha: float = PPI.alpha) -> float:
    """Human labels the PPI interval needs to be ``width`` wide (same λ and variances);
    inf when the judge-side variance alone is wider."""
    import numpy as np

    y, yhat, yu = (np.asarray(v, dtype=float) for v in (y, yhat, yhat_unlabeled))
    if len(y) < 2:
        return math.nan
    lam = ppi_lambda(y, yhat, yu)
    half = width / (2 * _z(alpha))
    room = half**2 - np.var(lam * yu) / len(yu)
    if room <= 0:
        return math.inf
    return float(math.ceil(np.var(y - lam * yhat) / room))


# Below this many human labels in a cell the Student-t interval stands beside PPI's: at
# 30 degrees of freedom t's 97.5 % point is 2.04 against the normal's 1.96, and below it
# the two part quickly (2.26 at 9, 2.57 at 5).
SMALL_N = 30
SMALL_N_NOTE = (
    "fewer than {small} human labels ({n}): the PPI interval rests on a normal "
    "approximation that needs more; read the Student-t interval beside it (n − 1 = {df} "
    "degrees of freedom, sample variances)"
)


def ppi_t_interval(
    y, yhat, yhat_unlabeled, *, lam: float, alpha: float = PPI.alpha
) -> MeanEstimate:
    """The PPI estimate at ``lam`` with a Student-t interval: sample variances (ddof 1) and
    n − 1 degrees of freedom. At λ = 0 it is the t interval of the human labels alone."""
    import numpy as np
    from scipy.stats import t as student_t

    y, yhat, yu = (np.asarray(v, dtype=float) for v in (y, yhat, yhat_unlabeled))
    n, big_n = len(y), len(yu)
    method = "ppi++ (Student t)"
    if n < 2 or big_n < 2 or not math.isfinite(lam):
        return MeanEstimate(math.nan, math.nan, math.nan, math.nan, n, big_n, method=method)
    theta = float((lam * yu).mean() + (y - lam * yhat).mean())
    se = math.sqrt(np.var(lam * yu, ddof=1) / big_n + np.var(y - lam * yhat, ddof=1) / n)
    half = float(student_t.ppf(1 - alpha / 2, n - 1)) * se
    note = SMALL_N_NOTE.format(small=SMALL_N, n=n, df=n - 1)
    return MeanEstimate(theta, theta - half, theta + half, se, n, big_n, lam, method, note)
