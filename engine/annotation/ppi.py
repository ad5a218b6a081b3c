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
from dataclasses import replace
from typing import Any, TypedDict

from engine.annotation.assignment import assign
from engine.annotation.decisions import effective_decisions
from engine.annotation.ppi_active import (
    FLOOR_SHARE,
    active_mean,
    inclusion_probabilities,
    judge_uncertainty,
    poisson_draw,
)
from engine.annotation.ppi_means import (
    SMALL_N,
    SMALL_N_NOTE,
    MeanEstimate,
    _z,
    classical_mean,
    labels_for_width,
    ppi_lambda,
    ppi_mean,
    ppi_t_interval,
    with_scale_note,
)
from engine.annotation.settings import PPI, PPISettings
from engine.errors import UserError
from engine.judging.judged_items import counted_items_from
from engine.stats import nan_to_none
from engine.workspace.store import Workspace

__all__ = [
    "MeanEstimate",
    "classical_mean",
    "draw_subset",
    "human_labels",
    "labels_for_width",
    "ppi_lambda",
    "ppi_mean",
    "ppi_study",
    "scored_judge_runs",
    "with_scale_note",
]

log = logging.getLogger(__name__)


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _few_labels_note(p):
    """A cell whose PPI has no number for want of labels says so, beside its n."""
    if p.n >= 2 or p.note:
        return p
    return replace(
        p,
        note=f"undefined: {p.n} human label(s) in this cell; PPI needs at least 2 (and reads "
        f"well from {SMALL_N}, below which a Student-t interval stands beside it)",
    )


def _labels_needed(cell: dict, width: float, alpha: float) -> dict:
    """Human labels for an interval ``width`` wide, or None and why: undefined without the
    two labels a variance needs, not reachable where the judge side alone is wider."""
    need = labels_for_width(cell["y"], cell["yh"], cell["yu"], width, alpha=alpha)
    state = note = None
    if math.isnan(need):
        state, note = (
            "undefined",
            (
                f"undefined: {len(cell['y'])} human label(s) in this cell; at least 2 are needed "
                "to estimate the variance that sizes it"
            ),
        )
    elif math.isinf(need):
        state, note = (
            "unreachable",
            (
                "not reachable: the judge-side variance of the unlabelled answers alone makes "
                "the interval wider than the width, however many labels are added"
            ),
        )
    return {
        "labels_for_width": _finite(need),
        "labels_for_width_state": state,
        "labels_for_width_note": note,
    }


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


class SubsetDraw(TypedDict):
    """:func:`draw_subset`: the new batch, its seed, how many answers were drawn and how
    (``uniform`` or ``active``), and each annotator's load."""

    batch_id: int
    seed: int
    drawn: int
    design: str
    per_annotator: dict[str, int]


class PPICell(TypedDict):
    """One model x dialect of :func:`ppi_study`: the estimates (``MeanEstimate.as_dict``)."""

    model: str
    dialect: str
    ppi: dict[str, Any]
    ppi_t: dict[str, Any] | None
    judge_only: dict[str, Any]
    human_only: dict[str, Any]
    labels_for_width: float | None
    # why labels_for_width is None: "undefined" (too few labels to size it) or
    # "unreachable" (the judge side alone is wider), and the sentence that says so
    labels_for_width_state: str | None
    labels_for_width_note: str | None


class PPIGap(TypedDict):
    """One model's dialect − standard gap of the PPI estimates (None: not computable)."""

    model: str
    dialect: str
    gap: float | None
    low: float | None
    high: float | None


class PPIStudy(TypedDict):
    """:func:`ppi_study` (``upabhasha ppi --json``, the Agreement panel's estimates)."""

    batch_id: int
    seed: int
    design: dict[str, Any]
    scale: str | None
    alpha: float
    target_width: float
    cells: list[PPICell]
    gaps: list[PPIGap]


