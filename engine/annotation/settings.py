"""How the annotation statistics are computed: the agreement's bootstrap and the
prediction-powered estimates' level and target width. ``upabhasha agreement`` / ``ppi`` and
the Agreement panel read these defaults, so one batch shows one set of intervals."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.i18n import N_, _
from engine.stats.settings import StatSettings

# the seed a new batch's dialogs offer and the agreement bootstrap's
DEFAULT_SEED = 20261130


@dataclass(frozen=True)
class AgreementSettings(StatSettings):
    """The percentile bootstrap over items of every agreement coefficient."""

    WHAT: ClassVar[str] = N_("agreement")
    resamples: int = 1000
    seed: int = DEFAULT_SEED
    level: float = 0.95

    def __post_init__(self) -> None:
        self.check_resamples()
        self.check_seed()
        self.check_between("level", 0, 1)

    @classmethod
    def of(cls, report: dict) -> AgreementSettings:
        """The settings an agreement report was computed with."""
        return cls(report["resamples"], report["seed"], report["level"])

    def interval_note(self) -> str:
        """What the intervals are, in the interface language (the CLI and the panel)."""
        return _(
            "{level}% percentile bootstrap over items, {resamples} resamples, seed {seed}"
        ).format(level=round(100 * self.level), resamples=self.resamples, seed=self.seed)


@dataclass(frozen=True)
class PPISettings(StatSettings):
    """Prediction-powered means: ``alpha`` (1 − the intervals' level) and the interval
    ``width`` the number of human labels needed is computed for."""

    WHAT: ClassVar[str] = N_("prediction-powered estimates")
    alpha: float = 0.05
    width: float = 1.0

    def __post_init__(self) -> None:
        self.check_between("alpha", 0, 1)
        self.check_positive("width")

    @classmethod
    def of(cls, study: dict) -> PPISettings:
        """The settings a PPI study was computed with."""
        return cls(study["alpha"], study["target_width"])

    def interval_note(self) -> str:
        """The intervals' level and the target width, in the interface language."""
        return _("{level}% intervals, target width {width:g}").format(
            level=round(100 * (1 - self.alpha)), width=self.width
        )


AGREEMENT = AgreementSettings()
PPI = PPISettings()
