"""ChartsPanel: live bias charts of a judge run, drawn by matplotlib off the GUI thread.

Six charts — model × dialect heatmap, per-dialect scores with clustered bootstrap CIs,
domain and question-type breakdowns, judge agreement scatter, score distributions, CBS.
Their numbers are computed by :mod:`engine.reports.chart_data` (engine.stats underneath) and their
figures rendered with matplotlib's Agg canvas (:mod:`widgets.reports.chart_renderer`), both in one
background task through the bridge; the panel only paints the finished image
(:class:`widgets.reports.chart_view.ChartView`). FigureCanvasQTAgg would draw on the GUI thread,
slow for each chart at the paper's scale: a stall at every live update. matplotlib is
imported by the worker when the first chart is drawn, so the main window opens fast.

Live updates are buffered (docs/design.md, house style 7): the workspace watcher
(:mod:`widgets.common.workspace_watcher`, at most once a second) says judgments, overrides or runs
changed; every chart is then out of date and the *visible* one is recomputed and redrawn
once. Never per judgment; one refresh in flight at a time, and a change that arrives during
it is drawn right after.

``python -m widgets.reports.charts_panel [WORKSPACE] [--live]`` opens the panel alone on a sample
study (synthetic scores); ``--live`` streams more judgments in while you watch.
"""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from engine.i18n import _, ngettext
from engine.reports import api as reports
from engine.workspace.api import Workspace
from widgets.common import file_dialogs
from widgets.common.file_dialogs import REPORTS
from widgets.common.labels import label
from widgets.common.standalone import run_panel
from widgets.common.task_bridge import WRITER, TaskBridge, describe_error
from widgets.common.workspace_watcher import WorkspaceWatcher
from widgets.reports.chart_renderer import (
    CHARTS_LANE,
    ChartRenderer,
    RenderedChart,
    prepare_charts,
    refresh_chart,
    rerender_chart,
    save_chart,
)
from widgets.reports.chart_view import ChartView

log = logging.getLogger(__name__)

# the topics that change what a chart shows
CHART_TOPICS = frozenset({"judgments", "annotations", "runs", "models"})


def chart_titles() -> dict[str, str]:
    return {
        "heatmap": _("Model × dialect"),
        "dialects": _("Dialects (95% CI)"),
        "breakdown": _("Domains and types"),
        "agreement": _("Judge agreement"),
        "distribution": _("Score distributions"),
        "cbs": _("CBS"),
    }


