"""ChartsPanel: live bias charts of a judge run, embedded matplotlib (FigureCanvasQTAgg).

Six charts — model × dialect heatmap, per-dialect scores with clustered bootstrap CIs,
domain and question-type breakdowns, judge agreement scatter, score distributions, CBS.
Their numbers are computed by :mod:`engine.chart_data` (engine.stats underneath) in a
background task through the bridge; the panel only draws. matplotlib is imported when the
panel is first shown, so the main window opens fast.

Live updates are buffered (DESIGN.md, house style 7): a 1 s timer looks whether the
workspace changed (``PRAGMA data_version`` sees other connections' commits; ``mark_dirty``
this process's own writes) and, if so, recomputes the *visible* chart once and redraws it
with ``draw_idle()``. Never per judgment; one computation in flight at a time.

``python -m widgets.charts_panel [WORKSPACE] [--live]`` opens the panel alone on a sample
study (synthetic scores); ``--live`` streams more judgments in while you watch.
"""

from __future__ import annotations

import csv
import logging
import sys
import time
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFileDialog, QHBoxLayout, QLabel,
                               QListWidget, QPushButton, QStackedWidget, QVBoxLayout, QWidget)

from engine import chart_data
from engine.i18n import _
from widgets.task_bridge import TaskBridge
from engine.judging import store
from engine.workspace import Workspace

log = logging.getLogger(__name__)

LIVE_INTERVAL_MS = 1000
IMAGE_FORMATS = ("png", "svg", "pdf")
FIGURE_SIZE = (11.0, 6.5)


def chart_titles() -> dict[str, str]:
    return {"heatmap": _("Model × dialect"), "dialects": _("Dialects (95% CI)"),
            "breakdown": _("Domains and types"), "agreement": _("Judge agreement"),
            "distribution": _("Score distributions"), "cbs": _("CBS")}


