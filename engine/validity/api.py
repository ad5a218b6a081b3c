"""The judge-validity stage's front door: the suite as a request (:class:`ValidityRequest`,
run by engine.steps.tasks.run_request_at like every model step), its result, the stored
cards and their shape, and the codes a card shows.

A card holds, per dialect, the family rows (position: flip rate; retest: agreement;
invariance: share of verdicts unmoved; sensitivity: discrimination rate), each with its n,
interval, band and status, then every check's own row, the judge's noise and a sentence.
"""

from __future__ import annotations

from engine.validity.card import (
    FAIL,
    FAMILIES,
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
    ValidityCard,
)
from engine.validity.checks import INVARIANCE_CHECKS, ORDER, ROMANIZED, SENSITIVITY_CHECKS
from engine.validity.figures import CHECK_ORDER
from engine.validity.request import VALIDITY_KIND, ValidityRequest, ValidityResult
from engine.validity.store import latest_cards, validity_cards

__all__ = [
    "CHECK_ORDER",
    "FAIL",
    "FAMILIES",
    "INVARIANCE",
    "INVARIANCE_CHECKS",
    "ORDER",
    "PASS",
    "POSITION",
    "RETEST",
    "ROMANIZED",
    "SENSITIVITY",
    "SENSITIVITY_CHECKS",
    "UNMEASURED",
    "VALIDITY_KIND",
    "Bands",
    "CheckFigure",
    "DialectValidity",
    "Interval",
    "ValidityCard",
    "ValidityRequest",
    "ValidityResult",
    "latest_cards",
    "validity_cards",
]
