"""A panel's own view of the job it started: a progress bar with the phase and its ETA,
and a Cancel button; the same task the job monitor shows."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from engine.i18n import _
from widgets.common.job_monitor import eta_seconds, format_duration
from widgets.common.task_bridge import Task


class JobProgressRow(QWidget):
    """Hidden until :meth:`follow` is given a task; hidden again when :meth:`finish`."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.task: Task | None = None
        self.bar = QProgressBar()
        self.note = QLabel()
        self.cancel_button = QPushButton(_("Cancel"))
        self.cancel_button.clicked.connect(self.cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.bar, 1)
        layout.addWidget(self.note, 2)
        layout.addWidget(self.cancel_button)
        self.setVisible(False)

    def follow(self, task: Task) -> None:
        self.task = task
        self.bar.setRange(0, 0)  # busy until the first report
        self.note.setText("")
        self.cancel_button.setEnabled(True)
        self.setVisible(task.running)

    def show_progress(self, done: int, total: int, note: str) -> None:
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(min(done, max(total, 1)))
        eta = eta_seconds(self.task) if self.task is not None else None
        eta_text = "" if eta is None else " · " + _("ETA") + " " + format_duration(eta)
        self.note.setText(note + eta_text)

    def cancel(self) -> None:
        if self.task is not None and self.task.running:
            self.task.cancel()
            self.cancel_button.setEnabled(False)

    def finish(self) -> None:
        self.task = None
        self.setVisible(False)
