"""The bias panel's exports: the chart as PNG, SVG or PDF, its statistics as CSV or LaTeX."""

from __future__ import annotations

from pathlib import Path

from engine.bias.api import groups_csv, groups_latex
from widgets.bias.bias_chart import BiasChart


def write_export(path: str, chart: BiasChart, stats: dict | None) -> bool:
    """Write ``path`` as its suffix says; False when there is nothing of that kind yet."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix in ("png", "svg", "pdf"):
        chart.export(path)
    elif suffix == "csv" and stats:
        Path(path).write_text(groups_csv(stats), encoding="utf-8")
    elif suffix == "tex" and stats:
        Path(path).write_text(groups_latex(stats), encoding="utf-8")
    else:
        return False
    return True
