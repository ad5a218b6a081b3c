"""Draw each bias chart onto a matplotlib Figure from the data :mod:`engine.reports.chart_data` built.

Pure drawing (no statistics, no Qt): the Figure API only, never pyplot, so it is safe
anywhere. Dialects are labelled in English with the Bengali name below it (the Bengali
interface: the Bengali name alone), numbers in the interface's digits; the Bengali font is
registered by :func:`engine.text.fonts.register_matplotlib_fonts` before the first draw.

Each chart is drawn in two parts: the *frame* (axes, tick labels, grid, colour bar:
everything that depends only on which models, dialects, groups or judges are shown) and
the *values* (bars, intervals, boxes, the heatmap's image, counts). A live update
with the same categories redraws only the values over the saved frame
(:mod:`widgets.reports.chart_renderer`): the frame's Bengali labels are most of a draw's cost.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.i18n import _, current_language, digits
from widgets.common.labels import dialect_of, label

SCORE_MAX = 10.0
HEATMAP_CMAP = "RdYlGn"
BAR_COLOUR = "#4c78a8"
CRITICAL_COLOUR = "#d62728"
SCATTER_LIMIT = 3000  # more points than this are drawn as a density grid
# Each cell label costs time at every draw; beyond this many cells the values are shown on
# hover (heatmap_value_at) instead, so a live redraw at the paper's 19 × 9 stays short.
ANNOTATED_CELLS = 100


def dialect_label(data: dict, code: str) -> str:
    names = data.get("dialects", {}).get(code)
    if not names:
        return code
    return dialect_of({**names, "code": code}, both=True, code=False, separator="\n")


def native_digits(figure) -> None:
    """Numbers on the figure in the interface's digits: the value labels written so far and
    the numeric axes' ticks, whatever their formatter (scalar, log, percent, integer);
    categorical ticks are names and stay as they are."""
    if current_language() == "en":
        return
    from matplotlib.category import StrCategoryFormatter  # lazy: loads with the charts
    from matplotlib.ticker import FixedFormatter, FuncFormatter

    # ticks given as labels (names: models, dialects) come as Fixed- or FuncFormatter
    names = (FixedFormatter, FuncFormatter, StrCategoryFormatter, _Native)
    for ax in figure.axes:
        for axis in (ax.xaxis, ax.yaxis):
            formatter = axis.get_major_formatter()
            if not isinstance(formatter, names):
                formatter.__class__ = _native_class(type(formatter))
        for text in ax.texts:
            text.set_text(digits(text.get_text()))


class _Native:
    """Marks a formatter whose output is already in the interface's digits."""


_NATIVE: dict[type, type] = {}


def _native_class(cls: type) -> type:
    """``cls`` writing its ticks and offset in the interface's digits (state kept: the
    formatter's class is swapped, not the formatter)."""
    if cls not in _NATIVE:

        def call(self, x, pos=None):
            return digits(cls.__call__(self, x, pos))

        def offset(self):
            return digits(cls.get_offset(self))

        _NATIVE[cls] = type(
            f"Native{cls.__name__}", (_Native, cls), {"__call__": call, "get_offset": offset}
        )
    return _NATIVE[cls]


def frame_key(data: dict) -> tuple:
    """What a chart's frame (and so its margins) depends on: the same key, the same frame."""
    if data.get("empty"):
        return ("empty", data["empty"])
    return (data["kind"],) + FRAMED[data["kind"]][2](data)


def draw(figure, data: dict) -> list:
    """Draw ``data`` anew; returns the value artists."""
    figure.clear()
    if data.get("empty"):
        ax = figure.add_subplot()
        ax.set_axis_off()
        ax.text(
            0.5,
            0.5,
            _(data["empty"]),
            ha="center",
            va="center",
            fontsize=12,
            color="#666666",
            transform=ax.transAxes,
        )
        return []
    frame, _values, _key = FRAMED[data["kind"]]
    frame(figure, data)
    return draw_values(figure, data)


def draw_values(figure, data: dict, old: Sequence = ()) -> list:
    """Replace the value artists ``old`` by those of ``data`` (same frame); returns them."""
    titles = {ax.title for ax in figure.axes}  # kept: only their text changes
    for artist in old:
        if artist not in titles:
            artist.remove()
    for ax in figure.axes:  # bar() and errorbar() keep containers of removed artists
        ax.containers.clear()
    before = {ax: set(ax.get_children()) for ax in figure.axes}
    title_before = {ax: ax.get_title() for ax in figure.axes}
    FRAMED[data["kind"]][1](figure, data)
    native_digits(figure)
    fresh = [a for ax in figure.axes for a in ax.get_children() if a not in before[ax]]
    # a title the values set (it counts judgments) is a value too; the frame's stays put
    return fresh + [
        ax.title for ax in figure.axes if ax.title in old or ax.get_title() != title_before[ax]
    ]