def draw_subset(
    ws: Workspace,
    name: str,
    judge_run: int,
    annotators: list[str],
    *,
    share: float = 0.1,
    seed: int | None = None,
    active: bool = False,
    floor: float | None = None,
) -> SubsetDraw:
    """Draw ``share`` of each model x dialect cell at random (seeded) for human scoring:
    uniformly, or ``active``: each answer with a probability from the judge's uncertainty
    (at least ``floor``, by default a quarter of ``share``; ``share`` of the cell expected;
    engine.annotation.ppi_active).
    The batch records the design and, when active, every answer's probability."""
    import numpy as np

    if not 0 < share <= 1:
        raise UserError(f"share {share} must lie in (0, 1]")
    floor = FLOOR_SHARE * share if floor is None else floor
    if active and not 0 < floor <= share:
        raise UserError(f"floor {floor} must lie in (0, share {share}]")
    rows = ws.query(_CELLS, (judge_run,))
    if not rows:
        raise UserError(f"judge run {judge_run} has no scored answers")

    seed = secrets.randbelow(2**31) if seed is None else int(seed)
    rng = random.Random(seed)
    cells: dict[tuple, list[int]] = {}
    for r in rows:
        cells.setdefault((r["model"] or "", r["dialect"]), []).append(r["id"])
    picked: list[int] = []
    design: dict = {"design": "uniform"}
    if active:
        uncertainty = judge_uncertainty(ws, judge_run)
        generator = np.random.default_rng(seed)
        probabilities: dict[str, float] = {}
        for key in sorted(cells):
            ids = sorted(cells[key])
            budget = max(2, round(share * len(ids))) if len(ids) >= 2 else len(ids)
            pi = inclusion_probabilities([uncertainty.get(i, math.nan) for i in ids], budget, floor)
            mask = poisson_draw(pi, generator)
            picked += [i for i, m in zip(ids, mask, strict=True) if m]
            probabilities |= {str(i): round(float(p), 6) for i, p in zip(ids, pi, strict=True)}
        design = {"design": "active", "floor": floor, "probabilities": probabilities}
    for key in sorted(cells) if not active else ():
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
        params={"judge_run": judge_run, "share": share} | (design if active else {}),
    )
    return {
        "batch_id": result.batch_id,
        "seed": seed,
        "drawn": len(picked),
        "design": design["design"],
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


def ppi_study(ws: Workspace, batch_id: int, settings: PPISettings = PPI) -> PPIStudy:
    """Per model x dialect: PPI, judge-only and human-only means; per model: dialect gaps;
    ``settings``: the intervals' level and the target width of the labels needed."""
    alpha, width = settings.alpha, settings.width
    batch = ws.query("SELECT * FROM annotation_batches WHERE id = ?", (batch_id,))
    if not batch or batch[0]["purpose"] != "ppi":
        raise UserError(f"batch {batch_id} is not a random PPI subset (use 'ppi draw')")

    params = json.loads(batch[0]["params"])
    design = params.get("design", "uniform")
    probability = {int(k): v for k, v in params.get("probabilities", {}).items()}
    labels = human_labels(ws, batch_id)
    cells: dict[tuple, dict[str, list]] = {}
    for r in ws.query(_CELLS, (params["judge_run"],)):
        c = cells.setdefault(
            (r["model"] or "", r["dialect"]), {"y": [], "yh": [], "yu": [], "drawable": []}
        )
        if r["id"] in probability:  # an answer judged after an active draw was not drawable
            c["drawable"].append((r["final"], probability[r["id"]], labels.get(r["id"])))
        if r["id"] in labels:
            c["y"].append(labels[r["id"]])
            c["yh"].append(r["final"])
        else:
            c["yu"].append(r["final"])
    scale = _scale(batch[0]["score_scale"])
    rows: list[PPICell] = []
    est = {}
    for (model, dialect), c in sorted(cells.items()):
        if design == "active":
            from scipy.stats import t as student_t

            p = _active_cell(c["drawable"], alpha)
            small = replace(p, low=math.nan, high=math.nan)
            if p.n < SMALL_N and math.isfinite(p.se):  # the same weighted se, t's quantile
                half = float(student_t.ppf(1 - alpha / 2, p.n - 1)) * p.se
                note = SMALL_N_NOTE.format(small=SMALL_N, n=p.n, df=p.n - 1)
                small = replace(p, low=p.estimate - half, high=p.estimate + half, note=note)
        else:
            p = ppi_mean(c["y"], c["yh"], c["yu"], alpha=alpha)
            small = ppi_t_interval(c["y"], c["yh"], c["yu"], lam=p.lam, alpha=alpha)
        est[(model, dialect)] = p
        need = _labels_needed(c, width, alpha)
        rows.append(
            {
                "model": model,
                "dialect": dialect,
                "ppi": _few_labels_note(with_scale_note(p, scale)).as_dict(),
                # below SMALL_N labels: the Student-t interval beside the asymptotic one
                "ppi_t": small.as_dict() if p.n < SMALL_N and math.isfinite(small.low) else None,
                "judge_only": classical_mean(c["yh"] + c["yu"], alpha=alpha, scale=scale).as_dict(),
                "human_only": classical_mean(c["y"], alpha=alpha, scale=scale).as_dict(),
                "labels_for_width": need["labels_for_width"],
                "labels_for_width_state": need["labels_for_width_state"],
                "labels_for_width_note": need["labels_for_width_note"],
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
                PPIGap(model=model, dialect=dialect, gap=gap, low=gap - z * se, high=gap + z * se)
            )
        )
    return {
        "batch_id": batch_id,
        "seed": batch[0]["seed"],
        "design": {k: v for k, v in params.items() if k != "probabilities"} | {"design": design},
        "scale": batch[0]["score_scale"],
        "alpha": alpha,
        "target_width": width,
        "cells": [nan_to_none(r) for r in rows],
        "gaps": gaps,
    }


def _active_cell(drawable: list[tuple], alpha: float) -> MeanEstimate:
    """The inverse-probability mean of one cell of an active draw: (judge score,
    probability, human score or None) of each drawable answer; a drawn answer not scored
    yet counts as not drawn (the estimate then assumes it is missing at random)."""
    yhat = [d[0] for d in drawable]
    pi = [d[1] for d in drawable]
    y = [math.nan if d[2] is None else d[2] for d in drawable]
    return active_mean(y, yhat, pi, [d[2] is not None for d in drawable], alpha=alpha)


def _scale(text: str | None):
    from engine.annotation.items import parse_scale

    try:
        return parse_scale(text) if text else None
    except (UserError, ValueError):
        return None
