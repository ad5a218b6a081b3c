"""The understanding stage's part of the HTML report (engine/understanding/schema.py): the
``task-stats`` results table and each run's macro score as a figure; none without task
outputs."""

from __future__ import annotations

from typing import Any

from engine.text.fonts import register_matplotlib_fonts
from engine.understanding.stats import TaskStatsSettings, task_stats
from engine.understanding.tables import result_table
from engine.workspace.store import Workspace


def report_parts(ws: Workspace, study: Any) -> list[dict]:
    """[{stem, title, rows, n_labels, figure}]; intervals drawn as the study's (``study``: the
    report's seed, resamples and level)."""
    settings = TaskStatsSettings(seed=study.seed, resamples=study.resamples, level=study.level)
    report = task_stats(ws, settings=settings)
    if not report["runs"]:
        return []
    header, rows = result_table(dict(report))
    return [
        {
            "stem": "tasks",
            "title": "Understanding tasks: results per run",
            "rows": [dict(zip(header, row)) for row in rows],
            "n_labels": 8,
            "figure": task_scores(report["runs"]),
        }
    ]


def _figure(width: float, height: float):
    # lazy: matplotlib is slow to import
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    register_matplotlib_fonts()
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def task_scores(runs: list[dict]):
    """One bar per task run: its macro chrF++ (0–100, with its interval) or macro-F1 (0–1),
    one panel per scale; an undefined score is said, never drawn as 0."""
    panels: dict[str, list[tuple[str, float | None, dict]]] = {}
    for r in runs:
        m = r["macro"]
        key = "chrf++" if "chrf++" in m else "macro_f1"
        label = f"{r['task']} | {r['model']} | {r['regime']} | {r['script']} (n={r['n']})"
        panels.setdefault(key, []).append((label, m.get(key), r.get("chrf_macro_ci") or {}))
    if not panels:
        return None
    rows = max(len(v) for v in panels.values())
    # fixed margins in inches: one run still leaves room for the title and the axis label
    fig = _figure(8.5, 1.6 + 0.35 * max(rows, 2) * len(panels))
    for k, (key, bars) in enumerate(sorted(panels.items())):
        ax = fig.add_subplot(len(panels), 1, k + 1)
        top = 100.0 if key == "chrf++" else 1.0
        for y, (label, value, ci) in enumerate(bars):
            if value is None:
                ax.text(top / 2, y, "undefined", ha="center", va="center", fontsize=7)
                continue
            ax.barh(y, value, color="#4c72b0", height=0.6)
            if ci.get("low") is not None:
                ax.errorbar(value, y, xerr=[[value - ci["low"]], [ci["high"] - value]],
                            color="black", capsize=3, linewidth=0.8)  # fmt: skip
        ax.set_yticks(range(len(bars)), [b[0] for b in bars], fontsize=7)
        ax.set_ylim(-0.7, len(bars) - 0.3)
        ax.set_xlim(0, top)
        name = "chrF++ (0–100), macro over dialects" if key == "chrf++" else "macro-F1 (0–1)"
        ax.set_xlabel(name, fontsize=8)
    fig.suptitle("Understanding tasks: macro score per run", fontsize=10)
    return fig
