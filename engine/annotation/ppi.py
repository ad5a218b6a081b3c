"""Human labels correct the judge: prediction-powered inference (PPI++) of mean scores.

For each model x dialect, the judge scored every answer (``Yhat`` on N unlabeled answers)
and humans scored a *random* subset drawn by the app with a recorded seed (``Y`` with the
judge's ``Yhat`` on the same n answers). The PPI++ mean (Angelopoulos, Duchi & Zrnic 2023,
arXiv:2311.01453) is

    θ = λ·mean(Yhat_unlabeled) + mean(Y − λ·Yhat),
    se² = Var(λ·Yhat_unlabeled)/N + Var(Y − λ·Yhat)/n,

with the power-tuning λ estimated from the data and clipped to [0, 1] (λ = 1 is plain PPI,
λ = 0 the human-only mean); the interval is θ ± z·se. This is the estimator of the
``ppi-python`` package (``ppi_mean_pointestimate`` / ``ppi_mean_ci``), to which the tests
compare it to 1e-9; it is written out here because that package imports numba, too slow
to import and too heavy for the desktop app. The dialect gap (dialect − standard for one
model) uses se = √(se_d² + se_s²), treating the two cells as independent samples.
The low-confidence review queue is a different, non-random set and is never used here.

The human-only and judge-only means beside it are classical means with a Student-t
interval (sample SD, n − 1 degrees of freedom): at n = 6 the normal approximation with the
population SD was far too narrow. Every interval carries its n and, when it reaches past
the score scale, a ``note`` saying so (it is not clipped: clipping would hide how little
the cell's labels say).
"""

from __future__ import annotations

import json
import logging
import math
import random
import secrets
import statistics
from dataclasses import asdict, dataclass

import numpy as np

from engine.annotation.assignment import assign
from engine.annotation.decisions import effective_decisions
from engine.errors import UserError
from engine.judging.judged_items import counted_items_from
from engine.stats import nan_to_none
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)


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
    y, yhat, yu = (np.asarray(v, dtype=float) for v in (y, yhat, yhat_unlabeled))
    n, big_n = len(y), len(yu)
    theta = yu.mean() + (y - yhat).mean()  # the λ = 1 estimate
    g, gh, ghu = y - theta, yhat - theta, yu - theta
    cov = 2 * np.sum((g - g.mean()) * (gh - gh.mean())) / n
    var = np.var(np.concatenate([gh, ghu]), ddof=1)
    if var == 0:
        return 0.0
    return float(np.clip(cov / (2 * (1 + n / big_n) * var), 0, 1))


def ppi_mean(y, yhat, yhat_unlabeled, *, alpha: float = 0.05, lam: float | None = None):
    """Prediction-powered mean with its (1 − alpha) interval."""
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


def classical_mean(x, *, alpha: float = 0.05, scale=None) -> MeanEstimate:
    """Mean with a Student-t (1 − alpha) interval: sample SD (ddof 1), n − 1 degrees of
    freedom. ``scale`` (min, max): a note when the interval leaves it."""
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
    from dataclasses import replace

    return replace(
        est,
        note=f"the interval reaches {' and '.join(past)} (n = {est.n}): too few scores "
        "to say more than the scale does",
    )


def labels_for_width(y, yhat, yhat_unlabeled, width: float, *, alpha: float = 0.05) -> float:
    """Human labels the PPI interval needs to be ``width`` wide (same λ and variances);
    inf when the judge-side variance alone is wider."""
    y, yhat, yu = (np.asarray(v, dtype=float) for v in (y, yhat, yhat_unlabeled))
    if len(y) < 2:
        return math.nan
    lam = ppi_lambda(y, yhat, yu)
    half = width / (2 * _z(alpha))
    room = half**2 - np.var(lam * yu) / len(yu)
    if room <= 0:
        return math.inf
    return float(math.ceil(np.var(y - lam * yhat) / room))


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


# -- the study ----------------------------------------------------------------------------
# the judge's scores (Yhat) of the counted judgments: a flagged one waits for a person and
# is left out, as in every other figure (engine.judging.judged_items)
_CELLS = (
    "SELECT ji.judgment_id AS id, ji.machine_final AS final, m.name AS model, ji.dialect "
    + counted_items_from("LEFT JOIN models m ON m.id = ji.model_id")
)


def scored_judge_runs(ws: Workspace) -> list[dict]:
    """Judge runs a human-scored subset can be drawn from: id, judge model, scored answers."""
    return ws.query(
        "SELECT j.run_id, m.name AS model, count(*) AS scored FROM judgments j "
        "JOIN runs r ON r.id = j.run_id LEFT JOIN models m ON m.id = r.model_id "
        "WHERE j.final IS NOT NULL GROUP BY j.run_id ORDER BY j.run_id"
    )


