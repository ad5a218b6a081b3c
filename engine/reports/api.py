"""The reports stage's front door: the study's statistics (computed with
:class:`StudyStatsSettings`), the HTML report, the data behind
every live chart (and the judge runs a chart can compare), the figures drawn from it, and a
chart's table written as CSV.

Front ends import this module, never the stage's others (.importlinter).
"""

from __future__ import annotations

import csv
from pathlib import Path

from engine.importing.exporters import neutralize
from engine.judging.paired_scores import judge_run_choices
from engine.reports.chart_data import CHART_KINDS, DEFAULT_RESAMPLES, LIVE_RESAMPLES, chart_data
from engine.reports.figures import bars_with_ci
from engine.reports.figures import save as save_figure
from engine.reports.html_report import write_report
from engine.reports.settings import STUDY_STATS, StudyStatsSettings
from engine.reports.study_statistics import study_statistics

__all__ = [
    "CHART_KINDS",
    "DEFAULT_RESAMPLES",
    "LIVE_RESAMPLES",
    "STUDY_STATS",
    "StudyStatsSettings",
    "bars_with_ci",
    "chart_data",
    "judge_run_choices",
    "save_figure",
    "study_statistics",
    "write_report",
    "write_table_csv",
]


def write_table_csv(table: dict, path: str | Path) -> int:
    """A chart's underlying table as CSV: UTF-8 with BOM, formula-safe (as the exporters)."""
    with open(path, "w", encoding="utf-8-sig", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(table["columns"])
        for row in table["rows"]:
            writer.writerow([neutralize(v) for v in row])
    return len(table["rows"])
