"""WorkspaceWatcher: the GUI's one change notice for an open workspace.

One timer, one :class:`engine.workspace.changes.ChangeTracker` poll per tick (``PRAGMA
data_version``, and only when that moved one stamp query), and one notice, a :class:`Change`
naming the changed topics, which panels subscribe to by topic name (:func:`follow`,
:func:`on`) — instead of each panel polling on a timer of its own. The tracker has its own
connection, so commits of every connection show: a job in a worker, another process, and the
window's own writes. A panel that just wrote, or the window when a job finishes, calls
:meth:`~WorkspaceWatcher.notify` with its name, so the others follow at once rather than on
the next tick and know who wrote; nobody re-reads a panel directly after a job.

A subscriber re-reads what it shows, and a re-read never replaces what a person typed and has
not saved. While it is hidden a panel only notes that it is out of date (cheap), and catches up
when shown.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtWidgets import QWidget

from engine.workspace.api import ChangeTracker, topics

log = logging.getLogger(__name__)

INTERVAL_MS = 1000  # live views redraw at most once a second (docs/design.md, house style 7)


@dataclass(frozen=True)
class Change:
    """One change notice. ``topics``: what changed (every stage's topics,
    engine.workspace.stages); ``ids``: the rows the writer says it wrote (None: not said, any
    row of the topics may have changed); ``origin``: who wrote (a finished job's or a panel's
    name; None: seen by the poll, whoever wrote)."""

    topics: frozenset[str]
    ids: frozenset[int] | None = None
    origin: str | None = None

    def merged(self, later: Change) -> Change:
        """One notice for two: a hidden panel catches up once."""
        ids = None if self.ids is None or later.ids is None else self.ids | later.ids
        origin = self.origin if self.origin == later.origin else None
        return Change(self.topics | later.topics, ids, origin)


class WorkspaceWatcher(QObject):
    # the topics of each notice (a frozenset), for readers that need only those
    sig_changed = Signal(object)
    # the same notice, typed: a Change
    sig_change = Signal(object)

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
        """Poll once and deliver what changed (no origin); returns the topics."""
        change = self.notify()
        return change.topics if change is not None else frozenset()

    def notify(
        self,
        origin: str | None = None,
        *,
        ids: Iterable[int] | None = None,
        topics: Iterable[str] = (),
    ) -> Change | None:
        """Poll now and deliver what changed as one :class:`Change` from ``origin`` with its
        ``ids``. ``topics``: what the writer knows it wrote, delivered even when a tick already
        reported it (a finished job's last word reaches a panel that skips its own echoes).
        Returns the notice, or None when nothing changed."""
        if self.tracker is None:
            return None
        declared = _known(tuple(topics))
        started = time.perf_counter()
        try:
            changed = self.tracker.poll() | declared
        except sqlite3.Error as exc:  # a busy or vanished file: try again next tick
            log.warning("workspace watcher: %s", exc)
            return None
        self.last_poll_ms = (time.perf_counter() - started) * 1000
        if not changed:
            return None
        change = Change(changed, None if ids is None else frozenset(ids), origin)
        log.debug(
            "workspace changed: %s by %s (%.1f ms)",
            sorted(changed),
            origin or "a poll",
            self.last_poll_ms,
        )
        self.sig_changed.emit(changed)
        self.sig_change.emit(change)
        return change


def _known(names: tuple[str, ...]) -> frozenset[str]:
    unknown = set(names) - set(topics())
    if unknown:  # a typo would otherwise never fire
        raise ValueError(f"no such workspace topic: {sorted(unknown)}")
    return frozenset(names)


class Follow(QObject):
    """Re-reads a panel when one of its topics changes: at once while the panel is visible,
    else once when it is next shown (a hidden panel only notes that it is out of date, and the
    notices it missed arrive as one). ``hidden_too``: call at once even while hidden (the slot
    only marks something stale). ``notice``: the slot takes the :class:`Change`."""

    def __init__(
        self,
        widget: QWidget,
        slot: Callable[..., object],
        names: frozenset[str],
        *,
        hidden_too: bool = False,
        notice: bool = False,
    ):
        super().__init__(widget)  # a child: disconnected when the widget goes
        self.widget, self.slot, self.names = widget, slot, names
        self.hidden_too, self.notice = hidden_too, notice
        self.waiting: Change | None = None  # what arrived while hidden
        if not hidden_too:
            widget.installEventFilter(self)

    def on_change(self, change: Change) -> None:
        if self.names & change.topics:
            self(change)

    def __call__(self, change: Change) -> None:
        if self.waiting is not None:
            change = self.waiting.merged(change)
        if self.hidden_too or self.widget.isVisible():
            self.waiting = None
            self._deliver(change)
        else:
            self.waiting = change

    def _deliver(self, change: Change) -> None:
        if self.notice:
            self.slot(change)
        else:
            self.slot()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.widget and event.type() == QEvent.Type.Show and self.waiting is not None:
            change, self.waiting = self.waiting, None
            self._deliver(change)
        return False


def follow(
    widget: QWidget,
    slot: Callable[..., object],
    watcher: WorkspaceWatcher,
    *names: str,
    notice: bool = False,
) -> Follow:
    """Subscribe ``widget``'s ``slot`` to the watcher's topics ``names`` (see
    :class:`Follow`): one re-read however many of them changed in one notice."""
    follower = Follow(widget, slot, _known(names), notice=notice)
    watcher.sig_change.connect(follower.on_change)
    return follower


def on(
    widget: QWidget,
    slot: Callable[..., object],
    watcher: WorkspaceWatcher,
    *names: str,
    notice: bool = False,
) -> Follow:
    """As :func:`follow`, but ``slot`` runs at once even while ``widget`` is hidden (a slot that
    only marks the widget stale, or one that must keep a count current)."""
    follower = Follow(widget, slot, _known(names), hidden_too=True, notice=notice)
    watcher.sig_change.connect(follower.on_change)
    return follower
