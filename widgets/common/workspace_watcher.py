"""WorkspaceWatcher: the GUI's one change signal for an open workspace.

One timer, one :class:`engine.workspace.changes.ChangeTracker` poll per tick (``PRAGMA
data_version``, and only when that moved one stamp query), and one signal carrying the
changed topics, which panels subscribe to by topic name (:func:`follow`, :func:`on`) —
instead of each panel polling on a timer of its own. The tracker has its own
connection, so commits of every connection show: a job in a worker, another process, and the
window's own writes. A panel that just wrote calls :meth:`check_now` (or the window connects
its ``sig_changed`` to it) so the others follow at once rather than on the next tick.

The signal carries no payload but the topic set; a subscriber re-reads what it shows. While it is
hidden a panel only notes that it is out of date (cheap), and catches up when shown.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtWidgets import QWidget

from engine.workspace.api import ChangeTracker, topics

log = logging.getLogger(__name__)

INTERVAL_MS = 1000  # live views redraw at most once a second (docs/design.md, house style 7)


class WorkspaceWatcher(QObject):
    # the frozenset of topics that changed (every stage's, engine.workspace.stages)
    sig_changed = Signal(object)

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
        """Poll once and emit ``sig_changed`` with the topics that changed; returns them."""
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
        return changed


def _known(names: tuple[str, ...]) -> frozenset[str]:
    unknown = set(names) - set(topics())
    if unknown:  # a typo would otherwise never fire
        raise ValueError(f"no such workspace topic: {sorted(unknown)}")
    return frozenset(names)


class Follow(QObject):
    """Re-reads a panel when one of its topics changes: at once while the panel is visible,
    else once when it is next shown (a hidden panel only notes that it is out of date).
    ``hidden_too``: call at once even while hidden (the slot only marks something stale)."""

    def __init__(
        self,
        widget: QWidget,
        slot: Callable[[], object],
        names: frozenset[str],
        *,
        hidden_too: bool = False,
    ):
        super().__init__(widget)  # a child: disconnected when the widget goes
        self.widget, self.slot, self.names, self.pending = widget, slot, names, False
        self.hidden_too = hidden_too
        if not hidden_too:
            widget.installEventFilter(self)

    def on_changed(self, changed: frozenset[str]) -> None:
        if self.names & changed:
            self()

    def __call__(self, *_args) -> None:
        if self.hidden_too or self.widget.isVisible():
            self.pending = False
            self.slot()
        else:
            self.pending = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.widget and event.type() == QEvent.Type.Show and self.pending:
            self.pending = False
            self.slot()
        return False


def follow(
    widget: QWidget, slot: Callable[[], object], watcher: WorkspaceWatcher, *names: str
) -> Follow:
    """Subscribe ``widget``'s ``slot`` to the watcher's topics ``names`` (see
    :class:`Follow`): one re-read however many of them changed in one poll."""
    follower = Follow(widget, slot, _known(names))
    watcher.sig_changed.connect(follower.on_changed)
    return follower


def on(
    widget: QWidget, slot: Callable[[], object], watcher: WorkspaceWatcher, *names: str
) -> Follow:
    """As :func:`follow`, but ``slot`` runs at once even while ``widget`` is hidden (a slot that
    only marks the widget stale, or one that must keep a count current)."""
    follower = Follow(widget, slot, _known(names), hidden_too=True)
    watcher.sig_changed.connect(follower.on_changed)
    return follower
