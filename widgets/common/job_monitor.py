"""JobMonitor: every background task of the bridge with progress, tokens/s, ETA and its log.

Progress signals only mark rows dirty; a 100 ms timer repaints them and appends the
selected job's new log lines in one call (docs/design.md, house style 7), so a job reporting
at full speed never floods the GUI thread.

``python -m widgets.common.job_monitor`` opens the monitor alone with a demonstration job.
"""

from __future__ import annotations

import logging
import sys
import time

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QHeaderView,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionProgressBar,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from engine.i18n import _, digits
from widgets.common.standalone import run_panel
from widgets.common.task_bridge import Task, TaskBridge
from widgets.common.task_progress import count_text, shown_note

log = logging.getLogger(__name__)

FLUSH_MS = 100
LOG_BLOCKS_KEPT = 5000
COLUMNS = ("Job", "State", "Progress", "Done", "Tokens/s", "ETA", "Elapsed")
PROGRESS_COLUMN = 2


def format_duration(seconds: float | None) -> str:
    if seconds is None:
        return ""
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def eta_seconds(task: Task) -> float | None:
    """Seconds left in the task's current phase (widgets.common.task_progress.PhaseClock)."""
    return task.clock.eta() if task.running else None


def eta_text(task: Task) -> str:
    """The ETA as shown: a duration, "estimating…" while the phase gives no honest figure
    (no count yet, a phase without one), '' once the task has ended."""
    if not task.running:
        return ""
    eta = eta_seconds(task)
    return _("estimating…") if eta is None else digits(format_duration(eta))


def tokens_per_second(task: Task) -> float | None:
    if not task.tokens or task.elapsed_s <= 0:
        return None
    return task.tokens / task.elapsed_s


