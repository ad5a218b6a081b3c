"""Draw each bias chart onto a matplotlib Figure from the data :mod:`engine.chart_data` built.

Pure drawing (no statistics, no Qt): the Figure API only, never pyplot, so it is safe
anywhere. Dialects are labelled in English with the Bengali name below it; the Bengali
font is registered by :func:`widgets.fonts.register_matplotlib_fonts` before the first draw.
"""

from __future__ import annotations

import math

from engine.i18n import _

SCORE_MAX = 10.0
HEATMAP_CMAP = "RdYlGn"
BAR_COLOUR = "#4c78a8"
CRITICAL_COLOUR = "#d62728"
SCATTER_LIMIT = 3000          # more points than this are drawn as hexagonal bins
# Each cell label costs ~0.5-1 ms per draw; beyond this many cells the values are shown on
# hover (heatmap_value_at) instead, so a live redraw at the paper's 19 × 9 stays short.
ANNOTATED_CELLS = 100


def dialect_label(data: dict, code: str) -> str:
    names = data.get("dialects", {}).get(code)
    if not names:
        return code
    return f"{names['name_en']}\n{names['name_bn']}"


def draw(figure, data: dict, shown: dict | None = None) -> bool:
    """Draw ``data``; ``shown`` is what the figure shows now. A heatmap over the same
    models and dialects is updated in place (colours and labels), the cheapest redraw;
    returns True then, False when the figure was drawn anew."""
    if shown and data["kind"] == "heatmap" == shown.get("kind") and not data.get("empty") \
            and not shown.get("empty") and _update_heatmap(figure, data, shown):
        return True
    figure.clear()
    if data.get("empty"):
        ax = figure.add_subplot()
        ax.set_axis_off()
        ax.text(0.5, 0.5, _(data["empty"]), ha="center", va="center", fontsize=12,
                color="#666666", transform=ax.transAxes)
        return False
    DRAWERS[data["kind"]](figure, data)
    return False


def _heatmap(figure, data: dict) -> None:
    import numpy as np

    models, dialects, grid = _heatmap_grid(data)
    ax = figure.add_subplot()
    image = ax.imshow(grid, cmap=HEATMAP_CMAP, vmin=0, vmax=SCORE_MAX, aspect="auto")
    ax.set_xticks(range(len(dialects)), [dialect_label(data, d) for d in dialects], fontsize=8)
    ax.set_yticks(range(len(models)), models, fontsize=8)
    if len(models) * len(dialects) <= ANNOTATED_CELLS:
        for (i, j), value in np.ndenumerate(grid):
            if not math.isnan(value):
                ax.text(j, i, f"{value:.1f}", ha="center", va="center", fontsize=7,
                        color="black" if 2.5 < value < 8.5 else "white", in_layout=False)
        title = _("Mean judge score by model and dialect (0–10, 10 = no loss)")
    else:
        title = _("Mean judge score by model and dialect (0–10, 10 = no loss; "
                  "point at a cell for its value)")
    ax.set_title(title, fontsize=10)
    figure.colorbar(image, ax=ax, fraction=0.04, pad=0.02)


def _heatmap_grid(data: dict):
    import numpy as np

    cells = data["cells"]
    models = sorted({c["model"] for c in cells})
    dialects = sorted({c["dialect"] for c in cells})
    grid = np.full((len(models), len(dialects)), np.nan)
    for c in cells:
        grid[models.index(c["model"]), dialects.index(c["dialect"])] = c["mean"]
    return models, dialects, grid


def _update_heatmap(figure, data: dict, shown: dict) -> bool:
    import numpy as np

    models, dialects, grid = _heatmap_grid(data)
    old_models, old_dialects, _grid = _heatmap_grid(shown)
    if (models, dialects) != (old_models, old_dialects) or not figure.axes:
        return False
    ax = figure.axes[0]
    ax.images[0].set_data(grid)
    labels = iter(ax.texts)
    for (i, j), value in np.ndenumerate(grid):
        if not math.isnan(value) and ax.texts:
            text = next(labels, None)
            if text is None:
                return False
            text.set_text(f"{value:.1f}")
            text.set_color("black" if 2.5 < value < 8.5 else "white")
    return True


def heatmap_value_at(data: dict, x: float | None, y: float | None) -> str | None:
    """The cell under a mouse position (data coordinates of the heatmap axes), as text."""
    if x is None or y is None or data.get("kind") != "heatmap" or data.get("empty"):
        return None
    cells = data["cells"]
    models = sorted({c["model"] for c in cells})
    dialects = sorted({c["dialect"] for c in cells})
    row, col = int(round(y)), int(round(x))
    if not (0 <= row < len(models) and 0 <= col < len(dialects)):
        return None
    for c in cells:
        if c["model"] == models[row] and c["dialect"] == dialects[col]:
            label = dialect_label(data, c["dialect"]).replace("\n", " / ")
            return _("{model} · {dialect}: mean {mean:.2f} (n = {n})").format(
                model=c["model"], dialect=label, mean=c["mean"], n=c["n"])
    return None


def _bars(ax, data: dict, groups: list[dict], key: str, labels: list[str]) -> None:
    means = [g["mean"] for g in groups]
    low = [g["mean"] - g["ci_low"] if g["ci_low"] is not None else 0 for g in groups]
    high = [g["ci_high"] - g["mean"] if g["ci_high"] is not None else 0 for g in groups]
    ax.bar(range(len(groups)), means, yerr=[low, high], color=BAR_COLOUR, capsize=3,
           error_kw={"elinewidth": 1})
    ax.set_xticks(range(len(groups)), labels, fontsize=8)
    ax.set_ylim(0, SCORE_MAX)
    ax.grid(axis="y", alpha=0.3)
    for i, g in enumerate(groups):
        ax.text(i, 0.2, f"n={g['n']}", ha="center", fontsize=6, color="white")


