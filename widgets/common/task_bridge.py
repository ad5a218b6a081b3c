"""The one bridge for background work (docs/design.md, house style 3-5; Anki taskman, Picard run_task).

Panels never create threads. They call ::

    bridge.run(engine_function, args=(path, options), kwargs={"limit": 10},
               on_done=..., label=_("…"), lane=WRITER)

— the task's own arguments in ``args``/``kwargs``, every other keyword an option of the
bridge, so a task argument can never be taken for an option or the reverse. (Porting the
older ``run(fn, *args, on_done=…, **task_kwargs)`` form: move the positional arguments into
``args=(…)`` and the task's keywords into ``kwargs={…}``; the old form now fails loudly with a
TypeError.) The function runs in a worker, and its result *or its exception* comes back to
the GUI thread through a queued Qt signal. The bridge

- passes ``progress(done, total, note)`` and ``cancelled()`` to the function when its
  signature takes them, throttles progress to ~10 Hz, delivers a new phase (a note that
  differs in more than its numbers) at once and always delivers the last value;
- runs work in *lanes*: ``"pool"`` (parallel) or a named single-worker lane such as
  :data:`WRITER` (the one SQLite writer) or ``model_lane(id)`` (one per loaded model);
- logs every failure and shows it (unless the caller handles it with ``on_error``);
- drops a result whose callback is a method of a widget deleted meanwhile;
- stops for good when its window closes (:meth:`TaskBridge.shutdown`): jobs cancelled, no
  worker reaches the bridge again and no callback runs, a job that returns later is dropped
  with a log line (the lifetime rule: :mod:`widgets.common.task_outbox`);
- shows a progress dialog only when a ``dialog=True`` task outlives :data:`DIALOG_DELAY_MS`;
- cancels cooperatively (a threading.Event); a cancelled task that returns goes to
  ``on_done`` with its partial result, one that stops by raising to ``on_cancelled``, so
  its starter never stays "Running…"; ``replace="key"`` cancels the previous task
  with that key and drops its result, so the newest request wins;
- lets a job end a panel's race: a job started with ``supersedes="key"`` returns the report
  it read after its last write, and when it ends the reads started with ``replace="key"``
  before it returned are dropped, so a read older than its result never overwrites it (a
  read started after it returned saw every write of it and is kept);
- describes a failure for people with :func:`describe_error` (the dialogs use it too);
- records each task's log lines (records logged from its worker thread) for the job monitor;
- keeps ``quiet=True`` tasks — a panel's own look-ups (a chart refresh, a filter), several a
  second during a live run — out of the job monitor and forgets them when they end, so a
  night-long run does not pile up tens of thousands of finished "jobs".

Tests pass ``executor_factory=lambda lane: SyncExecutor()`` to run tasks synchronously.
"""

from __future__ import annotations

import collections
import functools
import inspect
import itertools
import logging
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_for_futures
from dataclasses import dataclass, field
from typing import Any

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QMessageBox, QProgressDialog, QWidget

from engine.errors import UserError
from engine.i18n import N_, _
from engine.text.redact import RedactingFilter, redact
from widgets.common.hints import for_gui
from widgets.common.job_log import level_name
from widgets.common.task_outbox import Outbox, TaskLogCapture, drop_result, run_in_worker
from widgets.common.task_progress import PhaseClock, ThrottledProgress

log = logging.getLogger(__name__)

POOL = "pool"
WRITER = "sqlite-writer"
POOL_WORKERS = 4
PROGRESS_INTERVAL_S = 0.1  # ~10 Hz
DIALOG_DELAY_MS = 600
LOG_LINES_KEPT = 2000


def model_lane(model_id: int | str) -> str:
    """The single-worker lane owning one loaded model."""
    return f"model:{model_id}"


