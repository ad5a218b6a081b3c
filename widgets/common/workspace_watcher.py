"""WorkspaceWatcher: the GUI's one change signal for an open workspace.

One timer, one :class:`engine.workspace.changes.ChangeTracker` poll per tick (``PRAGMA
data_version``, and only when that moved one stamp query), and typed signals the panels
subscribe to — instead of each panel polling on a timer of its own. The tracker has its own
connection, so commits of every connection show: a job in a worker, another process, and the
window's own writes. A panel that just wrote calls :meth:`check_now` (or the window connects
its ``sig_changed`` to it) so the others follow at once rather than on the next tick.

Signals carry no payload but the topic set; a subscriber re-reads what it shows. While it is
hidden a panel only notes that it is out of date (cheap), and catches up when shown.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QTimer, Signal, SignalInstance
from PySide6.QtWidgets import QWidget

from engine.workspace.api import TOPICS, ChangeTracker

log = logging.getLogger(__name__)

INTERVAL_MS = 1000  # live views redraw at most once a second (docs/design.md, house style 7)


class WorkspaceWatcher(QObject):
    sig_changed = Signal(object)  # frozenset of topic names (engine.workspace.changes.TOPICS)
    sig_questions = Signal()  # question sets or questions added or removed
    sig_variants = Signal()  # variants added, edited or reviewed
    sig_models = Signal()  # models registered, removed or re-configured
    sig_runs = Signal()  # runs added, removed, finished; the primary judge changed
    sig_responses = Signal()  # answers (or drafts, raw judge replies) stored
    sig_judgments = Signal()  # judgments stored
    sig_annotations = Signal()  # human overrides stored
    sig_probes = Signal()  # probe sets imported, reply normalisation edited
    sig_annotators = Signal()  # annotators added or their dialects changed
    sig_assignments = Signal()  # batches assigned
    sig_decisions = Signal()  # annotation decisions made, merged from packages, adjudicated
    sig_task_runs = Signal()  # task runs started or finished, task item sets imported
    sig_probe_runs = Signal()  # probe runs started or finished

    def __init__(
        self,
        path: str | Path,
        *,
        interval_ms: int = INTERVAL_MS,
        start: bool = True,
        parent: QObject | None = None,
    ):
        super().__init__(parent)
        self.tracker: ChangeTracker | None = ChangeTracker(path)
        self.last_poll_ms = 0.0
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.check_now)
        if start:
            self._timer.start()

    @property
    def interval_ms(self) -> int:
        return self._timer.interval()

    def start(self) -> None:
        if self.tracker is not None:
            self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def close(self) -> None:
        """Stop polling and release the connection (the workspace is being closed)."""
        self._timer.stop()
        if self.tracker is not None:
            self.tracker.close()
            self.tracker = None

    def check_now(self) -> frozenset[str]:
        """Poll once and emit the signals of the topics that changed; returns them."""
        if self.tracker is None:
            return frozenset()
        started = time.perf_counter()
        try:
            changed = self.tracker.poll()
        except sqlite3.Error as exc:  # a busy or vanished file: try again next tick
            log.warning("workspace watcher: %s", exc)
            return frozenset()
        self.last_poll_ms = (time.perf_counter() - started) * 1000
        if not changed:
            return changed
        log.debug("workspace changed: %s (%.1f ms)", sorted(changed), self.last_poll_ms)
        self.sig_changed.emit(changed)
        for topic in TOPICS:  # a fixed order: questions … probe_runs
            if topic in changed:
                getattr(self, f"sig_{topic}").emit()
        return changed


class Follow(QObject):
    """Re-reads a panel when a watcher signal fires: at once while the panel is visible, else
    once when it is next shown (a hidden panel only notes that it is out of date)."""

    def __init__(self, widget: QWidget, slot: Callable[[], object]):
        super().__init__(widget)
        self.widget, self.slot, self.pending = widget, slot, False
        widget.installEventFilter(self)

    def __call__(self, *_args) -> None:
        if self.widget.isVisible():
            self.pending = False
            self.slot()
        else:
            self.pending = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.widget and event.type() == QEvent.Type.Show and self.pending:
            self.pending = False
            self.slot()
        return False


def follow(widget: QWidget, slot: Callable[[], object], *signals: SignalInstance) -> Follow:
    """Subscribe ``widget``'s ``slot`` to the watcher ``signals`` (see :class:`Follow`)."""
    follower = Follow(widget, slot)
    for signal in signals:
        signal.connect(follower)
    return follower
