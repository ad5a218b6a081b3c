"""How a background job's progress and result leave its worker thread, and why they never
reach a task bridge that is gone (the worker side of :mod:`widgets.common.task_bridge`).

A worker may still be returning when the window that owns the bridge closes and Qt deletes
it: the user quit while a job ran, and a cancel is cooperative — an HTTP call or a model load
ends when it ends. A signal emitted from a worker while the GUI thread destroys its QObject
is a use-after-free in PySide6 (a crash, or at best a "Signal source has been deleted" error
lost inside the executor), and a Python wrapper whose last reference a worker drops is
destroyed on that worker's thread. Hence the rule:

- a worker holds the :class:`Outbox`, never the bridge. Its signals live on a relay that is
  a Qt child of the bridge, so Qt owns it and a worker dropping a reference deletes nothing;
- every emit happens under the outbox's lock while the outbox is open, and :meth:`close`
  takes the same lock: once it returns, no worker is inside an emit and none starts one. The
  bridge closes it when it shuts down and, as a backstop, when it is destroyed (Qt emits
  ``destroyed`` before it deletes the children, the relay among them);
- a result that finds the outbox closed is dropped with a log line.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtCore import QObject, Signal

from widgets.common.job_log import job_log_line
from widgets.common.task_progress import ThrottledProgress

log = logging.getLogger(__name__)


class Task(Protocol):
    """What the worker side reads and writes of :class:`widgets.common.task_bridge.Task`
    (a protocol: the bridge imports this module, not the reverse)."""

    label: str
    dropped: bool
    returned_at: float | None

    def add_log(self, line: str) -> None: ...


_current = threading.local()  # the task a worker thread is running, for its log lines


class _Relay(QObject):
    """The worker → GUI thread signals (queued across threads, direct with a synchronous
    executor)."""

    progress = Signal(object, object, object, str, object)  # task, done, total, note, tokens
    finished = Signal(object, object, object)  # task, result, exception


class Outbox:
    """The one way out of a worker thread: emits while open, drops once closed."""

    def __init__(self, parent: QObject):
        self.relay = _Relay(parent)
        # re-entrant: a synchronous executor delivers on the emitting thread, and the
        # callback it runs may start a task or shut the bridge down
        self._lock = threading.RLock()
        self._open = True

    def close(self) -> None:
        """No emit after this returns (waits for one in flight: a queued emit only posts)."""
        with self._lock:
            self._open = False

    def progress(self, task: Task, done, total, note: str, tokens) -> None:
        with self._lock:
            if self._open:
                self.relay.progress.emit(task, done, total, note, tokens)

    def finished(self, task: Task, result, exc: BaseException | None) -> None:
        with self._lock:
            if self._open:
                self.relay.finished.emit(task, result, exc)
                return
        drop_result(task, exc)


def drop_result(task: Task, exc: BaseException | None = None) -> None:
    """A job that returned after its bridge shut down: nobody gets its result; said once."""
    if task.dropped:
        return
    task.dropped = True
    log.info(
        "job %r returned after its window closed: its %s was dropped",
        task.label,
        "result" if exc is None else f"error ({type(exc).__name__})",
    )


def run_in_worker(
    outbox: Outbox,
    task: Task,
    fn: Callable,
    args: tuple,
    kwargs: dict[str, Any],
    progress: ThrottledProgress,
) -> None:
    """A task's body on its worker thread: a module-level function, so the executor's work
    item holds the outbox and never the bridge."""
    _current.task = task
    try:
        result = fn(*args, **kwargs)
    except BaseException as exc:  # returned to the GUI thread, never swallowed
        progress.flush()
        task.returned_at = time.monotonic()
        outbox.finished(task, None, exc)
    else:
        progress.flush()
        task.returned_at = time.monotonic()
        outbox.finished(task, result, None)
    finally:
        _current.task = None


class TaskLogCapture(logging.Handler):
    """Copies records logged on a task's worker thread into that task's log."""

    def __init__(self):
        super().__init__(logging.INFO)

    def emit(self, record: logging.LogRecord) -> None:
        task = getattr(_current, "task", None)
        if task is not None:
            try:
                line = job_log_line(record)
                if record.exc_info:
                    line += "\n" + logging.Formatter().formatException(record.exc_info)
                task.add_log(line)
            except Exception:  # logging must never break the worker
                self.handleError(record)
