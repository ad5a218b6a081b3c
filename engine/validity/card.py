"""The validity card's shape: per dialect, each check's figures with n, interval and band.

A card is computed once, when every probe of a suite is decoded (engine.validity.figures),
stored as JSON in ``validity_cards`` and read back as these dataclasses by the command, the
panel and the report; its codes (check, family, status) are stored codes a person sees
(``LABELS`` in engine/validity/schema.py).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

# the families of checks and what each figure's rate is
POSITION, RETEST, INVARIANCE, SENSITIVITY = "position", "retest", "invariance", "sensitivity"
FAMILIES = (POSITION, RETEST, INVARIANCE, SENSITIVITY)
PASS, FAIL, UNMEASURED = "pass", "fail", "unmeasured"


@dataclass(frozen=True)
class Interval:
    """A figure and its bootstrap interval (None: not measurable, e.g. no items)."""

    value: float | None = None
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True)
class Bands:
    """What a judge must reach to pass each family (shares, 0–1): at most ``flip_max`` of
    its verdicts flip when the answers' order is swapped; at least ``retest_min`` agree when
    decoded again; at least ``invariance_min`` stay put under changes that must not move
    them; at least ``discrimination_min`` drop for a wrong or empty answer."""

    flip_max: float = 0.05
    retest_min: float = 0.95
    invariance_min: float = 0.95
    discrimination_min: float = 0.90

    def bound(self, family: str) -> tuple[float, bool]:
        """The family's band and whether it is an upper bound (else a lower one)."""
        return {
            POSITION: (self.flip_max, True),
            RETEST: (self.retest_min, False),
            INVARIANCE: (self.invariance_min, False),
            SENSITIVITY: (self.discrimination_min, False),
        }[family]


@dataclass(frozen=True)
class CheckFigure:
    """One check (or a family pooled over its checks) on one dialect's sample.

    ``rate`` is the family's figure: the flip rate (position), the share of verdicts that
    agree (retest, invariance) or the discrimination rate (sensitivity: the perturbed score
    is lower). Verdicts are final scores rounded to whole points; ``mean_shift`` is the mean
    of perturbed minus original final score; ``exact`` the share of equal verdicts, beside
    quadratic-weighted ``kappa`` and ordinal Krippendorff ``alpha`` (not for sensitivity,
    whose verdicts must differ). ``n``: items compared; ``same_prompt``: items whose changed
    answer reached the judge as the very same prompt (the prompt's normalisation undid the
    change), not asked and not counted; ``invalid``: replies that were no verdict.
    ``band``/``status`` only on a family's pooled row."""

    check: str
    family: str
    n: int
    rate: Interval
    mean_shift: Interval = field(default_factory=Interval)
    exact: float | None = None
    kappa: Interval = field(default_factory=Interval)
    alpha: Interval = field(default_factory=Interval)
    same_prompt: int = 0
    invalid: int = 0
    band: float | None = None
    status: str = ""


@dataclass(frozen=True)
class DialectValidity:
    """A judge's figures on one dialect: the family rows (with band and status) then each
    check's own; ``noise``: the score difference under which a difference is within the
    judge's noise (95th percentile of the absolute shift under order swap and retest);
    ``sentence``: what a reader takes away."""

    dialect: str
    dialect_name: str
    n_items: int
    families: tuple[CheckFigure, ...]
    checks: tuple[CheckFigure, ...]
    noise: float | None
    sentence: str

    def family(self, name: str) -> CheckFigure | None:
        return next((f for f in self.families if f.family == name), None)


@dataclass(frozen=True)
class ValidityCard:
    """A finished suite on one judge run: its settings, bands and per-dialect figures."""

    judge_run_id: int
    judge_model: str
    run_id: int | None  # the run that decoded the probes
    created_at: str
    per_dialect: int
    seed: int
    level: float
    bands: Bands
    dialects: tuple[DialectValidity, ...]
    id: int | None = None  # its row in validity_cards, once stored

    @property
    def passed(self) -> bool:
        """Every measured family of every dialect within its band."""
        return all(f.status != FAIL for d in self.dialects for f in d.families)

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "passed": self.passed}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ValidityCard:
        def figure(d: dict) -> CheckFigure:
            return CheckFigure(
                **{
                    **d,
                    **{k: Interval(**d[k]) for k in ("rate", "mean_shift", "kappa", "alpha")},
                }
            )

        dialects = tuple(
            DialectValidity(
                **{
                    **d,
                    "families": tuple(figure(f) for f in d["families"]),
                    "checks": tuple(figure(f) for f in d["checks"]),
                }
            )
            for d in data["dialects"]
        )
        fields = {k: v for k, v in data.items() if k not in ("passed", "bands", "dialects")}
        return cls(**fields, bands=Bands(**data["bands"]), dialects=dialects)