class SyncExecutor(Executor):
    """Runs each task at once in the calling thread: deterministic tests (house style 16)."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # the future carries it, as a real executor would
            future.set_exception(exc)
        return future


def default_executor(lane: str) -> Executor:
    if lane == POOL:
        return ThreadPoolExecutor(POOL_WORKERS, thread_name_prefix="upabhasha-pool")
    return ThreadPoolExecutor(1, thread_name_prefix=f"upabhasha-{lane}")


@dataclass(eq=False)
class Task:
    """A handle on one background call; read its fields on the GUI thread."""

    id: int
    label: str
    lane: str
    replace_key: str | None = None
    quiet: bool = False
    started_at: float = field(default_factory=time.monotonic)
    finished_at: float | None = None
    state: str = "running"  # running | done | failed | refused (bad input) | cancelled
    done: int = 0
    total: int = 0
    note: str = ""
    tokens: int | None = None  # cumulative generated tokens, when the job reports them
    error: BaseException | None = None
    superseded: bool = False
    supersedes: str | None = None  # the replace key of the reads its result makes old
    returned_at: float | None = None  # when its function returned, in the worker
    dropped: bool = False  # it returned after the bridge shut down: nobody got its result
    log_total: int = 0  # lines ever logged (log_lines keeps the last ones)
    log_lines: collections.deque = field(
        default_factory=lambda: collections.deque(maxlen=LOG_LINES_KEPT)
    )
    clock: PhaseClock = field(default_factory=PhaseClock)  # the current phase's ETA
    _cancel: threading.Event = field(default_factory=threading.Event)

    def cancel(self) -> None:
        self._cancel.set()

    def add_log(self, line: str) -> None:
        self.log_lines.append(line)
        self.log_total += 1

    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    @property
    def running(self) -> bool:
        return self.state == "running"

    @property
    def elapsed_s(self) -> float:
        return (self.finished_at or time.monotonic()) - self.started_at


def describe_error(exc: BaseException, *, one_line: bool = False) -> str:
    """A failed task's message for people: a :class:`UserError` says what to fix in its own
    words; anything else gives its type and message and points to the log (the traceback is
    there). ``one_line`` collapses white space, for a status line or a label."""
    if isinstance(exc, UserError):  # settings and steps named as the window names them
        text = for_gui(redact(str(exc)))
    else:  # secrets masked: a server may echo the key in its error (engine.text.redact)
        text = (
            f"{type(exc).__name__}: {for_gui(redact(str(exc)))}" if str(exc) else type(exc).__name__
        )
        text += "\n" + _("Details are in the log file.")
    return " ".join(text.split()) if one_line else text


def _receivers(callback: Callable) -> Iterator[object]:
    """What a callback acts on: a method's object, a partial's function and arguments, the
    variables a lambda captured (a panel's ``lambda plan: self._show_plan(plan)``)."""
    if isinstance(callback, functools.partial):
        yield from _receivers(callback.func)
        yield from (*callback.args, *callback.keywords.values())
        return
    yield getattr(callback, "__self__", None)
    for cell in getattr(callback, "__closure__", None) or ():
        try:
            yield cell.cell_contents
        except ValueError:  # a cell not yet filled
            continue


def _receiver_alive(callback: Callable) -> bool:
    """False when a Qt object the callback acts on was deleted while its task ran (a panel
    of a workspace closed meanwhile): its result has nowhere to go."""
    return all(shiboken6.isValid(r) for r in _receivers(callback) if isinstance(r, QObject))


def _accepts(fn: Callable, name: str) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return name in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def _check_worker_inputs(fn: Callable, args: tuple, kwargs: dict) -> None:
    """Worker code never touches a widget: refuse Qt objects as the function or its inputs."""
    if isinstance(getattr(fn, "__self__", None), QObject):
        raise TypeError(f"{fn!r} is a method of a Qt object; pass a module-level function")
    for value in (*args, *kwargs.values()):
        if isinstance(value, QObject):
            raise TypeError(f"background task {fn!r} received a Qt object ({value!r})")


class TaskBridge(QObject):
    """Owns the executors; lives on the GUI thread."""

    sig_task_started = Signal(object)  # Task
    sig_task_progress = Signal(object)  # Task (done/total/note/tokens updated)
    sig_task_finished = Signal(object)  # Task (state done/failed/cancelled)
    sig_task_failed = Signal(object, str)  # Task (state failed or refused), its message

    def __init__(
        self,
        parent: QObject | None = None,
        *,
        executor_factory: Callable[[str], Executor] = default_executor,
        dialog_parent: QWidget | None = None,
        show_error: Callable[[str, str], None] | None = None,
        dialog_delay_ms: int = DIALOG_DELAY_MS,
        progress_interval_s: float = PROGRESS_INTERVAL_S,
    ):
        super().__init__(parent)
        self._executor_factory = executor_factory
        self._executors: dict[str, Executor] = {}
        self._dialog_parent = dialog_parent
        self._show_error = show_error or self._message_box
        self._dialog_delay_ms = dialog_delay_ms
        self._progress_interval_s = progress_interval_s
        self._ids = itertools.count(1)
        self._tasks: dict[int, Task] = {}
        self._callbacks: dict[int, tuple] = {}
        self._dialogs: dict[int, QProgressDialog] = {}
        self._futures: dict[int, Future] = {}
        self._shut_down = False
        self._log_capture = TaskLogCapture()
        self._log_capture.addFilter(RedactingFilter())
        logging.getLogger().addHandler(self._log_capture)
        # workers reach the GUI thread only through the outbox (task_outbox: the lifetime rule)
        self._outbox = Outbox(self)
        self._outbox.relay.progress.connect(self._on_progress)
        self._outbox.relay.finished.connect(self._on_finished)
        # a bridge deleted without shutdown() (its window destroyed unclosed): no worker
        # emits into it; Qt emits destroyed before it deletes the relay
        self.destroyed.connect(self._outbox.close)

    # -- public API ------------------------------------------------------------------------
    def run(
        self,
        fn: Callable,
        /,
        *,
        args: tuple = (),
        kwargs: dict[str, Any] | None = None,
        on_done: Callable[[Any], object] | None = None,  # what it returns is not used
        on_error: Callable[[BaseException], None] | None = None,
        on_progress: Callable[[int, int, str], None] | None = None,
        on_cancelled: Callable[[], None] | None = None,
        label: str = "",
        lane: str = POOL,
        dialog: bool = False,
        replace: str | None = None,
        supersedes: str | None = None,
        quiet: bool = False,
    ) -> Task:
        """Run ``fn(*args, **kwargs)`` in ``lane``; callbacks run on the GUI thread.

        ``args``/``kwargs`` are the task's arguments (immutable values, never Qt objects);
        ``progress`` and ``cancelled`` are added to ``kwargs`` when ``fn`` takes them. The
        rest are the bridge's options: ``on_done(result)``, ``on_error(exc)`` (default: log
        and show the error), ``on_progress(done, total, note)``, ``on_cancelled()`` (a cancelled task
        stopped by raising; one that returns goes to ``on_done``), ``label`` (the job's name),
        ``lane`` (:data:`POOL`, :data:`WRITER`, :func:`model_lane`), ``dialog`` (a progress
        dialog after :data:`DIALOG_DELAY_MS`), ``replace`` (cancel the running task with this key; its result
        is dropped), ``supersedes`` (a key of ``replace``: when this job ends with a result,
        the reads with that key started before it returned are dropped), ``quiet`` (not a
        job: kept out of the job monitor).
        """
        args = tuple(args)
        kwargs = dict(kwargs or {})
        _check_worker_inputs(fn, args, kwargs)
        if self._shut_down:
            log.warning("task %r not started: the application is shutting down", label)
            task = Task(next(self._ids), label or getattr(fn, "__name__", "task"), lane)
            task.state = "cancelled"
            task.cancel()
            return task
        if replace is not None:
            self.supersede(replace)
        task = Task(next(self._ids), label or getattr(fn, "__name__", "task"), lane, replace, quiet)
        task.supersedes = supersedes
        progress = ThrottledProgress(task, self._outbox.progress, self._progress_interval_s)
        if _accepts(fn, "progress"):
            kwargs.setdefault("progress", progress)
        if _accepts(fn, "cancelled"):
            kwargs.setdefault("cancelled", task.is_cancelled)
        self._tasks[task.id] = task
        self._callbacks[task.id] = (on_done, on_error, on_progress, on_cancelled)
        if not quiet:
            self.sig_task_started.emit(task)
        if dialog:  # the bridge as context: no call once it is deleted
            QTimer.singleShot(self._dialog_delay_ms, self, lambda: self._open_dialog(task))
        executor = self._executor(lane)
        future = executor.submit(run_in_worker, self._outbox, task, fn, args, kwargs, progress)
        if not future.done():  # a synchronous executor has delivered already
            self._futures[task.id] = future
        return task

    def supersede(self, key: str) -> None:
        """Cancel the running tasks started with ``replace=key`` and drop their results: a
        newer answer is already at hand."""
        for task in self._tasks.values():
            if task.replace_key == key and task.running:
                task.superseded = True
                task.cancel()

    def tasks(self) -> list[Task]:
        """The jobs (quiet tasks left out)."""
        return [t for t in self._tasks.values() if not t.quiet]

    def running_tasks(self) -> list[Task]:
        return [t for t in self.tasks() if t.running]

    def forget(self, task: Task) -> None:
        """Drop a finished task from :meth:`tasks` (the job monitor's 'clear')."""
        if not task.running:
            self._tasks.pop(task.id, None)

    def cancel_all(self) -> None:
        for task in self._tasks.values():
            if task.running:
                task.cancel()

    def settle(self, timeout_s: float) -> list[Task]:
        """Cancel the running jobs and wait, at most ``timeout_s``, until they have returned,
        then deliver what they sent: a workspace about to close sees its jobs' last results
        while its panels are still alive, and no writer is inside a transaction. The bridge
        keeps working (unlike :meth:`shutdown`). Returns the jobs still running."""
        running = self.running_tasks()
        for task in running:
            task.cancel()
        futures = [self._futures[t.id] for t in running if t.id in self._futures]
        if futures:
            wait_for_futures(futures, timeout=timeout_s)
        QCoreApplication.processEvents()  # the results queued meanwhile reach their panels
        return [t for t in running if t.running]

    def shutdown(self, *, wait: bool = False, timeout_s: float | None = None) -> list[Task]:
        """Stop for good; called when the window closes. From here on no worker reaches
        this bridge and no callback runs: the running jobs are cancelled and marked so, and
        one that returns later has its result dropped with a log line. ``wait``: until the
        running jobs have returned, at most ``timeout_s`` (None: however long), so a
        cancelled writer ends its transaction before the workspace closes. Returns the jobs
        still running in their workers."""
        self._outbox.close()  # first: no worker is inside an emit once this returns
        self._shut_down = True
        running = [t for t in self._tasks.values() if t.running]
        for task in running:
            task.cancel()
            task.state, task.finished_at = "cancelled", time.monotonic()
            self._close_dialog(task)
        self._callbacks.clear()
        for executor in self._executors.values():
            executor.shutdown(wait=False, cancel_futures=True)
        self._executors.clear()
        futures = {task: self._futures[task.id] for task in running if task.id in self._futures}
        self._futures.clear()
        if wait and futures:
            wait_for_futures(futures.values(), timeout=timeout_s)
        for task, future in futures.items():
            # returned before the outbox closed: its result is queued for a bridge that
            # will not deliver it, and may be deleted before the queue is read
            if future.done() and not future.cancelled():
                drop_result(task)
        left = [task for task, future in futures.items() if not future.done()]
        for task in left:
            log.warning("job %r was still running when its window closed", task.label)
        logging.getLogger().removeHandler(self._log_capture)
        return left

    # -- worker side -----------------------------------------------------------------------
    def _executor(self, lane: str) -> Executor:
        if lane not in self._executors:
            self._executors[lane] = self._executor_factory(lane)
        return self._executors[lane]

    # -- GUI thread side -------------------------------------------------------------------
    def _on_progress(self, task: Task, done, total, note: str, tokens) -> None:
        if not task.running:
            return
        task.done, task.total, task.note = int(done), int(total), for_gui(note)
        task.clock.observe(task.done, task.total, task.note)
        if tokens is not None:
            task.tokens = int(tokens)
        if not task.quiet:
            self.sig_task_progress.emit(task)
        dialog = self._dialogs.get(task.id)
        if dialog is not None:
            dialog.setMaximum(max(task.total, 1))
            dialog.setValue(min(task.done, max(task.total, 1)))
            if note:
                dialog.setLabelText(f"{task.label}\n{note}")
        on_progress = self._callbacks.get(task.id, (None, None, None, None))[2]
        if on_progress is not None and not task.superseded and _receiver_alive(on_progress):
            on_progress(task.done, task.total, note)

    def _on_finished(self, task: Task, result, exc: BaseException | None) -> None:
        self._futures.pop(task.id, None)
        if self._shut_down:  # emitted before the shutdown, delivered after: nobody waits
            drop_result(task, exc)
            return
        task.finished_at = time.monotonic()
        on_done, on_error, _on_progress, on_cancelled = self._callbacks.pop(
            task.id, (None, None, None, None)
        )
        self._close_dialog(task)
        if task.quiet:
            self._tasks.pop(task.id, None)
        if exc is not None and not task.is_cancelled():
            # a UserError is bad input (what to fix, in its own words), not a job that broke
            refused = isinstance(exc, UserError)
            task.state, task.error = ("refused" if refused else "failed"), exc
            message = describe_error(exc)
            if refused:
                log.warning(N_("job %r refused its input: %s"), task.label, message)
            else:
                log.error(
                    "task %r failed: %s",
                    task.label,
                    message,
                    exc_info=(type(exc), exc, exc.__traceback__),
                )
            task.add_log(f"{level_name('ERROR')} {message}")
            if not task.quiet:
                self.sig_task_failed.emit(task, message)
                self.sig_task_finished.emit(task)
            if on_error is not None:
                self._call_safely(on_error, exc)
            else:
                title = _("{label}: check the input") if refused else _("{label} failed")
                self._show_error(title.format(label=task.label), message)
            return
        if exc is not None:
            log.info("task %r stopped after cancel: %s", task.label, exc)
        task.state = "cancelled" if task.is_cancelled() else "done"
        if not task.quiet:
            self.sig_task_finished.emit(task)
        if task.superseded:
            return
        if task.supersedes is not None and exc is None:
            self._drop_older_reads(task.supersedes, task.returned_at or task.finished_at)
        if on_done is not None and exc is None:  # a cancelled job's partial result too
            self._call_safely(on_done, result)
        elif task.state == "cancelled" and on_cancelled is not None:  # it stopped by raising
            self._call_safely(lambda _none: on_cancelled(), None, owner=on_cancelled)

    def _drop_older_reads(self, key: str, returned_at: float) -> None:
        """Drop the results of the reads with ``replace=key`` started before a job returned
        whose result holds the same read taken after its last write. A read started later
        saw every write of the job, so it is kept, whichever of the two lands first."""
        for task in self._tasks.values():
            if task.replace_key == key and task.running and task.started_at < returned_at:
                task.superseded = True
                task.cancel()

    def _call_safely(self, callback: Callable, value, *, owner: Callable | None = None) -> None:
        if not _receiver_alive(owner or callback):
            log.debug("callback %r dropped: its widget was deleted meanwhile", callback)
            return
        try:
            callback(value)
        except Exception as exc:  # a broken callback is a bug: log and show it, keep running
            log.exception("callback %r failed", callback)
            self._show_error(_("Internal error"), describe_error(exc))

    def _message_box(self, title: str, message: str) -> None:
        QMessageBox.warning(self._dialog_parent, title, message)

    def _open_dialog(self, task: Task) -> None:
        if self._shut_down or not task.running or task.id in self._dialogs:
            return
        dialog = QProgressDialog(
            task.label, _("Cancel"), 0, max(task.total, 1), self._dialog_parent
        )
        dialog.setWindowTitle(task.label)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(0)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.setValue(min(task.done, max(task.total, 1)))
        dialog.canceled.connect(task.cancel)
        self._dialogs[task.id] = dialog
        dialog.show()

    def _close_dialog(self, task: Task) -> None:
        dialog = self._dialogs.pop(task.id, None)
        if dialog is not None:
            dialog.canceled.disconnect(task.cancel)
            dialog.close()
            dialog.deleteLater()