def draw_subset(
    ws: Workspace,
    name: str,
    judge_run: int,
    annotators: list[str],
    *,
    share: float = 0.1,
    seed: int | None = None,
) -> dict:
    """Draw ``share`` of each model x dialect cell at random (seeded) for human scoring."""
    if not 0 < share <= 1:
        raise UserError(f"share {share} must lie in (0, 1]")
    rows = ws.query(_CELLS, (judge_run,))
    if not rows:
        raise UserError(f"judge run {judge_run} has no scored answers")

    seed = secrets.randbelow(2**31) if seed is None else int(seed)
    rng = random.Random(seed)
    cells: dict[tuple, list[int]] = {}
    for r in rows:
        cells.setdefault((r["model"] or "", r["dialect"]), []).append(r["id"])
    picked: list[int] = []
    for key in sorted(cells):
        ids = sorted(cells[key])
        picked += rng.sample(ids, max(2, round(share * len(ids))) if len(ids) >= 2 else len(ids))
    result = assign(
        ws,
        name,
        "judgment",
        annotators,
        targets=picked,
        overlap=0.0,
        seed=seed,
        blind_draft=True,
        purpose="ppi",
        params={"judge_run": judge_run, "share": share},
    )
    return {
        "batch_id": result.batch_id,
        "seed": seed,
        "drawn": len(picked),
        "per_annotator": result.per_annotator,
    }


def human_labels(ws: Workspace, batch_id: int) -> dict[int, float]:
    """judgment id -> human score: the adjudicated score, else the annotators' mean."""
    out: dict[int, float] = {}
    for r in ws.query(
        "SELECT i.target_id, a.score FROM annotation_adjudications a JOIN annotation_items i "
        "ON i.id = a.item_id WHERE i.batch_id = ? AND a.score IS NOT NULL ORDER BY a.id",
        (batch_id,),
    ):
        out[r["target_id"]] = r["score"]

    scores: dict[int, list[float]] = {}
    for d in effective_decisions(ws, batch_id=batch_id):
        if d["score"] is not None and not d["stale"] and d["decision"] != "flag":
            scores.setdefault(d["target_id"], []).append(d["score"])
    for tid, values in scores.items():
        out.setdefault(tid, statistics.fmean(values))
    return out


def ppi_study(ws: Workspace, batch_id: int, *, alpha: float = 0.05, width: float = 1.0) -> dict:
    """Per model x dialect: PPI, judge-only and human-only means; per model: dialect gaps."""
    batch = ws.query("SELECT * FROM annotation_batches WHERE id = ?", (batch_id,))
    if not batch or batch[0]["purpose"] != "ppi":
        raise UserError(f"batch {batch_id} is not a random PPI subset (use 'ppi draw')")

    params = json.loads(batch[0]["params"])
    labels = human_labels(ws, batch_id)
    cells: dict[tuple, dict[str, list]] = {}
    for r in ws.query(_CELLS, (params["judge_run"],)):
        c = cells.setdefault((r["model"] or "", r["dialect"]), {"y": [], "yh": [], "yu": []})
        if r["id"] in labels:
            c["y"].append(labels[r["id"]])
            c["yh"].append(r["final"])
        else:
            c["yu"].append(r["final"])
    scale = _scale(batch[0]["score_scale"])
    rows, est = [], {}
    for (model, dialect), c in sorted(cells.items()):
        p = ppi_mean(c["y"], c["yh"], c["yu"], alpha=alpha)
        est[(model, dialect)] = p
        rows.append(
            {
                "model": model,
                "dialect": dialect,
                "ppi": with_scale_note(p, scale).as_dict(),
                "judge_only": classical_mean(c["yh"] + c["yu"], alpha=alpha, scale=scale).as_dict(),
                "human_only": classical_mean(c["y"], alpha=alpha, scale=scale).as_dict(),
                # None: not reachable by more human labels (the judge-side variance is wider)
                "labels_for_width": _finite(
                    labels_for_width(c["y"], c["yh"], c["yu"], width, alpha=alpha)
                ),
            }
        )
    gaps = []
    z = _z(alpha)
    for (model, dialect), p in sorted(est.items()):
        s = est.get((model, "standard"))
        if dialect == "standard" or s is None:
            continue
        gap, se = p.estimate - s.estimate, math.sqrt(p.se**2 + s.se**2)
        gaps.append(
            nan_to_none(
                {
                    "model": model,
                    "dialect": dialect,
                    "gap": gap,
                    "low": gap - z * se,
                    "high": gap + z * se,
                }
            )
        )
    return {
        "batch_id": batch_id,
        "seed": batch[0]["seed"],
        "scale": batch[0]["score_scale"],
        "alpha": alpha,
        "target_width": width,
        "cells": [nan_to_none(r) for r in rows],
        "gaps": gaps,
    }


def _scale(text: str | None):
    from engine.annotation.items import parse_scale

    try:
        return parse_scale(text) if text else None
    except (UserError, ValueError):
        return None
