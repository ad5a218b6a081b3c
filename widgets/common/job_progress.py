"""A panel's own view of the job it started: a progress bar with the phase and its ETA,
and a Cancel button; the same task the job monitor shows."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from engine.i18n import _, digits
from widgets.common.hints import for_gui
from widgets.common.job_monitor import eta_seconds, format_duration
from widgets.common.task_bridge import Task
from widgets.common.task_progress import count_text, shown_note


def progress_text(task: Task | None, done: int, total: int, note: str) -> str:
    """A running job's line: the phase as the engine names it, its count with its unit, and
    the phase's ETA ("estimating the time left…" while there is no honest figure)."""
    parts = [shown_note(for_gui(note)), count_text(done, total, note)]
    if task is not None and task.running:
        eta = eta_seconds(task)
        parts.append(
            _("estimating the time left…")
            if eta is None
            else _("ETA {eta}").format(eta=digits(format_duration(eta)))
        )
    return " · ".join(part for part in parts if part)


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
        """The phase as the engine names it, its count with its unit, and its ETA; the bar
        is busy while the phase has no count."""
        self.bar.setRange(0, total if total > 0 else 0)
        if total > 0:
            self.bar.setValue(min(done, total))
        self.note.setText(progress_text(self.task, done, total, note))

    def cancel(self) -> None:
        if self.task is not None and self.task.running:
            self.task.cancel()
            self.cancel_button.setEnabled(False)

    def finish(self) -> None:
        self.task = None
        self.setVisible(False)
