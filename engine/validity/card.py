"""The validity card's shape: per dialect, each check's figures with n, interval and band.

A card is computed once, when every probe of a suite is decoded (engine.validity.figures),
stored as JSON in ``validity_cards`` and read back as these dataclasses by the command, the
panel and the report; its codes (check, family, status) are stored codes a person sees
(``LABELS`` in engine/validity/schema.py).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from engine.i18n import _, current_language, digits

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
    judge's noise (95th percentile of the absolute shift under order swap and retest)."""

    dialect: str
    dialect_name: str  # English
    n_items: int
    families: tuple[CheckFigure, ...]
    checks: tuple[CheckFigure, ...]
    noise: float | None
    dialect_name_bn: str = ""

    def family(self, name: str) -> CheckFigure | None:
        return next((f for f in self.families if f.family == name), None)

    @property
    def name(self) -> str:
        """The dialect's name in the interface language."""
        return (
            self.dialect_name_bn
            if current_language() == "bn" and self.dialect_name_bn
            else (self.dialect_name)
        )

    @property
    def sentence(self) -> str:
        """What a reader takes away, in the interface language (worded when read, so a card
        stored in one language reads in another)."""
        return sentence(self.name, self.families, self.noise)


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
        data = asdict(self)
        for row, dialect in zip(data["dialects"], self.dialects, strict=True):
            row["sentence"] = dialect.sentence
        return {**data, "passed": self.passed}

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
                    **{k: v for k, v in d.items() if k != "sentence"},
                    "families": tuple(figure(f) for f in d["families"]),
                    "checks": tuple(figure(f) for f in d["checks"]),
                }
            )
            for d in data["dialects"]
        )
        fields = {k: v for k, v in data.items() if k not in ("passed", "bands", "dialects")}
        return cls(**fields, bands=Bands(**data["bands"]), dialects=dialects)


def _percent(value: float | None) -> str:
    return _("not measured") if value is None else digits(f"{100 * value:.0f}%")


def _failure_words(family: str) -> str:
    """The main clause for a failing family (each a whole sentence for the catalogue)."""
    if family == SENSITIVITY:
        return _(
            "This judge lowers its {dialect} score for a wrong or empty answer only {rate} "
            "of the time"
        )
    if family == POSITION:
        return _("Order flips this judge's {dialect} verdicts {rate} of the time")
    if family == INVARIANCE:
        return _(
            "Changes that must not matter leave this judge's {dialect} verdicts unmoved only "
            "{rate} of the time"
        )
    return _("Decoded again, this judge's {dialect} verdicts agree only {rate} of the time")


# the first failing family in this order gives the sentence: a judge that cannot tell a
# wrong answer from a right one matters more than one that wavers
FAILURE_ORDER = (SENSITIVITY, POSITION, INVARIANCE, RETEST)


def sentence(dialect: str, families: tuple[CheckFigure, ...], noise: float | None) -> str:
    """The worst failure (or, every band held, the flip rate where order could be swapped),
    then how large a score difference the judge's noise covers."""
    by_family = {f.family: f for f in families}
    failed = [by_family[f] for f in FAILURE_ORDER if f in by_family and by_family[f].status == FAIL]
    position = by_family.get(POSITION)
    if failed:
        main = _failure_words(failed[0].family).format(
            dialect=dialect, rate=_percent(failed[0].rate.value)
        )
    elif position is not None and position.status == PASS:
        main = _failure_words(POSITION).format(dialect=dialect, rate=_percent(position.rate.value))
    else:
        main = _("This judge's {dialect} verdicts stay within every band measured").format(
            dialect=dialect
        )
    if noise is None:
        return _("{sentence}.").format(sentence=main)
    if noise > 0:
        within = _("score differences under {noise} are within its noise").format(
            noise=digits(f"{noise:.1f}")
        )
    else:
        within = _(
            "order and a second decoding left its scores as they were, so any score "
            "difference is beyond its noise"
        )
    return _("{sentence}: {noise}.").format(sentence=main, noise=within)
