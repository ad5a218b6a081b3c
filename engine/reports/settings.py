"""How the study's statistics are computed: ``upabhasha stats`` and ``report``, and the
Charts panel's full refresh, read these defaults (a live refresh while a run streams in
draws fewer resamples: :data:`engine.reports.chart_data.LIVE_RESAMPLES`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.i18n import N_
from engine.stats.bootstrap import DEFAULT_RESAMPLES
from engine.stats.settings import StatSettings


@dataclass(frozen=True)
class StudyStatsSettings(StatSettings):
    """The clustered bootstrap of the mean scores (clusters: questions)."""

    WHAT: ClassVar[str] = N_("study statistics")
    seed: int = 0
    resamples: int = DEFAULT_RESAMPLES
    level: float = 0.95

    def __post_init__(self) -> None:
        self.check_seed()
        self.check_resamples()
        self.check_between("level", 0, 1)


STUDY_STATS = StudyStatsSettings()