def write_table_csv(table: dict, path: str | Path) -> int:
    """The chart's underlying table as CSV: UTF-8 with BOM, formula-safe (as the exporters)."""
    from engine.exporters import neutralize

    with open(path, "w", encoding="utf-8-sig", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(table["columns"])
        for row in table["rows"]:
            writer.writerow([neutralize(v) for v in row])
    return len(table["rows"])


class ChartsPanel(QWidget):
    sig_status_message = Signal(str)
    sig_refreshed = Signal(str, float, bool)  # chart kind, ms from request to drawn, full

    def __init__(self, workspace: Workspace, bridge: TaskBridge, *,
                 live_interval_ms: int = LIVE_INTERVAL_MS, parent: QWidget | None = None):
        super().__init__(parent)
        self.ws = workspace
        self.bridge = bridge
        self.data: dict[str, dict] = {}
        self.figures: dict[str, object] = {}
        self.canvases: dict[str, QWidget] = {}
        self._dirty: set[str] = set(chart_data.CHART_KINDS)
        self._in_flight: str | None = None
        # (perf_counter, full) of a refresh: asked, data not back yet / drawn, not painted yet
        self._requested_at: dict[str, tuple] = {}
        self._awaiting_draw: dict[str, tuple] = {}
        self._data_version = self._read_data_version()
        self._judge_runs_seen = -1
        self._heatmap_background = None
        self.fast_redraws = 0            # live heatmap updates done by blitting

        titles = chart_titles()
        self.chart_list = QListWidget()
        for kind in chart_data.CHART_KINDS:
            self.chart_list.addItem(titles[kind])
        self.chart_list.setFixedWidth(180)
        self.chart_list.currentRowChanged.connect(self._on_chart_changed)
        self.stack = QStackedWidget()
        self._placeholders = {}
        for kind in chart_data.CHART_KINDS:
            placeholder = QLabel(_("Loading…"))
            placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self._placeholders[kind] = placeholder
            self.stack.addWidget(placeholder)

        self.judge = QComboBox()
        self.judge.currentIndexChanged.connect(lambda _i: self.mark_dirty())
        self.live = QCheckBox(_("Live"))
        self.live.setChecked(True)
        self.live.setToolTip(_("Redraw the visible chart once a second while judgments arrive"))
        self.refresh_button = QPushButton(_("Refresh"))
        self.refresh_button.clicked.connect(lambda: self.refresh(full=True))
        self.export_image_button = QPushButton(_("Export chart…"))
        self.export_image_button.clicked.connect(self.export_image_dialog)
        self.export_csv_button = QPushButton(_("Export table (CSV)…"))
        self.export_csv_button.clicked.connect(self.export_table_dialog)
        self.info = QLabel()
        self.info.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        top = QHBoxLayout()
        top.addWidget(QLabel(_("Judge")))
        top.addWidget(self.judge, 1)
        top.addWidget(self.live)
        top.addWidget(self.refresh_button)
        top.addWidget(self.export_image_button)
        top.addWidget(self.export_csv_button)
        body = QHBoxLayout()
        body.addWidget(self.chart_list)
        body.addWidget(self.stack, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(body, 1)
        layout.addWidget(self.info)

        self.timer = QTimer(self)
        self.timer.setInterval(live_interval_ms)
        self.timer.timeout.connect(self._tick)   # runs while the panel is shown
        self._fill_judges()
        self.chart_list.setCurrentRow(0)

    # -- public API ------------------------------------------------------------------------
    @property
    def current_kind(self) -> str:
        return chart_data.CHART_KINDS[max(self.chart_list.currentRow(), 0)]

    def show_chart(self, kind: str) -> None:
        self.chart_list.setCurrentRow(chart_data.CHART_KINDS.index(kind))

    def mark_dirty(self) -> None:
        """Something changed (an override, a new run): every chart recomputes when shown."""
        self._dirty = set(chart_data.CHART_KINDS)

    def refresh(self, *, full: bool = True) -> None:
        """Recompute and redraw the visible chart (``full``: the default bootstrap resamples)."""
        kind = self.current_kind
        if not self.isVisible():
            self._dirty.add(kind)
            return
        if self._in_flight is not None:   # one at a time; the tick after it picks this up
            self._dirty.add(kind)
            return
        self._ensure_canvas(kind)
        self._dirty.discard(kind)
        self._in_flight = kind
        self._requested_at[kind] = (time.perf_counter(), full)
        resamples = chart_data.DEFAULT_RESAMPLES if full else chart_data.LIVE_RESAMPLES
        self.bridge.run(chart_data.chart_data, str(self.ws.path), kind, self.judge.currentData(),
                        resamples=resamples, previous=None if full else self.data.get(kind),
                        label=_("Chart: {name}").format(
                            name=chart_titles()[kind]), replace="charts",
                        on_done=self._on_data, on_error=self._on_error)

    def export_image(self, path: str | Path, kind: str | None = None) -> Path:
        kind = kind or self.current_kind
        path = Path(path)
        fmt = path.suffix.lower().lstrip(".")
        if fmt not in IMAGE_FORMATS:
            raise ValueError(f"export as {', '.join(IMAGE_FORMATS)}, not {fmt!r}")
        self._ensure_canvas(kind)
        image = self._heatmap_image() if kind == "heatmap" else None
        animated = image is not None and image.get_animated()
        if animated:       # savefig leaves animated artists out
            image.set_animated(False)
        try:
            self.figures[kind].savefig(path, format=fmt, dpi=150, bbox_inches="tight")
        finally:
            if animated:
                image.set_animated(True)
                self.canvases[kind].draw_idle()
        return path

    def export_table(self, path: str | Path, kind: str | None = None) -> int:
        data = self.data.get(kind or self.current_kind)
        if data is None:
            raise ValueError("the chart has no data yet")
        return write_table_csv(data["table"], path)

    def export_image_dialog(self) -> None:
        kind = self.current_kind
        path, _filter = QFileDialog.getSaveFileName(
            self, _("Export chart"), str(self.ws.path.with_name(f"{kind}.png")),
            "PNG (*.png);;SVG (*.svg);;PDF (*.pdf)")
        if path:
            self.export_image(path, kind)
            self.sig_status_message.emit(_("Chart written to {path}").format(path=path))

    def export_table_dialog(self) -> None:
        kind = self.current_kind
        if kind not in self.data:
            self.sig_status_message.emit(_("The chart has no data yet."))
            return
        path, _filter = QFileDialog.getSaveFileName(
            self, _("Export table"), str(self.ws.path.with_name(f"{kind}.csv")), "CSV (*.csv)")
        if path:
            rows = self.export_table(path, kind)
            self.sig_status_message.emit(_("{n} rows written to {path}").format(n=rows, path=path))

    # -- drawing ---------------------------------------------------------------------------
    def _ensure_canvas(self, kind: str) -> None:
        if kind in self.canvases:
            return
        from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
        from matplotlib.figure import Figure

        from widgets.fonts import register_matplotlib_fonts

        register_matplotlib_fonts()
        figure = Figure(figsize=FIGURE_SIZE, dpi=100)
        canvas = FigureCanvasQTAgg(figure)
        canvas.mpl_connect("draw_event", lambda _event, k=kind: self._on_drawn(k))
        if kind == "heatmap":
            canvas.mpl_connect("motion_notify_event", self._on_heatmap_hover)
        self.figures[kind] = figure
        self.canvases[kind] = canvas
        placeholder = self._placeholders.pop(kind)
        index = self.stack.indexOf(placeholder)
        self.stack.insertWidget(index, canvas)
        self.stack.removeWidget(placeholder)
        placeholder.deleteLater()
        if kind == self.current_kind:
            self.stack.setCurrentWidget(canvas)

    def _on_data(self, data: dict) -> None:
        from widgets.chart_drawing import draw

        kind = data["kind"]
        self._in_flight = None
        started = self._requested_at.pop(kind, None)
        if started is not None:
            self._awaiting_draw[kind] = started
        in_place = draw(self.figures[kind], data, self.data.get(kind))
        self.data[kind] = data
        if not (in_place and kind == "heatmap" and self._blit_heatmap()):
            self._layout(kind)
            self._heatmap_background = None
            self._animate_heatmap_image(kind)
            self.canvases[kind].draw_idle()
        self.info.setText(_("{n} judgments · judge run {run}").format(
            n=data.get("n", 0), run=data.get("judge_run") or "—"))
        if self.current_kind in self._dirty and self.current_kind != kind:
            QTimer.singleShot(0, lambda: self.refresh(full=True))

    def _layout(self, kind: str) -> None:
        """Fixed margins: constrained layout would measure every label on each live redraw."""
        margins = {"heatmap": dict(left=0.15, right=0.98, bottom=0.13, top=0.94),
                   "cbs": dict(left=0.07, right=0.98, bottom=0.18, top=0.93)}
        self.figures[kind].subplots_adjust(**margins.get(
            kind, dict(left=0.08, right=0.97, bottom=0.14, top=0.93, wspace=0.08)))

    # A live heatmap update changes only the image's colours (at the paper's 19 × 9 the cells
    # carry no labels): the image is an animated artist, drawn over a saved background and
    # blitted (~10 ms) instead of re-rendering every tick label (~80 ms on two cores).
    def _heatmap_image(self):
        axes = self.figures["heatmap"].axes if "heatmap" in self.figures else []
        if not axes or not axes[0].images or axes[0].texts:
            return None
        return axes[0].images[0]

    def _animate_heatmap_image(self, kind: str) -> None:
        image = self._heatmap_image() if kind == "heatmap" else None
        if image is not None:
            image.set_animated(True)

    def _blit_heatmap(self) -> bool:
        image = self._heatmap_image()
        background = getattr(self, "_heatmap_background", None)
        if image is None or background is None or not image.get_animated():
            return False
        canvas = self.canvases["heatmap"]
        canvas.restore_region(background)
        image.axes.draw_artist(image)
        canvas.blit(self.figures["heatmap"].bbox)
        self.fast_redraws += 1
        self._on_drawn("heatmap")
        return True

    def _on_drawn(self, kind: str) -> None:
        if kind == "heatmap":
            image = self._heatmap_image()
            if image is not None and image.get_animated():
                canvas = self.canvases["heatmap"]
                self._heatmap_background = canvas.copy_from_bbox(self.figures["heatmap"].bbox)
                image.axes.draw_artist(image)
        started = self._awaiting_draw.pop(kind, None)
        if started is not None:
            self.sig_refreshed.emit(kind, (time.perf_counter() - started[0]) * 1000, started[1])

    def _on_heatmap_hover(self, event) -> None:
        from widgets.chart_drawing import heatmap_value_at

        data = self.data.get("heatmap")
        axes = self.figures["heatmap"].axes
        if data is None or not axes or event.inaxes is not axes[0]:
            return
        text = heatmap_value_at(data, event.xdata, event.ydata)
        if text:
            self.info.setText(text)

    def _on_error(self, exc: BaseException) -> None:
        self._in_flight = None
        log.warning("chart data failed: %s", exc)
        self.sig_status_message.emit(_("Chart failed: {error}").format(error=exc))

    # -- live updates ----------------------------------------------------------------------
    def _read_data_version(self) -> int:
        return self.ws.scalar("PRAGMA data_version")

    def _check_changes(self) -> None:
        version = self._read_data_version()
        if version != self._data_version:
            self._data_version = version
            self.mark_dirty()
            self._fill_judges()

    def _tick(self) -> None:
        self._check_changes()
        if self.live.isChecked() and self.current_kind in self._dirty and self.isVisible():
            self.refresh(full=False)

    def _fill_judges(self) -> None:
        runs = store.judge_runs(self.ws)
        if len(runs) == self._judge_runs_seen:
            return
        self._judge_runs_seen = len(runs)
        current = self.judge.currentData()
        self.judge.blockSignals(True)
        self.judge.clear()
        self.judge.addItem(_("primary judge"), None)
        for run in runs:
            self.judge.addItem(f"{run['model'] or '?'} · run {run['run_id']} · {run['role']}",
                               run["run_id"])
        index = self.judge.findData(current)
        self.judge.setCurrentIndex(max(index, 0))
        self.judge.blockSignals(False)

    def _on_chart_changed(self, row: int) -> None:
        if row < 0:
            return
        kind = chart_data.CHART_KINDS[row]
        if self.isVisible():
            self._ensure_canvas(kind)
        widget = self.canvases.get(kind) or self._placeholders.get(kind)
        self.stack.setCurrentWidget(widget)
        if kind in self._dirty or kind not in self.data:
            self.refresh(full=True)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.timer.start()
        self._check_changes()
        kind = self.current_kind
        self._ensure_canvas(kind)
        self.stack.setCurrentWidget(self.canvases[kind])
        if kind in self._dirty or kind not in self.data:
            QTimer.singleShot(0, lambda: self.refresh(full=True))

    def hideEvent(self, event) -> None:
        self.timer.stop()
        super().hideEvent(event)


def main(argv: list[str] | None = None) -> int:
    from engine import sample_study
    from widgets.standalone import run_panel
    from widgets.task_bridge import WRITER

    def add_arguments(parser):
        parser.add_argument("--live", action="store_true",
                            help="stream synthetic judgments of a third judge while you watch")

    def after_show(panel, bridge, args, workspace):
        if args.live:
            bridge.run(sample_study.demo_stream, str(workspace.path),
                       label="demo: stream judgments", lane=WRITER)

    return run_panel("python -m widgets.charts_panel", _("Charts"),
                     lambda workspace, bridge, args: ChartsPanel(workspace, bridge),
                     sample="study", size=(1300, 760), add_arguments=add_arguments,
                     after_show=after_show, argv=argv)


if __name__ == "__main__":
    sys.exit(main())