def _heatmap_frame(figure, data: dict) -> None:
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    models, dialects = _heatmap_axes(data)
    ax = figure.add_subplot()
    ax.set_xticks(range(len(dialects)), [dialect_label(data, d) for d in dialects], fontsize=8)
    ax.set_yticks(range(len(models)), models, fontsize=8)
    ax.set_xlim(-0.5, len(dialects) - 0.5)
    ax.set_ylim(len(models) - 0.5, -0.5)
    if len(models) * len(dialects) <= ANNOTATED_CELLS:
        title = _("Mean judge score by model and dialect (0–10, 10 = no loss)")
    else:
        title = _(
            "Mean judge score by model and dialect (0–10, 10 = no loss; "
            "point at a cell for its value)"
        )
    ax.set_title(title, fontsize=10)
    scale = ScalarMappable(Normalize(0, SCORE_MAX), HEATMAP_CMAP)
    figure.colorbar(scale, ax=ax, fraction=0.04, pad=0.02)


def _heatmap_values(figure, data: dict) -> None:
    import numpy as np

    models, dialects = _heatmap_axes(data)
    grid = np.full((len(models), len(dialects)), np.nan)
    for c in data["cells"]:
        grid[models.index(c["model"]), dialects.index(c["dialect"])] = c["mean"]
    ax = figure.axes[0]
    ax.imshow(grid, cmap=HEATMAP_CMAP, vmin=0, vmax=SCORE_MAX, aspect="auto")
    if len(models) * len(dialects) <= ANNOTATED_CELLS:
        for (i, j), value in np.ndenumerate(grid):
            if not math.isnan(value):
                ax.text(
                    j,
                    i,
                    f"{value:.1f}",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="black" if 2.5 < value < 8.5 else "white",
                    in_layout=False,
                )


def _heatmap_axes(data: dict) -> tuple[list, list]:
    cells = data["cells"]
    return sorted({c["model"] for c in cells}), sorted({c["dialect"] for c in cells})


def heatmap_value_at(data: dict, x: float | None, y: float | None) -> str | None:
    """The cell under a mouse position (data coordinates of the heatmap axes), as text."""
    if x is None or y is None or data.get("kind") != "heatmap" or data.get("empty"):
        return None
    models, dialects = _heatmap_axes(data)
    row, col = int(round(y)), int(round(x))
    if not (0 <= row < len(models) and 0 <= col < len(dialects)):
        return None
    for c in data["cells"]:
        if c["model"] == models[row] and c["dialect"] == dialects[col]:
            label = dialect_label(data, c["dialect"]).replace("\n", " / ")
            return _("{model} · {dialect}: mean {mean:.2f} (n = {n})").format(
                model=c["model"], dialect=label, mean=c["mean"], n=c["n"]
            )
    return None


def _bar_frame(ax, labels: list[str]) -> None:
    ax.set_xticks(range(len(labels)), labels, fontsize=8)
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.set_ylim(0, SCORE_MAX + 1.2)  # room for the value over a full bar
    ax.set_yticks(range(0, int(SCORE_MAX) + 1, 2))
    ax.set_axisbelow(True)
    ax.grid(axis="y", alpha=0.3)


def _bar_values(ax, groups: list[dict]) -> None:
    means = [g["mean"] for g in groups]
    low = [g["mean"] - g["ci_low"] if g["ci_low"] is not None else 0 for g in groups]
    high = [g["ci_high"] - g["mean"] if g["ci_high"] is not None else 0 for g in groups]
    ax.bar(
        range(len(groups)),
        means,
        yerr=[low, high],
        color=BAR_COLOUR,
        capsize=3,
        error_kw={"elinewidth": 1},
    )
    for i, g in enumerate(groups):  # mean and n over the interval: one text, one layout
        top = g["ci_high"] if g["ci_high"] is not None else g["mean"]
        ax.text(
            i,
            top + 0.12,
            f"{g['mean']:.2f}\n" + _("n={n}").format(n=g["n"]),
            ha="center",
            va="bottom",
            fontsize=7,
            linespacing=1.1,
        )


