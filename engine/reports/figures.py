"""Report figures drawn with matplotlib's object API (no pyplot global state, Agg canvas).

Each function takes the JSON-ready statistics of :func:`engine.reports.study_statistics.study_statistics`
and returns a Figure, or None when there is nothing to draw. Every figure states its n.
``labels`` maps a value (a dialect code) to the text shown for it (English and Bengali name);
the bundled Bengali font draws the Bengali.
"""

from __future__ import annotations

import math

from engine.text.fonts import register_matplotlib_fonts


def _figure(width: float, height: float):
    # lazy: matplotlib is slow to import
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    register_matplotlib_fonts()
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _nan(value):
    return math.nan if value is None else value


def _shown(labels: dict | None, value) -> str:
    return (labels or {}).get(value, str(value))


def heatmap(
    rows: list[dict],
    row_key: str,
    col_key: str,
    title: str,
    max_score: float = 10.0,
    labels: dict | None = None,
):
    """Mean final score per (row, column) cell, annotated with mean and n."""
    if not rows:
        return None
    row_values = sorted({r[row_key] for r in rows}, key=str)
    col_values = sorted({r[col_key] for r in rows}, key=str)
    row_labels = [_shown(labels, v) for v in row_values]
    col_labels = [_shown(labels, v) for v in col_values]
    grid = [[math.nan] * len(col_labels) for _ in row_labels]
    counts = [[0] * len(col_labels) for _ in row_labels]
    for r in rows:
        i, j = row_values.index(r[row_key]), col_values.index(r[col_key])
        grid[i][j], counts[i][j] = _nan(r["mean"]), r["n"]
    # Room for the longest row label (model names) and at least the colour bar's height.
    label_width = 0.075 * max(len(line) for label in row_labels for line in label.split("\n"))
    fig = _figure(2.2 + label_width + 1.1 * len(col_labels), max(2.6, 1.4 + 0.55 * len(row_labels)))
    ax = fig.add_subplot()
    image = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=max_score, aspect="auto")
    ax.set_xticks(range(len(col_labels)), col_labels, rotation=30, ha="right")
    ax.set_yticks(range(len(row_labels)), row_labels)
    for i in range(len(row_labels)):
        for j in range(len(col_labels)):
            if not math.isnan(grid[i][j]):
                ax.text(
                    j,
                    i,
                    f"{grid[i][j]:.1f}\nn={counts[i][j]}",
                    ha="center",
                    va="center",
                    fontsize=8,
                )
    ax.set_title(title, fontsize=10)
    fig.colorbar(image, ax=ax, label=f"score (0–{max_score:g})")
    return fig


def bars_with_ci(
    rows: list[dict], key: str, title: str, max_score: float = 10.0, labels: dict | None = None
):
    """One bar per value of ``key`` with its clustered 95% CI and n."""
    if not rows:
        return None
    names = [_shown(labels, r[key]) for r in rows]
    means = [_nan(r["mean"]) for r in rows]
    low = [m - _nan(r["ci_low"]) if r["ci_low"] is not None else 0 for m, r in zip(means, rows)]
    high = [_nan(r["ci_high"]) - m if r["ci_high"] is not None else 0 for m, r in zip(means, rows)]
    fig = _figure(1.5 + 0.8 * len(names), 3.6)
    ax = fig.add_subplot()
    ax.bar(range(len(names)), means, yerr=[low, high], capsize=4, color="#4c72b0")
    for x, (m, r) in enumerate(zip(means, rows)):
        ax.text(x, 0.2, f"n={r['n']}\nq={r['n_questions']}", ha="center", fontsize=7, color="white")
    ax.set_ylim(0, max_score)
    ax.set_ylabel("mean final score, 95% CI")
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_title(title, fontsize=10)
    return fig


def agreement_scatter(
    pairs: list[tuple[str, str, list[float], list[float], dict]], max_score: float = 10.0
):
    """One panel per judge pair: judge a (x) against judge b (y), with y = x."""
    if not pairs:
        return None
    fig = _figure(3.4 * len(pairs), 3.6)
    for k, (name_a, name_b, xs, ys, figures) in enumerate(pairs):
        ax = fig.add_subplot(1, len(pairs), k + 1)
        ax.scatter(xs, ys, s=12, alpha=0.6)
        ax.plot([0, max_score], [0, max_score], color="grey", linewidth=1)
        ax.set_xlim(-0.3, max_score + 0.3)
        ax.set_ylim(-0.3, max_score + 0.3)
        ax.set_xlabel(name_a, fontsize=8)
        ax.set_ylabel(name_b, fontsize=8)
        ccc = figures.get("ccc")
        ax.set_title(f"CCC {'n/a' if ccc is None else f'{ccc:.2f}'}, n={figures['n']}", fontsize=9)
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


def save(fig, folder, stem: str) -> dict[str, str]:
    """Write PNG and SVG; return {'png': path, 'svg': path}."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for ext in ("png", "svg"):
        path = folder / f"{stem}.{ext}"
        fig.savefig(path, dpi=120 if ext == "png" else None)
        paths[ext] = str(path)
    return paths
