"""The social-bias part of the HTML report (``upabhasha report``): per run, a diverging bar
figure of the category scores with CIs (paper 002's figure shape) and the table with counts
and rates; the dialect changes and position effects as tables. Empty without probe runs."""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.bias.results import bias_statistics
from engine.bias.stats import BIAS_STATS, BiasStatsSettings
from engine.text.fonts import register_matplotlib_fonts
from engine.workspace.store import Workspace

TABLE_COLUMNS = (
    "model", "probe_set", "mode", "category", "subcategory", "occupation_mixed", "n",
    "count_x", "count_y", "refusal_rate", "neutral_rate", "unparseable_rate", "score",
    "ci_low", "ci_high", "zero_count", "band",
)  # fmt: skip


def diverging_bars(groups: list[dict], title: str, xy: tuple[str, str]):
    """A matplotlib Figure (no pyplot): one bar per category row, CI whiskers, n."""
    # lazy: matplotlib is slow to import
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    register_matplotlib_fonts()
    rows = sorted(
        groups,
        key=lambda g: (
            {"positive": 0, "negative": 1}.get(g["subcategory"], 2),
            g["category"],
            g["occupation_mixed"],
        ),
    )
    # margins in inches, so that one row keeps room for the title above and the axis
    # label below (a height in proportion to the rows alone clipped them)
    height = 1.3 + 0.32 * max(len(rows), 2)
    fig = Figure(figsize=(8.5, height))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    labels, ys = [], []
    for i, g in enumerate(rows):
        y = len(rows) - i
        ys.append(y)
        labels.append(
            f"{g['subcategory'] or 'no trait'}: {g['category']}"
            + (" + occupation" if g["occupation_mixed"] else "")
        )
        score = g["score"]
        if score is None:
            ax.text(
                0,
                y,
                f"no group answers (n={g['n']})",
                ha="center",
                va="center",
                fontsize=7,
                color="#777",
            )
            continue
        ax.barh(y, score, color="#d95f02" if score > 0 else "#1b9e77", height=0.6)
        if g["ci_low"] is not None:
            ax.errorbar(
                score,
                y,
                xerr=[[score - g["ci_low"]], [g["ci_high"] - score]],
                color="black",
                capsize=3,
                linewidth=0.8,
            )
        ax.text(
            1.02,
            y,
            f"n={g['n']} ref {100 * (g['refusal_rate'] or 0):.0f}% "
            f"unp {100 * (g['unparseable_rate'] or 0):.0f}%",
            va="center",
            fontsize=6.5,
            transform=ax.get_yaxis_transform(),
        )
    ax.axvline(0, color="black", linewidth=1.2)
    ax.set_xlim(-1, 1)
    ax.set_yticks(ys, labels, fontsize=7)
    ax.set_xlabel(f"bias score tanh(ln Cx/Cy): ← {xy[1]}   {xy[0]} →", fontsize=8)
    ax.set_title(title, fontsize=9)
    fig.subplots_adjust(left=0.38, right=0.8, bottom=0.7 / height, top=1 - 0.45 / height)
    return fig


def report_parts(ws: Workspace, study: Any) -> list[dict]:
    """The stage's report section (engine/bias/schema.py): its intervals drawn as the study's
    (``study``: the report's seed, resamples and level)."""
    settings = dataclasses.replace(
        BIAS_STATS, seed=study.seed, resamples=study.resamples, level=study.level
    )
    return bias_report_parts(ws, settings)


def bias_report_parts(ws: Workspace, settings: BiasStatsSettings = BIAS_STATS) -> list[dict]:
    """[{stem, title, rows, n_labels, figure}] for the report; [] without probe replies."""
    stats = bias_statistics(ws, settings)
    if not stats["n_replies"]:
        return []
    parts = []
    for o in stats["overall"]:
        groups = [g for g in stats["groups"] if g["run_id"] == o["run_id"]]
        parts.append(
            {
                "stem": f"bias_run{o['run_id']}",
                "title": f"Social bias: {o['model']}, {o['probe_set']} ({o['mode']}); "
                f"{stats['zero_rule_note']}; {stats['ci']}",
                "rows": [{c: g.get(c) for c in TABLE_COLUMNS} for g in groups],
                "n_labels": 6,
                "figure": diverging_bars(
                    groups, f"{o['model']} — {o['probe_set']}", (o["group_x"], o["group_y"])
                ),
            }
        )
    if stats["position"]:
        parts.append(
            {
                "stem": "bias_position",
                "n_labels": 4,
                "figure": None,
                "title": "Social bias: position effect (share of group answers that "
                "picked the option shown first; 0.5 = none)",
                "rows": stats["position"],
            }
        )
    if stats["dialect_shift"]:
        parts.append(
            {
                "stem": "bias_dialect_shift",
                "n_labels": 7,
                "figure": None,
                "title": "Social bias: change of score in each dialect from standard "
                "Bengali (same probes, paired bootstrap CI)",
                "rows": stats["dialect_shift"],
            }
        )
    return parts
