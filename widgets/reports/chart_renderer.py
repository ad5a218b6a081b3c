"""Bias charts rendered off the GUI thread: one Agg Figure per chart, owned by one worker lane.

Drawing a chart at the paper's scale is slow in matplotlib (shaping the Bengali tick labels
dominates). Drawn by FigureCanvasQTAgg on the GUI thread, every live update was a visible
stall (bench/gui_latency.py measures it against its goal). So the
panel's background task computes the chart's data *and* renders it with FigureCanvasAgg into
an RGBA buffer; the GUI thread only paints the finished image (:mod:`widgets.reports.chart_view`).

matplotlib is not thread-safe per figure: every Figure here is created, changed and drawn by
:func:`refresh_chart` / :meth:`ChartRenderer.render` on the :data:`CHARTS_LANE` worker only
(a single-thread lane of the task bridge). Exports draw a fresh Figure of their own.
A live update with the same categories redraws only the chart's values over its saved frame
(blitting: :func:`widgets.reports.chart_drawing.draw_values`); the frame's Bengali tick labels are
most of a full draw's cost. Qt-free.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.reports import api as reports

if TYPE_CHECKING:  # matplotlib is imported in the charts lane, when first needed
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

log = logging.getLogger(__name__)

CHARTS_LANE = "charts"
BASE_DPI = 100
DEFAULT_SIZE = (1100, 650)  # pixels before the view has a size of its own
IMAGE_FORMATS = ("png", "svg", "pdf")
EXPORT_SIZE_INCHES = (11.0, 6.5)


@dataclass(frozen=True)
class AxesBox:
    """Where a chart's main axes lie in the image (pixels from the bottom left) and the data
    limits there: enough for the view to turn a mouse position into data coordinates."""

    x0: float
    y0: float
    x1: float
    y1: float
    xlim: tuple[float, float]
    ylim: tuple[float, float]

    def to_data(self, px: float, py: float) -> tuple[float, float] | None:
        if not (self.x0 <= px <= self.x1 and self.y0 <= py <= self.y1):
            return None
        fx = (px - self.x0) / (self.x1 - self.x0)
        fy = (py - self.y0) / (self.y1 - self.y0)
        return (
            self.xlim[0] + fx * (self.xlim[1] - self.xlim[0]),
            self.ylim[0] + fy * (self.ylim[1] - self.ylim[0]),
        )


@dataclass(frozen=True)
class RenderedChart:
    kind: str
    rgba: bytes = field(repr=False)
    width: int  # device pixels
    height: int
    device_pixel_ratio: float
    axes: AxesBox | None  # the first axes, for hover look-ups
    blitted: bool  # only the changed artists were drawn
    texts: tuple[str, ...] = ()  # what the chart writes: titles, ticks, value labels


@dataclass
class _Shown:
    figure: Figure
    canvas: FigureCanvasAgg
    size: tuple[int, int, float]
    frame: tuple | None = None  # frame_key of what is drawn
    margins: tuple | None = None  # (frame_key, subplot parameters) fitted to the labels
    values: list = field(default_factory=list)  # the value artists (animated)
    background: Any = None  # the frame's pixels (an Agg BufferRegion), without the values


_SUBPLOT_PARAMETERS = ("left", "right", "bottom", "top", "wspace", "hspace")


def layout(figure) -> dict:
    """Margins that fit the labels (a long model name, two-line dialect names); measuring them
    is slow, so the renderer keeps them while the labels stay the same."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a figure too small to fit keeps its margins
        figure.tight_layout(pad=0.6)
    return {k: getattr(figure.subplotpars, k) for k in _SUBPLOT_PARAMETERS}


