"""How many human labels a cell needs: a power analysis before a PPI draw.

For each model x dialect cell of a judge run (``N`` judged answers, judge score ``f_i``,
the judge's uncertainty ``u_i``, engine.annotation.ppi_active) and a pilot of human labels
``Y`` in that cell (the judge run's latest PPI batch with labels), the predicted standard
error of the mean after ``n`` labels is, with λ the pilot's PPI++ power-tuning and the
residual ``r = Y − λ·f − c`` (``c`` its pilot mean):

    uniform (PPI++):   se²(n) = λ²·Var(f)/N + Var(r)/n
    active:            se²(n) = λ²·Var(f)/N + mean_i(σ²(u_i)/π_i(n))/N

where ``π_i(n)`` are the active draw's inclusion probabilities for an expected ``n``
labels (∝ u_i, floored at a quarter of n/N, as :func:`engine.annotation.ppi.draw_subset`
draws), and ``σ²(u) = a + b·u`` (a, b ≥ 0) is the squared residual predicted from the
judge's uncertainty: a non-negative least-squares line through the pilot's ``(u_i, r_i²)``.
The active formula is the variance of the inverse-probability terms of
:func:`engine.annotation.ppi_active.active_mean` (each term ``λf_i + c + ξ_i r_i/π_i``);
with every ``π_i = n/N`` it is the uniform one. The labels needed are the smallest ``n``
with ``2·z·se(n) ≤ width``; none when even labelling every answer does not reach it (the
judge side ``λ²·Var(f)/N`` alone, or the residual, is too wide). Both designs use the same
pilot, so their ratio says what active draws save; where the pilot's residuals do not grow
with the uncertainty (``b = 0``) active draws are predicted to need *more* labels than
uniform ones (the floor and the unequal weights cost variance and buy nothing).

A cell needs a pilot of at least :data:`PILOT_MIN` human labels: the variance and the
line's two coefficients are read from it. An active pilot's labels are weighed by their
inverse probability, so its variance is the cell's, not the drawn answers'.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, TypedDict

from engine.annotation.ppi import _CELLS, human_labels
from engine.annotation.ppi_active import FLOOR_SHARE, inclusion_probabilities, judge_uncertainty
from engine.annotation.ppi_means import SMALL_N, _z, ppi_lambda
from engine.annotation.settings import PPI, PPISettings
from engine.errors import UserError
from engine.workspace.store import Workspace

if TYPE_CHECKING:  # numpy loads when a statistic is computed, not with the front door
    import numpy as np

# the fewest pilot labels a cell's prediction is read from. The prediction scales with the
# pilot's residual variance, whose relative standard error is about √(2/(n − 1)) for
# normal errors (a quarter at 30, more for heavy tails), and 30 is where the PPI interval's
# normal approximation starts to read well (SMALL_N): a smaller pilot sizes nothing usefully
PILOT_MIN = SMALL_N


class CellNeed(TypedDict):
    """One model x dialect: its answers, pilot labels, and the labels each design needs
    for the target width (None with ``state`` "pilot" or "unreachable" and ``note``)."""

    model: str
    dialect: str
    N: int
    pilot: int
    uniform: int | None
    active: int | None
    state: str | None
    note: str | None


class LabelsNeeded(TypedDict):
    """:func:`labels_needed`: the judge run, the pilot batch (None: none yet), the target
    width and level, the fewest pilot labels a cell needs, and each cell."""

    judge_run: int
    pilot_batch: int | None
    width: float
    alpha: float
    pilot_min: int
    cells: list[CellNeed]


def _weighted_var(x: np.ndarray, w: np.ndarray) -> float:
    import numpy as np

    m = float(np.average(x, weights=w))
    return float(np.average((x - m) ** 2, weights=w))


def residual_line(u, size, weights=None) -> tuple[float, float]:
    """(a, b) ≥ 0 of a + b·u through the pilot's residual sizes |r| (weighted non-negative
    least squares: an error's size below 0, or shrinking as the judge is less sure, is
    read as no relation)."""
    import numpy as np
    from scipy.optimize import nnls

    u = np.asarray(u, dtype=float)
    w = np.ones(len(u)) if weights is None else np.sqrt(np.asarray(weights, dtype=float))
    coef, _ = nnls(np.column_stack([np.ones(len(u)), u]) * w[:, None], np.asarray(size) * w)
    return float(coef[0]), float(coef[1])


def predicted_se2(
    judge, uncertainty, lam: float, sigma2, n: float, *, active: bool, floor_share=FLOOR_SHARE
) -> float:
    """The predicted squared standard error after ``n`` labels (module docstring):
    ``sigma2`` each answer's predicted squared residual."""
    import numpy as np

    f, s2 = np.asarray(judge, dtype=float), np.asarray(sigma2, dtype=float)
    big_n = len(f)
    side = lam**2 * float(np.var(f)) / big_n
    if active:
        pi = inclusion_probabilities(uncertainty, n, floor_share * n / big_n)
    else:
        pi = np.full(big_n, min(n / big_n, 1.0))
    return side + float(np.mean(s2 / pi)) / big_n


def _smallest(se2, width: float, alpha: float, big_n: int) -> int | None:
    """The smallest n in [2, N] with 2·z·√se2(n) ≤ width (se2 falls with n), else None."""
    half2 = (width / (2 * _z(alpha))) ** 2
    if se2(big_n) > half2:
        return None
    low, high = 2, big_n
    if se2(low) <= half2:
        return low
    while high - low > 1:  # bisection: se2(low) too wide, se2(high) narrow enough
        mid = (low + high) // 2
        low, high = (mid, high) if se2(mid) > half2 else (low, mid)
    return high


