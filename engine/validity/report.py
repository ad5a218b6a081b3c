"""The judge-validity stage's part of the HTML report (declared in its schema.py): the newest
card of each judge run checked, a row per dialect and family with n, interval, band and
status, and each dialect's sentence; none before a suite has finished."""

from __future__ import annotations

from typing import Any

from engine.i18n import _
from engine.validity.card import ValidityCard
from engine.validity.store import latest_cards
from engine.workspace.store import Workspace


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def card_rows(card: ValidityCard) -> list[dict]:
    rows = []
    for d in card.dialects:
        for k, f in enumerate(d.families):
            rows.append(
                {
                    "dialect": d.name,
                    "check": f.family,
                    "n": f.n,
                    "rate": _round(f.rate.value),
                    "low": _round(f.rate.low),
                    "high": _round(f.rate.high),
                    "band": f.band,
                    "status": f.status,
                    "mean_shift": _round(f.mean_shift.value),
                    "exact": _round(f.exact),
                    "kappa": _round(f.kappa.value),
                    "alpha": _round(f.alpha.value),
                    "reading": d.sentence if k == 0 else "",
                }
            )
    return rows


def report_parts(ws: Workspace, _settings: Any) -> list[dict]:
    return [
        {
            "stem": f"judge_validity_run{card.judge_run_id}",
            "title": _(
                "Judge validity: {model} (judge run {run}, {n} items per dialect, seed {seed})"
            ).format(
                model=card.judge_model, run=card.judge_run_id, n=card.per_dialect, seed=card.seed
            ),
            "rows": card_rows(card),
            "n_labels": 2,
            "figure": None,
        }
        for card in latest_cards(ws)
    ]
