"""A suite's figures from its decoded probes: per dialect, each check and each family with
its n, bootstrap interval (clustered by base question), band and status, and the score
shift within the judge's noise (the sentence a reader takes away is the card's:
engine.validity.card)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine.judging.rubric import Rubric
from engine.judging.verdict import VerdictError, parse_verdict
from engine.stats.bootstrap import clustered_mean_ci
from engine.validity import checks
from engine.validity.agreement import kappa_alpha, verdicts
from engine.validity.card import (
    FAIL,
    INVARIANCE,
    PASS,
    POSITION,
    RETEST,
    SENSITIVITY,
    UNMEASURED,
    Bands,
    CheckFigure,
    DialectValidity,
    Interval,
)
from engine.validity.probes import Probes
from engine.validity.sample import Item

CHECK_ORDER = (
    checks.ORDER,
    checks.RETEST,
    *checks.INVARIANCE_CHECKS,
    checks.ROMANIZED,
    *checks.SENSITIVITY_CHECKS,
)
NOISE_QUANTILE = 0.95


@dataclass(frozen=True)
class Compared:
    """One item under one check: its stored final score and the changed prompt's (None: the
    reply was no verdict)."""

    check: str
    item: Item
    changed: float | None


@dataclass(frozen=True)
class Settings:
    bands: Bands
    scale: float
    level: float
    resamples: int
    seed: int


def compare(probes: Probes, replies: dict[str, str], rubric: Rubric) -> list[Compared]:
    out = []
    for key, (check, item) in probes.asked.items():
        try:
            score: float | None = rubric.final_score(parse_verdict(replies[key], rubric).scores)
        except (KeyError, VerdictError, ValueError):
            score = None
        out.append(Compared(check, item, score))
    return out


def _ci(values, clusters, s: Settings) -> Interval:
    ci = clustered_mean_ci(values, clusters, level=s.level, resamples=s.resamples, seed=s.seed)
    return Interval(*(None if math.isnan(x) else x for x in (ci.mean, ci.low, ci.high)))


def figure(
    check: str, family: str, rows: list[Compared], same_prompt: int, s: Settings
) -> CheckFigure:
    valid = [r for r in rows if r.changed is not None]
    invalid = len(rows) - len(valid)
    if family == SENSITIVITY:  # a score of 0 cannot drop
        valid = [r for r in valid if r.item.original > 0]
    original = np.array([r.item.original for r in valid], dtype=float)
    changed = np.array([r.changed for r in valid], dtype=float)
    clusters = [r.item.question_id for r in valid]
    same = verdicts(original) == verdicts(changed)
    hits: np.ndarray = {
        POSITION: ~same,
        RETEST: same,
        INVARIANCE: same,
        SENSITIVITY: changed < original,
    }[family]
    kappa = alpha = Interval()
    if family != SENSITIVITY:
        kappa, alpha = kappa_alpha(
            original,
            changed,
            clusters,
            scale=s.scale,
            level=s.level,
            resamples=s.resamples,
            seed=s.seed,
        )
    return CheckFigure(
        check=check,
        family=family,
        n=len(valid),
        rate=_ci(hits.astype(float), clusters, s),
        mean_shift=_ci(changed - original, clusters, s),
        exact=float(same.mean()) if valid else None,
        kappa=kappa,
        alpha=alpha,
        same_prompt=same_prompt,
        invalid=invalid,
    )


def _judged(fig: CheckFigure, bands: Bands) -> CheckFigure:
    band, upper = bands.bound(fig.family)
    if fig.rate.value is None:
        status = UNMEASURED
    else:
        within = fig.rate.value <= band if upper else fig.rate.value >= band
        status = PASS if within else FAIL
    return CheckFigure(**{**fig.__dict__, "band": band, "status": status})


def dialect_figures(
    dialect: str,
    names: tuple[str, str],
    rows: list[Compared],
    items: int,
    probes: Probes,
    s: Settings,
) -> DialectValidity:
    by_check: dict[str, list[Compared]] = {}
    for row in rows:
        by_check.setdefault(row.check, []).append(row)
    present = [c for c in CHECK_ORDER if c in by_check or probes.same_prompt.get((dialect, c), 0)]
    rows_of = {c: by_check.get(c, []) for c in present}
    per_check = tuple(
        figure(c, checks.family_of(c), rows_of[c], probes.same_prompt.get((dialect, c), 0), s)
        for c in present
    )
    pooled: dict[str, tuple[str, ...]] = {
        POSITION: (checks.ORDER,),
        RETEST: (checks.RETEST,),
        INVARIANCE: checks.INVARIANCE_CHECKS,
        SENSITIVITY: checks.SENSITIVITY_CHECKS,
    }
    families = tuple(
        _judged(
            figure(
                family,
                family,
                [r for c in members for r in rows_of.get(c, [])],
                sum(probes.same_prompt.get((dialect, c), 0) for c in members),
                s,
            ),
            s.bands,
        )
        for family, members in pooled.items()
    )
    shifts = [
        abs(r.changed - r.item.original)
        for c in (checks.ORDER, checks.RETEST)
        for r in rows_of.get(c, [])
        if r.changed is not None
    ]
    noise = float(np.quantile(shifts, NOISE_QUANTILE)) if shifts else None
    return DialectValidity(
        dialect=dialect,
        dialect_name=names[0],
        dialect_name_bn=names[1],
        n_items=items,
        families=families,
        checks=per_check,
        noise=noise,
    )


def card_dialects(
    compared: list[Compared],
    items: list[Item],
    probes: Probes,
    s: Settings,
    bengali_names: dict[str, str],
) -> tuple[DialectValidity, ...]:
    names = {
        i.dialect: (str(i.pair["dialect_name"]), bengali_names.get(i.dialect) or "") for i in items
    }
    counts: dict[str, int] = {}
    for item in items:
        counts[item.dialect] = counts.get(item.dialect, 0) + 1
    return tuple(
        dialect_figures(
            d, names[d], [c for c in compared if c.item.dialect == d], counts[d], probes, s
        )
        for d in sorted(names)
    )