def _dialects(figure, data: dict) -> None:
    groups = data["groups"]
    ax = figure.add_subplot()
    _bars(ax, data, groups, "dialect", [dialect_label(data, g["dialect"]) for g in groups])
    ax.set_ylabel(_("mean score, 95% CI (clustered by question)"))
    ax.set_title(_("Score per dialect ({n} judgments, {r} bootstrap resamples)").format(
        n=data["n"], r=data["resamples"]), fontsize=10)


def _breakdown(figure, data: dict) -> None:
    left, right = figure.subplots(1, 2, sharey=True,
                                  gridspec_kw={"width_ratios": [3, 2]})
    domains = data["domains"]
    _bars(left, data, domains, "domain",
          [(g["domain"] or "—").replace(" & ", " &\n") for g in domains])
    left.set_title(_("by domain"), fontsize=10)
    left.set_ylabel(_("mean score, 95% CI"))
    types = data["types"]
    type_names = {1: _("definitional"), 2: _("contrasting"), 3: _("factual"),
                  4: _("functional")}
    _bars(right, data, types, "question_type",
          [f"{g['question_type']}\n{type_names.get(g['question_type'], '')}" for g in types])
    right.set_title(_("by question type"), fontsize=10)


def _agreement(figure, data: dict) -> None:
    ax = figure.add_subplot()
    x, y, f = data["x"], data["y"], data["figures"]
    if len(x) > SCATTER_LIMIT:
        bins = ax.hexbin(x, y, gridsize=40, extent=(0, SCORE_MAX, 0, SCORE_MAX), mincnt=1,
                         bins="log", cmap="viridis")
        figure.colorbar(bins, ax=ax, fraction=0.04, pad=0.02, label=_("answers (log)"))
    else:
        ax.scatter(x, y, s=10, alpha=0.5, color=BAR_COLOUR, edgecolors="none")
    ax.plot([0, SCORE_MAX], [0, SCORE_MAX], color="#888888", linewidth=1, linestyle="--")
    t = data["threshold"]
    ax.axvline(t, color=CRITICAL_COLOUR, linewidth=0.8, alpha=0.6)
    ax.axhline(t, color=CRITICAL_COLOUR, linewidth=0.8, alpha=0.6)
    ax.set_xlim(0, SCORE_MAX)
    ax.set_ylim(0, SCORE_MAX)
    ax.set_aspect("equal")
    ax.set_xlabel(data["judge_a"])
    ax.set_ylabel(data["judge_b"])
    ax.set_title(_("Judge agreement: CCC {ccc} · MAE {mae} · Pearson {r} · n {n}").format(
        ccc=_fmt(f.get("ccc")), mae=_fmt(f.get("mae")), r=_fmt(f.get("pearson")),
        n=f.get("n", 0)), fontsize=10)


def _distribution(figure, data: dict) -> None:
    stats = data["stats"]
    ax = figure.add_subplot()
    boxes = [{"med": s["median"], "q1": s["q1"], "q3": s["q3"], "whislo": s["min"],
              "whishi": s["max"], "mean": s["mean"], "label": dialect_label(data, s["dialect"])}
             for s in stats]
    ax.bxp(boxes, showmeans=True, showfliers=False, patch_artist=True,
           boxprops={"facecolor": "#c6dbef"}, medianprops={"color": "#08519c"})
    ax.tick_params(axis="x", labelsize=8)
    ax.set_ylim(0, SCORE_MAX)
    ax.grid(axis="y", alpha=0.3)
    for i, s in enumerate(stats, start=1):
        ax.text(i, SCORE_MAX - 0.4, _("{p:.0%} zero").format(p=s["share_zero"]),
                ha="center", fontsize=6, color="#555555")
    ax.set_title(_("Score distribution per dialect (box: quartiles, whiskers: range, "
                   "triangle: mean)"), fontsize=10)


def _cbs(figure, data: dict) -> None:
    import numpy as np

    pairs = data["pairs"]
    ax = figure.add_subplot()
    metrics = [("cbs", "CBS"), ("recall", _("critical recall")), ("ccc", "CCC")]
    width = 0.22
    positions = np.arange(len(pairs))
    for k, (key, label) in enumerate(metrics):
        values = [p.get(key) if p.get(key) is not None else 0.0 for p in pairs]
        bars = ax.bar(positions + k * width, values, width, label=label)
        ax.bar_label(bars, fmt="%.2f", fontsize=7)
    ax.set_xticks(positions + width, [f"{p['model_a']}\nvs {p['model_b']}\n"
                                      f"n={p['n']}, |C|={p['n_critical']}" for p in pairs],
                  fontsize=8)
    pad = (max(len(pairs), 3) - len(pairs)) / 2     # one pair stays a slim group mid-axis
    ax.set_xlim(-0.5 - pad + width, len(pairs) - 0.5 + pad + width)
    ax.set_ylim(0, 1.1)
    ax.legend(fontsize=8, loc="upper right")
    ax.set_title(_("Critical Bias Sensitivity (danger threshold {t:g})").format(
        t=data["threshold"]), fontsize=10)


def _fmt(value) -> str:
    return "—" if value is None else f"{value:.2f}"


DRAWERS = {"heatmap": _heatmap, "dialects": _dialects, "breakdown": _breakdown,
           "agreement": _agreement, "distribution": _distribution, "cbs": _cbs}