def _dialects_frame(figure, data: dict) -> None:
    ax = figure.add_subplot()
    _bar_frame(ax, [dialect_label(data, g["dialect"]) for g in data["groups"]])
    ax.set_ylabel(_("mean score, 95% CI (clustered by question)"))


def _dialects_values(figure, data: dict) -> None:
    ax = figure.axes[0]
    _bar_values(ax, data["groups"])
    ax.set_title(
        _("Score per dialect ({n} judgments, {r} bootstrap resamples)").format(
            n=data["n"], r=data["resamples"]
        ),
        fontsize=10,
    )


def _breakdown_frame(figure, data: dict) -> None:
    left, right = figure.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": [3, 2]})
    _bar_frame(
        left,
        [(label("domain", g["domain"]) or "—").replace(" & ", " &\n") for g in data["domains"]],
    )
    left.set_ylabel(_("mean score, 95% CI"))
    type_names = {1: _("definitional"), 2: _("contrasting"), 3: _("factual"), 4: _("functional")}
    _bar_frame(
        right,
        [
            f"{digits(str(g['question_type']))}\n{type_names.get(g['question_type'], '')}"
            for g in data["types"]
        ],
    )


def _breakdown_values(figure, data: dict) -> None:
    left, right = figure.axes[:2]
    _bar_values(left, data["domains"])
    _bar_values(right, data["types"])
    left.set_title(_("by domain ({n} judgments)").format(n=data["n"]), fontsize=10)
    right.set_title(_("by question type"), fontsize=10)


def _density_scale(data: dict) -> int | None:
    """The colour scale's top for a density picture: the next power of two over the fullest
    cell, so the frame (and its colour bar) stays while counts grow within it."""
    if len(data["x"]) <= SCATTER_LIMIT:
        return None
    fullest = max((max(row) for row in data["density"]), default=1)
    return 2 ** math.ceil(math.log2(max(fullest, 2)))


def _agreement_frame(figure, data: dict) -> None:
    ax = figure.add_subplot()
    ax.set_xlim(0, SCORE_MAX)
    ax.set_ylim(0, SCORE_MAX)
    ax.set_aspect("equal")
    ax.set_xlabel(data["judge_a"])
    ax.set_ylabel(data["judge_b"])
    top = _density_scale(data)
    if top is not None:
        from matplotlib.cm import ScalarMappable
        from matplotlib.colors import LogNorm

        figure.colorbar(
            ScalarMappable(LogNorm(1, top), "viridis"),
            ax=ax,
            fraction=0.04,
            pad=0.02,
            label=_("answers per cell (log)"),
        )


def _agreement_values(figure, data: dict) -> None:
    import numpy as np

    ax = figure.axes[0]
    x, y, f = data["x"], data["y"], data["figures"]
    top = _density_scale(data)
    if top is not None:  # too many points to see: answers per 0.2 × 0.2 cell
        from matplotlib.colors import LogNorm

        counts = np.ma.masked_equal(np.asarray(data["density"]), 0)
        ax.imshow(
            counts,
            origin="lower",
            extent=(0, SCORE_MAX, 0, SCORE_MAX),
            cmap="viridis",
            norm=LogNorm(1, top),
            interpolation="nearest",
            aspect="equal",
        )
    else:
        ax.scatter(x, y, s=10, alpha=0.5, color=BAR_COLOUR, edgecolors="none")
    ax.plot([0, SCORE_MAX], [0, SCORE_MAX], color="#888888", linewidth=1, linestyle="--")
    t = data["threshold"]
    ax.axvline(t, color=CRITICAL_COLOUR, linewidth=0.8, alpha=0.6)
    ax.axhline(t, color=CRITICAL_COLOUR, linewidth=0.8, alpha=0.6)
    ax.set_title(
        _("Judge agreement: CCC {ccc} · MAE {mae} · Pearson {r} · n {n}").format(
            ccc=_fmt(f.get("ccc")),
            mae=_fmt(f.get("mae")),
            r=_fmt(f.get("pearson")),
            n=f.get("n", 0),
        ),
        fontsize=10,
    )


def _distribution_frame(figure, data: dict) -> None:
    stats = data["stats"]
    ax = figure.add_subplot()
    ax.set_xticks(
        range(1, len(stats) + 1), [dialect_label(data, s["dialect"]) for s in stats], fontsize=8
    )
    ax.set_xlim(0.5, len(stats) + 0.5)
    ax.set_ylim(0, SCORE_MAX)
    ax.set_axisbelow(True)
    ax.grid(axis="y", alpha=0.3)


