"""The reports stage's front door: the study's statistics, the HTML report, the data behind
every live chart, and the figures drawn from it.

Front ends import this module, never the stage's others (.importlinter).
"""

from __future__ import annotations

from engine.reports.chart_data import CHART_KINDS, DEFAULT_RESAMPLES, LIVE_RESAMPLES, chart_data
from engine.reports.figures import bars_with_ci
from engine.reports.figures import save as save_figure
from engine.reports.html_report import write_report
from engine.reports.study_statistics import study_statistics

__all__ = [
    "CHART_KINDS",
    "DEFAULT_RESAMPLES",
    "LIVE_RESAMPLES",
    "bars_with_ci",
    "chart_data",
    "save_figure",
    "study_statistics",
    "write_report",
]