class ChartsPanel(QWidget):
    sig_status_message = Signal(str)
    sig_refreshed = Signal(str, float, bool)  # chart kind, ms from request to drawn, full

    def __init__(
        self,
        workspace: Workspace,
        bridge: TaskBridge,
        *,
        watcher: WorkspaceWatcher | None = None,
        parent: QWidget | None = None,
    ):
        """``watcher``: the window's workspace watcher (a panel alone makes its own)."""
        super().__init__(parent)
        self.ws = workspace
        self.bridge = bridge
        self.data: dict[str, dict] = {}
        self.renderer = ChartRenderer()  # used by the charts lane's worker only
        self._dirty: set[str] = set(reports.CHART_KINDS)
        self._in_flight: str | None = None
        # (perf_counter, full) of a refresh: asked, data not back yet / drawn, not painted yet
        self._requested_at: dict[str, tuple] = {}
        self._awaiting_draw: dict[str, tuple] = {}

        titles = chart_titles()
        self.chart_list = QListWidget()
        for kind in reports.CHART_KINDS:
            self.chart_list.addItem(titles[kind])
        self.chart_list.setFixedWidth(180)
        self.chart_list.currentRowChanged.connect(self._on_chart_changed)
        self.stack = QStackedWidget()
        self.views: dict[str, ChartView] = {}
        for kind in reports.CHART_KINDS:
            view = ChartView()
            view.sig_painted.connect(lambda k=kind: self._on_painted(k))
            view.sig_resized.connect(lambda k=kind: self._rerender(k))
            self.views[kind] = view
            self.stack.addWidget(view)
        self.views["heatmap"].sig_hover.connect(self._on_heatmap_hover)

        self.judge = QComboBox()
        self.judge.currentIndexChanged.connect(self._on_judge_changed)
        self.live = QCheckBox(_("Live"))
        self.live.setChecked(True)
        self.live.setToolTip(_("Redraw the visible chart once a second while judgments arrive"))
        self.live.toggled.connect(self._on_live_toggled)
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

        self.watcher = watcher or WorkspaceWatcher(workspace.path, parent=self)
        self.watcher.sig_changed.connect(self.on_workspace_changed)
        # matplotlib's import, while another tab is shown, so the first chart waits for its
        # data only; after the events queued now (the window's first paint among them)
        QTimer.singleShot(0, self._prepare_charts)
        self._fill_judges()
        self.chart_list.setCurrentRow(0)

    # -- public API ------------------------------------------------------------------------
    @property
    def current_kind(self) -> str:
        return reports.CHART_KINDS[max(self.chart_list.currentRow(), 0)]

    def show_chart(self, kind: str) -> None:
        self.chart_list.setCurrentRow(reports.CHART_KINDS.index(kind))

    def mark_dirty(self) -> None:
        """Something changed (an override, a new run): every chart recomputes when shown."""
        self._dirty = set(reports.CHART_KINDS)

    def refresh(self, *, full: bool = True) -> None:
        """Recompute and redraw the visible chart (``full``: the default bootstrap resamples)."""
        kind = self.current_kind
        if not self.isVisible():
            self._dirty.add(kind)
            return
        if self._in_flight is not None:  # one at a time; the tick after it picks this up
            self._dirty.add(kind)
            return
        self._dirty.discard(kind)
        self._in_flight = kind
        self._requested_at[kind] = (time.perf_counter(), full)
        resamples = reports.DEFAULT_RESAMPLES if full else reports.LIVE_RESAMPLES
        view = self.views[kind]
        self.bridge.run(
            refresh_chart,
            args=(self.renderer, str(self.ws.path), kind, self.judge.currentData()),
            kwargs={
                "resamples": resamples,
                "previous": None if full else self.data.get(kind),
                "size": view.pixel_size(),
                "device_pixel_ratio": view.devicePixelRatioF(),
            },
            label=_("Chart: {name}").format(name=chart_titles()[kind]),
            lane=CHARTS_LANE,
            replace="charts",
            quiet=True,
            on_done=self._on_rendered,
            on_error=self._on_error,
        )

    def export_image(self, path: str | Path, kind: str | None = None) -> Path:
        """The chart as PNG, SVG or PDF (by the suffix), from a Figure of its own."""
        data = self.data.get(kind or self.current_kind)
        if data is None:
            raise ValueError("the chart has no data yet")
        return save_chart(data, path)

    def export_table(self, path: str | Path, kind: str | None = None) -> int:
        data = self.data.get(kind or self.current_kind)
        if data is None:
            raise ValueError("the chart has no data yet")
        return reports.write_table_csv(data["table"], path)

    def export_image_dialog(self) -> None:
        kind = self.current_kind
        if kind not in self.data:
            self.sig_status_message.emit(_("The chart has no data yet."))
            return
        path = file_dialogs.save_file(
            self,
            REPORTS,
            _("Export chart"),
            f"{kind}.png",
            "PNG (*.png);;SVG (*.svg);;PDF (*.pdf)",
            fallback=self.ws.path.parent,
        )
        if path and kind in self.data:
            self.bridge.run(
                save_chart,
                args=(self.data[kind], path),
                label=_("Export chart"),
                lane=CHARTS_LANE,
                on_done=lambda written: self.sig_status_message.emit(
                    _("Chart written to {path}").format(path=written)
                ),
            )

    def export_table_dialog(self) -> None:
        kind = self.current_kind
        if kind not in self.data:
            self.sig_status_message.emit(_("The chart has no data yet."))
            return
        path = file_dialogs.save_file(
            self,
            REPORTS,
            _("Export table"),
            f"{kind}.csv",
            "CSV (*.csv)",
            fallback=self.ws.path.parent,
        )
        if path:
            rows = self.export_table(path, kind)
            written = ngettext("{n} row written to {path}", "{n} rows written to {path}", rows)
            self.sig_status_message.emit(written.format(n=rows, path=path))

    # -- drawing ---------------------------------------------------------------------------
    def _prepare_charts(self) -> None:
        self.bridge.run(prepare_charts, label=_("Charts"), lane=CHARTS_LANE, quiet=True)

    def _on_rendered(self, result: tuple[dict, RenderedChart] | None) -> None:
        self._in_flight = None
        if result is None:  # superseded before it started
            return
        data, image = result
        kind = data["kind"]
        started = self._requested_at.pop(kind, None)
        if started is not None:
            self._awaiting_draw[kind] = started
        self.data[kind] = data
        self.views[kind].set_image(image)
        if kind == self.current_kind:
            self._show_footer(kind)
        self._follow_up(kind)

    def _show_footer(self, kind: str) -> None:
        """The shown chart's own count (the one its title says: the same data), never the
        count of another chart computed meanwhile."""
        data = self.data.get(kind)
        self.info.setText(
            ""
            if data is None
            else _("{n} judgments · judge run {run}").format(
                n=data.get("n", 0), run=data.get("judge_run") or "—"
            )
        )

    def _follow_up(self, done_kind: str) -> None:
        """After a task: the chart shown now may have been asked for, changed or been resized
        meanwhile."""
        kind = self.current_kind
        if kind in self._dirty and kind != done_kind:
            QTimer.singleShot(0, lambda: self.refresh(full=True))
        elif kind in self._dirty and self.live.isChecked():  # more data came while drawing
            QTimer.singleShot(0, lambda: self.refresh(full=False))
        elif kind in self.data and not self.views[kind].fits():
            QTimer.singleShot(0, lambda: self._rerender(kind))

    def _rerender(self, kind: str) -> None:
        """Draw the shown data again at the view's new size (no recomputation)."""
        view = self.views[kind]
        if self._in_flight is not None or kind not in self.data or not view.isVisible():
            return
        self._in_flight = kind
        self.bridge.run(
            rerender_chart,
            args=(self.renderer, self.data[kind]),
            kwargs={"size": view.pixel_size(), "device_pixel_ratio": view.devicePixelRatioF()},
            label=_("Chart: {name}").format(name=chart_titles()[kind]),
            lane=CHARTS_LANE,
            replace="charts",
            quiet=True,
            on_done=lambda image: self._on_rerendered(kind, image),
            on_error=self._on_error,
        )

    def _on_rerendered(self, kind: str, image: RenderedChart | None) -> None:
        self._in_flight = None
        if image is not None:
            self.views[kind].set_image(image)
        self._follow_up(kind)

    def _on_painted(self, kind: str) -> None:
        started = self._awaiting_draw.pop(kind, None)
        if started is not None:
            self.sig_refreshed.emit(kind, (time.perf_counter() - started[0]) * 1000, started[1])

    def _on_heatmap_hover(self, x: float, y: float) -> None:
        from widgets.reports.chart_drawing import heatmap_value_at

        data = self.data.get("heatmap")
        text = heatmap_value_at(data, x, y) if data is not None else None
        if text:
            self.info.setText(text)

    def _on_error(self, exc: BaseException) -> None:
        self._in_flight = None
        log.warning("chart data failed: %s", exc)
        self.sig_status_message.emit(
            _("Chart failed: {error}").format(error=describe_error(exc, one_line=True))
        )

    # -- live updates (the workspace watcher's signals) -------------------------------------
    def on_workspace_changed(self, topics: frozenset[str]) -> None:
        if not topics & CHART_TOPICS:
            return
        self.mark_dirty()
        if topics & {"runs", "models"}:
            self._fill_judges()
        if self.live.isChecked() and self.isVisible() and self._in_flight is None:
            self.refresh(full=False)

    def _on_live_toggled(self, live: bool) -> None:
        """Live again: catch up with what arrived while paused."""
        if live and self.current_kind in self._dirty and self.isVisible():
            self.refresh(full=False)

    def _on_judge_changed(self, _index: int) -> None:
        self.mark_dirty()
        self.refresh(full=True)

    def _fill_judges(self) -> None:
        """The judge runs to choose from, with their roles (cheap: no judgment counts)."""
        runs = reports.judge_run_choices(self.ws)
        current = self.judge.currentData()
        self.judge.blockSignals(True)
        self.judge.clear()
        self.judge.addItem(_("primary judge"), None)
        for run in runs:
            self.judge.addItem(
                _("{model} · run {run} · {role}").format(
                    model=run["model"] or "?",
                    run=run["run_id"],
                    role=label("judge_role", run["role"]),
                ),
                run["run_id"],
            )
        index = self.judge.findData(current)
        self.judge.setCurrentIndex(max(index, 0))
        self.judge.blockSignals(False)

    def _on_chart_changed(self, row: int) -> None:
        if row < 0:
            return
        kind = reports.CHART_KINDS[row]
        self.stack.setCurrentWidget(self.views[kind])
        self._show_footer(kind)
        if kind in self._dirty or kind not in self.data:
            self.refresh(full=True)
        elif not self.views[kind].fits():
            self._rerender(kind)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        kind = self.current_kind
        self.stack.setCurrentWidget(self.views[kind])
        if kind in self._dirty or kind not in self.data:
            QTimer.singleShot(0, lambda: self.refresh(full=True))
        elif not self.views[kind].fits():
            QTimer.singleShot(0, lambda: self._rerender(kind))


def main(argv: list[str] | None = None) -> int:
    # the sample study builders: slow to import, only for --live
    from engine.samples import api as samples

    def add_arguments(parser):
        parser.add_argument(
            "--live",
            action="store_true",
            help="stream synthetic judgments of a third judge while you watch",
        )

    def after_show(panel, bridge, args, workspace):
        if args.live:
            bridge.run(
                samples.demo_stream,
                args=(str(workspace.path),),
                label="demo: stream judgments",
                lane=WRITER,
            )

    return run_panel(
        "python -m widgets.reports.charts_panel",
        _("Charts"),
        lambda workspace, bridge, args: ChartsPanel(workspace, bridge),
        sample="study",
        size=(1300, 760),
        add_arguments=add_arguments,
        after_show=after_show,
        argv=argv,
    )


if __name__ == "__main__":
    sys.exit(main())