class JobTableModel(QAbstractTableModel):
    """Rows are the bridge's tasks in start order (a model over task ids)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.tasks: list[Task] = []
        self.dirty: set[int] = set()

    def add(self, task: Task) -> None:
        self.beginInsertRows(QModelIndex(), len(self.tasks), len(self.tasks))
        self.tasks.append(task)
        self.endInsertRows()

    def remove_finished(self) -> list[Task]:
        gone = [t for t in self.tasks if not t.running]
        self.beginResetModel()
        self.tasks = [t for t in self.tasks if t.running]
        self.endResetModel()
        return gone

    def mark(self, task: Task) -> None:
        self.dirty.add(task.id)

    def flush(self) -> None:
        """Repaint rows changed since the last flush, plus running ones (elapsed, ETA)."""
        for row, task in enumerate(self.tasks):
            if task.id in self.dirty or task.running:
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))
        self.dirty.clear()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.tasks)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return _(COLUMNS[section])
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        task = self.tasks[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.UserRole:
            return task
        if role == Qt.ItemDataRole.ToolTipRole:
            return shown_note(task.note) or None
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if column == 0:
            return task.label
        if column == 1:
            return {
                "running": _("running"),
                "done": _("done"),
                "failed": _("failed"),
                "refused": _("input error"),
                "cancelled": _("cancelled"),
            }.get(task.state, task.state)
        if column == PROGRESS_COLUMN:
            return shown_note(task.note)
        if column == 3:
            return count_text(task.done, task.total, task.note)
        if column == 4:
            rate = tokens_per_second(task)
            return digits(f"{rate:.1f}") if rate is not None else ""
        if column == 5:
            return eta_text(task)
        if column == 6:
            return digits(format_duration(task.elapsed_s))
        return None


class ProgressDelegate(QStyledItemDelegate):
    """Draws a progress bar (busy when the total is unknown) instead of the note text."""

    def paint(self, painter, option, index) -> None:
        task: Task = index.data(Qt.ItemDataRole.UserRole)
        bar = QStyleOptionProgressBar()
        bar.rect = option.rect.adjusted(2, 3, -2, -3)
        bar.minimum = 0
        bar.maximum = max(task.total, 1)
        bar.progress = min(task.done, bar.maximum)
        if task.state == "done":
            bar.progress = bar.maximum
        bar.textVisible = True
        bar.text = (
            digits(f"{100 * bar.progress // bar.maximum}%") if task.total else shown_note(task.note)
        )
        bar.state = option.state | QStyle.StateFlag.State_Horizontal
        style = option.widget.style() if option.widget else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ProgressBar, bar, painter)


class JobMonitor(QWidget):
    sig_job_selected = Signal(object)  # Task or None

    def __init__(self, bridge: TaskBridge, parent: QWidget | None = None):
        super().__init__(parent)
        self.bridge = bridge
        self.model = JobTableModel(self)
        for task in bridge.tasks():
            self.model.add(task)
        bridge.sig_task_started.connect(self.model.add)
        bridge.sig_task_progress.connect(self.model.mark)
        bridge.sig_task_finished.connect(self.model.mark)

        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setItemDelegateForColumn(PROGRESS_COLUMN, ProgressDelegate(self.view))
        self.view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.view.verticalHeader().hide()
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(PROGRESS_COLUMN, QHeaderView.ResizeMode.Fixed)
        header.resizeSection(PROGRESS_COLUMN, 220)
        self.view.selectionModel().currentRowChanged.connect(self._select)

        self.log_view = QPlainTextEdit()
        self.log_view.setReadOnly(True)
        self.log_view.setMaximumBlockCount(LOG_BLOCKS_KEPT)
        self.log_view.setPlaceholderText(_("Select a job to see its log."))
        self.cancel_button = QPushButton(_("Cancel job"))
        self.cancel_button.clicked.connect(self.cancel_selected)
        self.cancel_all_button = QPushButton(_("Cancel all"))
        self.cancel_all_button.clicked.connect(bridge.cancel_all)
        self.clear_button = QPushButton(_("Clear finished"))
        self.clear_button.clicked.connect(self.clear_finished)

        buttons = QHBoxLayout()
        for button in (self.cancel_button, self.cancel_all_button, self.clear_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.view)
        splitter.addWidget(self.log_view)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(buttons)
        layout.addWidget(splitter, 1)

        self.selected: Task | None = None
        self._log_shown = 0
        self.timer = QTimer(self)
        self.timer.setInterval(FLUSH_MS)
        self.timer.timeout.connect(self.flush)
        self.timer.start()

    def selected_task(self) -> Task | None:
        return self.selected

    def _select(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.selected = self.model.tasks[current.row()] if current.isValid() else None
        self.log_view.clear()
        self._log_shown = 0
        self.flush()
        self.sig_job_selected.emit(self.selected)

    def flush(self) -> None:
        """The 100 ms tick: repaint changed rows, append the selected job's new log lines."""
        self.model.flush()
        task = self.selected
        if task is None:
            return
        fresh = task.log_total - self._log_shown
        if fresh > 0:
            lines = list(task.log_lines)
            self.log_view.appendPlainText("\n".join(lines[-min(fresh, len(lines)) :]))
            self._log_shown = task.log_total
        self.cancel_button.setEnabled(task.running)

    def cancel_selected(self) -> None:
        if self.selected is not None and self.selected.running:
            self.selected.cancel()
            log.info("cancel requested for %r", self.selected.label)

    def clear_finished(self) -> None:
        for task in self.model.remove_finished():
            self.bridge.forget(task)
        self.selected = None
        self.log_view.clear()
        self._log_shown = 0


def _demo_job(n: int, progress, cancelled) -> int:
    """A stand-in generation job for the standalone monitor: items with tokens."""
    demo_log = logging.getLogger("demo.job")
    for i in range(1, n + 1):
        if cancelled():
            demo_log.info("cancelled after %d items", i - 1)
            return i - 1
        time.sleep(0.05)
        progress(i, n, f"item {i}", tokens=i * 37)
        if i % 20 == 0:
            demo_log.info("checkpoint: %d items written", i)
    return n


def main(argv: list[str] | None = None) -> int:
    def after_show(monitor, bridge, args, workspace):
        bridge.run(_demo_job, args=(400,), label="demo: answer 400 questions")
        bridge.run(_demo_job, args=(120,), label="demo: translate 120 variants")

    return run_panel(
        "python -m widgets.common.job_monitor",
        _("Jobs"),
        lambda workspace, bridge, args: JobMonitor(bridge),
        sample=None,
        size=(900, 500),
        after_show=after_show,
        argv=argv,
    )


if __name__ == "__main__":
    sys.exit(main())