class ChartRenderer:
    """The figures of one charts panel. Call :meth:`render` from one thread only."""

    def __init__(self) -> None:
        self._shown: dict[str, _Shown] = {}
        self.blits = 0  # live updates drawn by blitting
        self._owner: int | None = None

    def figure(self, kind: str):
        """The Figure last rendered for ``kind`` (None before): for tests and inspection."""
        shown = self._shown.get(kind)
        return shown.figure if shown else None

    def render(
        self, data: dict, size: tuple[int, int] = DEFAULT_SIZE, device_pixel_ratio: float = 1.0
    ) -> RenderedChart:
        from widgets.reports.chart_drawing import frame_key

        self._check_thread()
        kind = data["kind"]
        width, height = max(int(size[0]), 64), max(int(size[1]), 64)
        key = (width, height, float(device_pixel_ratio))
        shown = self._shown.get(kind)
        if shown is None or shown.size != key:
            shown = self._shown[kind] = self._new_figure(key)
        frame = frame_key(data)
        blitted = frame == shown.frame and shown.background is not None and not data.get("empty")
        if blitted:
            self._blit(shown, data)
            self.blits += 1
        else:
            self._draw_full(shown, data, frame)
        return RenderedChart(
            kind,
            bytes(shown.canvas.buffer_rgba()),
            width,
            height,
            float(device_pixel_ratio),
            _axes_box(shown.figure),
            blitted,
            _texts(shown.figure),
        )

    def forget(self, kind: str | None = None) -> None:
        """Drop figures (all, or one chart's): the next render draws anew."""
        self._check_thread()
        if kind is None:
            self._shown.clear()
        else:
            self._shown.pop(kind, None)

    # -- internals ---------------------------------------------------------------------------
    def _check_thread(self) -> None:
        """A renderer used from two threads would corrupt its figures: fail loudly instead."""
        ident = threading.get_ident()
        if self._owner is None:
            self._owner = ident
        elif self._owner != ident:
            raise RuntimeError(
                f"ChartRenderer used from a second thread; run it in the {CHARTS_LANE!r} lane only"
            )

    def _new_figure(self, key: tuple[int, int, float]) -> _Shown:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        from engine.text.fonts import register_matplotlib_fonts

        register_matplotlib_fonts()
        width, height, ratio = key
        dpi = BASE_DPI * ratio
        figure = Figure(figsize=(width / dpi, height / dpi), dpi=dpi)
        return _Shown(figure, FigureCanvasAgg(figure), key)

    def _draw_full(self, shown: _Shown, data: dict, frame: tuple) -> None:
        from widgets.reports.chart_drawing import draw

        shown.values = draw(shown.figure, data)
        if shown.margins is not None and shown.margins[0] == frame:
            shown.figure.subplots_adjust(**shown.margins[1])  # clear() forgot them
        elif shown.figure.axes:
            shown.margins = (frame, layout(shown.figure))
        for artist in shown.values:  # left out of the frame's pixels, drawn over them
            artist.set_animated(True)
        shown.canvas.draw()
        shown.frame = frame
        shown.background = shown.canvas.copy_from_bbox(shown.figure.bbox)
        self._draw_values(shown)

    def _blit(self, shown: _Shown, data: dict) -> None:
        from widgets.reports.chart_drawing import draw_values

        shown.values = draw_values(shown.figure, data, shown.values)
        for artist in shown.values:
            artist.set_animated(True)
        shown.canvas.restore_region(shown.background)
        self._draw_values(shown)

    @staticmethod
    def _draw_values(shown: _Shown) -> None:
        renderer = shown.canvas.get_renderer()
        for artist in sorted(shown.values, key=lambda a: a.get_zorder()):
            artist.draw(renderer)


def _texts(figure) -> tuple[str, ...]:
    from matplotlib.text import Text

    return tuple(t.get_text() for t in figure.findobj(Text) if t.get_visible() and t.get_text())


def _axes_box(figure) -> AxesBox | None:
    if not figure.axes:
        return None
    ax = figure.axes[0]
    box = ax.get_window_extent()
    (left, right), (bottom, top) = ax.get_xlim(), ax.get_ylim()
    return AxesBox(
        float(box.x0),
        float(box.y0),
        float(box.x1),
        float(box.y1),
        (float(left), float(right)),
        (float(bottom), float(top)),
    )


def prepare_charts() -> None:
    """Import matplotlib and register the chart fonts: the panel runs this in the charts lane
    when it is built, so the first chart drawn does not wait for them (the import is most of
    a first draw's cost). Safe from any thread: it creates no Figure."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: F401
    from matplotlib.figure import Figure  # noqa: F401

    import widgets.reports.chart_drawing  # noqa: F401
    from engine.text.fonts import register_matplotlib_fonts

    register_matplotlib_fonts()


def refresh_chart(
    renderer: ChartRenderer,
    workspace_path: str,
    kind: str,
    judge_run: int | None,
    *,
    resamples: int,
    previous: dict | None,
    size: tuple[int, int],
    device_pixel_ratio: float = 1.0,
    cancelled=None,
) -> tuple[dict, RenderedChart] | None:
    """The chart panel's background task: the data of ``kind``, then its image.
    None when superseded before it started (a newer request is queued behind it)."""
    if cancelled is not None and cancelled():
        return None
    data = reports.chart_data(
        workspace_path, kind, judge_run, resamples=resamples, previous=previous
    )
    return data, renderer.render(data, size, device_pixel_ratio)


def rerender_chart(
    renderer: ChartRenderer,
    data: dict,
    *,
    size: tuple[int, int],
    device_pixel_ratio: float = 1.0,
    cancelled=None,
) -> RenderedChart | None:
    """The same data at a new size (the view was resized)."""
    if cancelled is not None and cancelled():
        return None
    return renderer.render(data, size, device_pixel_ratio)


def save_chart(data: dict, path: str | Path) -> Path:
    """Write the chart of ``data`` as PNG, SVG or PDF (by the suffix) from a Figure of its
    own, so any thread may call it."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from engine.text.fonts import register_matplotlib_fonts
    from widgets.reports.chart_drawing import draw

    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in IMAGE_FORMATS:
        raise ValueError(f"export as {', '.join(IMAGE_FORMATS)}, not {fmt!r}")
    register_matplotlib_fonts()
    figure = Figure(figsize=EXPORT_SIZE_INCHES, dpi=BASE_DPI)
    FigureCanvasAgg(figure)
    draw(figure, data)
    if figure.axes:
        layout(figure)
    figure.savefig(path, format=fmt, dpi=150, bbox_inches="tight")
    return path