def _distribution_values(figure, data: dict) -> None:
    stats = data["stats"]
    ax = figure.axes[0]
    boxes = [
        {
            "med": s["median"],
            "q1": s["q1"],
            "q3": s["q3"],
            "whislo": s["min"],
            "whishi": s["max"],
            "mean": s["mean"],
        }
        for s in stats
    ]
    ax.bxp(
        boxes,
        showmeans=True,
        showfliers=False,
        patch_artist=True,
        manage_ticks=False,
        boxprops={"facecolor": "#c6dbef"},
        medianprops={"color": "#08519c"},
    )
    for i, s in enumerate(stats, start=1):
        ax.text(
            i,
            SCORE_MAX - 0.4,
            _("{p:.0%} zero").format(p=s["share_zero"]),
            ha="center",
            fontsize=6,
            color="#555555",
        )
    ax.set_title(
        _(
            "Score distribution per dialect, {n} judgments (box: quartiles, "
            "whiskers: range, triangle: mean)"
        ).format(n=data["n"]),
        fontsize=10,
    )


_CBS_METRICS = (("cbs", "CBS", "C0"), ("recall", "critical recall", "C1"), ("ccc", "CCC", "C2"))
_CBS_WIDTH = 0.22


def _cbs_frame(figure, data: dict) -> None:
    from matplotlib.patches import Patch

    pairs = data["pairs"]
    ax = figure.add_subplot()
    ax.set_xticks(
        [i + _CBS_WIDTH for i in range(len(pairs))],
        [_("{a}\nvs {b}").format(a=p["model_a"], b=p["model_b"]) for p in pairs],
        fontsize=8,
    )
    pad = (max(len(pairs), 3) - len(pairs)) / 2  # one pair stays a slim group mid-axis
    ax.set_xlim(-0.5 - pad + _CBS_WIDTH, len(pairs) - 0.5 + pad + _CBS_WIDTH)
    ax.set_ylim(0, 1.1)
    ax.legend(
        handles=[Patch(color=colour, label=_(label)) for _k, label, colour in _CBS_METRICS],
        fontsize=8,
        loc="upper right",
    )
    ax.set_title(
        _("Critical Bias Sensitivity (danger threshold {t:g})").format(t=data["threshold"]),
        fontsize=10,
    )


def _cbs_values(figure, data: dict) -> None:
    ax = figure.axes[0]
    pairs = data["pairs"]
    for k, (key, _label, colour) in enumerate(_CBS_METRICS):
        values = [p.get(key) if p.get(key) is not None else 0.0 for p in pairs]
        bars = ax.bar(
            [i + k * _CBS_WIDTH for i in range(len(pairs))], values, _CBS_WIDTH, color=colour
        )
        ax.bar_label(bars, fmt="%.2f", fontsize=7)
    for i, p in enumerate(pairs):  # under the pair's name: how many answers it rests on
        ax.annotate(
            _("n={n}").format(n=p["n"]) + f", |C|={p['n_critical']}",
            (i + _CBS_WIDTH, 0),
            xycoords=ax.get_xaxis_transform(),
            xytext=(0, -32),
            textcoords="offset points",
            ha="center",
            va="top",
            fontsize=8,
            annotation_clip=False,
        )


def _fmt(value) -> str:
    return "—" if value is None else digits(f"{value:.2f}")


# kind -> (frame, values, what the frame depends on)
FRAMED = {
    "heatmap": (_heatmap_frame, _heatmap_values, lambda d: tuple(map(tuple, _heatmap_axes(d)))),
    "dialects": (
        _dialects_frame,
        _dialects_values,
        lambda d: tuple(g["dialect"] for g in d["groups"]),
    ),
    "breakdown": (
        _breakdown_frame,
        _breakdown_values,
        lambda d: (
            tuple(g["domain"] for g in d["domains"]),
            tuple(g["question_type"] for g in d["types"]),
        ),
    ),
    "distribution": (
        _distribution_frame,
        _distribution_values,
        lambda d: tuple(s["dialect"] for s in d["stats"]),
    ),
    "agreement": (
        _agreement_frame,
        _agreement_values,
        lambda d: (d["judge_a"], d["judge_b"], _density_scale(d)),
    ),
    "cbs": (
        _cbs_frame,
        _cbs_values,
        lambda d: tuple((p["model_a"], p["model_b"]) for p in d["pairs"]),
    ),
}
