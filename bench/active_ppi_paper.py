"""``bench/active_ppi.py --scale paper``: labels saved by active draws at a real study's size.

4,000 questions x 9 dialects x 3 models (108,000 judged answers, 27 cells). In each cell
the judge scores an answer ``f = q + N(0, 0.2)`` (``q`` its quality, 1-5) and is uncertain
``u ~ lognormal(-1, 0.8)``; two human noise models:

- ``tracks``: the person scores ``f + 0.3 + N(0, (0.1 + 0.9·u)²)``, the judge's error grows
  with its uncertainty (what active draws are built for);
- ``blind``: the same offset and the same overall error size, independent of ``u``.

Per cell, the labels each design needs for the target width are (1) predicted by
engine.annotation.ppi_power from a uniform pilot of ``--pilot`` labels and (2) measured: the
formula evaluated on the cell's true residuals (the design-based variance), then checked by
``--draws`` seeded draws of each design at that n: the median width reached and the
coverage of the cell's true human mean. ``labels_saved`` = 1 − active/uniform labels,
summed over cells (a cell no n reaches counts all its answers).

Where active draws do not help: under ``blind`` they need about 70 % *more* labels than
uniform draws for the same width (the floor and the unequal inverse-probability weights
add variance that no better-placed label repays), and the pilot's prediction says so
before any draw; they help only as far as the judge's uncertainty tracks the size of its
error. And where the judge-side variance ``λ²·Var(f)/N`` alone nearly fills the target
width (small cells, a narrow target), no draw of either design reaches it
(README, Benchmarks, gives the measured figures).
"""

from __future__ import annotations

import numpy as np

from engine.annotation.ppi import ppi_mean
from engine.annotation.ppi_active import (
    FLOOR_SHARE,
    active_mean,
    inclusion_probabilities,
    poisson_draw,
)
from engine.annotation.ppi_power import _smallest, cell_needs, predicted_se2

QUESTIONS, DIALECTS, MODELS = 4000, 9, 3


def population(rng: np.random.Generator, noise: str, shift: float):
    q = np.clip(rng.normal(3.2 + shift, 0.9, QUESTIONS), 1, 5)
    u = rng.lognormal(-1.0, 0.8, QUESTIONS)
    f = q + rng.normal(0, 0.2, QUESTIONS)
    sd = 0.1 + 0.9 * u
    if noise == "blind":
        sd = np.full(QUESTIONS, float(np.sqrt(np.mean(sd**2))))
    return f, u, f + 0.3 + rng.normal(0, sd)


def true_needs(f, u, y, width: float) -> tuple[int | None, int | None]:
    """The labels each design needs on the cell's true residuals (λ = 1, c the offset)."""
    r = y - f - np.mean(y - f)
    big_n = len(f)
    active = np.full(big_n, np.var(r))
    # σ²(u) the cell's true residual variance given u: the mean r² in u's twentieths
    bins = np.quantile(u, np.linspace(0, 1, 21))
    which = np.clip(np.searchsorted(bins, u, side="right") - 1, 0, 19)
    for b in range(20):
        active[which == b] = np.mean(r[which == b] ** 2)

    def uniform(n):
        return np.var(f) / big_n + np.var(r) / n

    def act(n):
        return predicted_se2(f, u, 1.0, active, n, active=True)

    return _smallest(uniform, width, 0.05, big_n), _smallest(act, width, 0.05, big_n)


def check(f, u, y, n: int, active: bool, draws: int, rng) -> tuple[float, int]:
    """Median width and number of draws covering the true mean, at ``n`` labels."""
    truth, big_n = float(y.mean()), len(y)
    pi = inclusion_probabilities(u, n, FLOOR_SHARE * n / big_n)
    widths, covered = [], 0
    for _ in range(draws):
        if active:
            e = active_mean(y, f, pi, poisson_draw(pi, rng))
        else:
            mask = np.zeros(big_n, dtype=bool)
            mask[rng.choice(big_n, n, replace=False)] = True
            e = ppi_mean(y[mask], f[mask], f[~mask])
        widths.append(e.high - e.low)
        covered += e.low <= truth <= e.high
    return float(np.median(widths)), covered


def paper(width: float, draws: int, pilot: int, seed: int = 0) -> dict:
    out: dict = {
        "scale": "paper",
        "cells": DIALECTS * MODELS,
        "answers": QUESTIONS * DIALECTS * MODELS,
        "width": width,
        "draws_per_cell": draws,
        "pilot_per_cell": pilot,
    }
    rng = np.random.default_rng(seed)
    for noise in ("tracks", "blind"):
        need = {"uniform": 0, "active": 0, "predicted_uniform": 0, "predicted_active": 0}
        reached = {"uniform": [], "active": []}
        covered = {"uniform": 0, "active": 0}
        worst = {"uniform": 1.0, "active": 1.0}
        for cell in range(DIALECTS * MODELS):
            f, u, y = population(rng, noise, shift=0.1 * (cell % DIALECTS))
            p = rng.choice(QUESTIONS, pilot, replace=False)
            pu, pa = cell_needs(f, u, y[p], f[p], u[p], width)
            need["predicted_uniform"] += pu or QUESTIONS
            need["predicted_active"] += pa or QUESTIONS
            for design, n in zip(("uniform", "active"), true_needs(f, u, y, width), strict=True):
                n = n or QUESTIONS
                need[design] += n
                w, c = check(f, u, y, n, design == "active", draws, rng)
                reached[design].append(w)
                covered[design] += c
                worst[design] = min(worst[design], c / draws)
        total = DIALECTS * MODELS * draws
        out[noise] = {
            "labels_uniform": need["uniform"],
            "labels_active": need["active"],
            "labels_saved": round(1 - need["active"] / need["uniform"], 4),
            "predicted_labels_uniform": need["predicted_uniform"],
            "predicted_labels_active": need["predicted_active"],
            "predicted_labels_saved": round(
                1 - need["predicted_active"] / need["predicted_uniform"], 4
            ),
            "median_width_uniform": round(float(np.median(reached["uniform"])), 4),
            "median_width_active": round(float(np.median(reached["active"])), 4),
            "coverage_uniform": round(covered["uniform"] / total, 4),
            "coverage_active": round(covered["active"] / total, 4),
            "worst_cell_coverage_uniform": round(worst["uniform"], 4),
            "worst_cell_coverage_active": round(worst["active"], 4),
        }
    return out