def cell_needs(
    judge,
    uncertainty,
    pilot_y,
    pilot_judge,
    pilot_uncertainty,
    width: float,
    *,
    alpha: float = PPI.alpha,
    pilot_weights=None,
) -> tuple[int | None, int | None]:
    """(uniform, active) labels for an interval ``width`` wide in a cell of judge scores
    ``judge`` and uncertainties ``uncertainty`` (all N answers), from a pilot's human
    scores and their answers' judge scores and uncertainties; None: not reachable."""
    import numpy as np

    f = np.asarray(judge, dtype=float)
    u = np.asarray(uncertainty, dtype=float)
    u = np.where(np.isfinite(u), u, np.nanmedian(u) if np.isfinite(u).any() else 1.0)
    y, fy = np.asarray(pilot_y, dtype=float), np.asarray(pilot_judge, dtype=float)
    uy = np.asarray(pilot_uncertainty, dtype=float)
    uy = np.where(np.isfinite(uy), uy, np.median(u))
    w = np.ones(len(y)) if pilot_weights is None else np.asarray(pilot_weights, dtype=float)
    lam = ppi_lambda(y, fy, f)
    r = y - lam * fy
    r = r - np.average(r, weights=w)
    variance = _weighted_var(r, w) * len(y) / max(len(y) - 1, 1)  # a sample variance
    a, b = residual_line(uy, np.abs(r), w)
    sigma2 = (a + b * u) ** 2
    sigma2 = sigma2 * variance / max(float(np.mean(sigma2)), 1e-12)  # the pilot's level
    big_n = len(f)

    def uniform(n: int) -> float:
        return lam**2 * float(np.var(f)) / big_n + variance / min(n, big_n)

    def active(n: int) -> float:
        return predicted_se2(f, u, lam, sigma2, n, active=True)

    return _smallest(uniform, width, alpha, big_n), _smallest(active, width, alpha, big_n)


def labels_needed(
    ws: Workspace, judge_run: int, settings: PPISettings = PPI, pilot_batch: int | None = None
) -> LabelsNeeded:
    """Per model x dialect of ``judge_run``: the human labels a uniform and an active draw
    need for ``settings.width``, from ``pilot_batch`` (default: the run's latest PPI
    batch). A cell with fewer than :data:`PILOT_MIN` pilot labels says it needs a pilot."""
    rows_of_run = ws.query(_CELLS, (judge_run,))
    if not rows_of_run:
        raise UserError(f"judge run {judge_run} has no scored answers")
    if pilot_batch is None:
        pilot_batch = _latest_ppi_batch(ws, judge_run)
    labels: dict[int, float] = human_labels(ws, pilot_batch) if pilot_batch else {}
    probability: dict[int, float] = {}
    if pilot_batch:
        params = json.loads(
            ws.query("SELECT params FROM annotation_batches WHERE id = ?", (pilot_batch,))[0][
                "params"
            ]
        )
        probability = {int(k): v for k, v in params.get("probabilities", {}).items()}
    uncertainty = judge_uncertainty(ws, judge_run)
    cells: dict[tuple, list] = {}
    for row in rows_of_run:
        cells.setdefault((row["model"] or "", row["dialect"]), []).append(row)
    out: list[CellNeed] = []
    for (model, dialect), rows in sorted(cells.items()):
        f = [r["final"] for r in rows]
        u = [uncertainty.get(r["id"], math.nan) for r in rows]
        pilot = [
            (labels[r["id"]], r["final"], uncertainty.get(r["id"], math.nan), r["id"])
            for r in rows
            if r["id"] in labels
        ]
        cell: CellNeed = {
            "model": model,
            "dialect": dialect,
            "N": len(rows),
            "pilot": len(pilot),
            "uniform": None,
            "active": None,
            "state": None,
            "note": None,
        }
        if len(pilot) < PILOT_MIN:
            cell["state"] = "pilot"
            cell["note"] = (
                f"needs a pilot of at least {PILOT_MIN} human labels in this cell "
                f"(it has {len(pilot)}): draw and score those first"
            )
        else:
            weights = [1 / probability[p[3]] if p[3] in probability else 1.0 for p in pilot]
            uniform, active = cell_needs(
                f,
                u,
                [p[0] for p in pilot],
                [p[1] for p in pilot],
                [p[2] for p in pilot],
                settings.width,
                alpha=settings.alpha,
                pilot_weights=weights,
            )
            cell["uniform"], cell["active"] = uniform, active
            if uniform is None or active is None:
                cell["state"] = "unreachable"
                cell["note"] = (
                    "not reachable by "
                    + " or ".join(
                        d for d, n in (("uniform", uniform), ("active", active)) if n is None
                    )
                    + f" draws: even all {len(rows)} answers labelled leave the interval wider"
                )
        out.append(cell)
    return {
        "judge_run": judge_run,
        "pilot_batch": pilot_batch,
        "width": settings.width,
        "alpha": settings.alpha,
        "pilot_min": PILOT_MIN,
        "cells": out,
    }


def _latest_ppi_batch(ws: Workspace, judge_run: int) -> int | None:
    """The run's latest PPI batch with human labels, else its latest (None: none)."""
    batches = [
        int(b["id"])
        for b in ws.query(
            "SELECT id, params FROM annotation_batches WHERE purpose = 'ppi' ORDER BY id DESC"
        )
        if json.loads(b["params"] or "{}").get("judge_run") == judge_run
    ]
    return next((b for b in batches if human_labels(ws, b)), batches[0] if batches else None)
