"""The bridge's lifetime rule: once it is shut down (its window closed) or deleted, no worker
reaches it and no callback runs; a job that returns later is dropped with a log line. Real
worker threads; the jobs block on events the test releases."""

from __future__ import annotations

import functools
import gc
import logging
import threading
import weakref

import shiboken6
from PySide6.QtWidgets import QApplication, QLabel

from widgets.common.task_bridge import TaskBridge


def wait_for_release(started: threading.Event, release: threading.Event) -> str:
    """A job no cancel can stop (an HTTP call in flight): it returns when released."""
    started.set()
    assert release.wait(30)
    return "late result"


def wait_for_cancel(started: threading.Event, cancelled) -> str:
    started.set()
    while not cancelled():
        threading.Event().wait(0.01)
    return "stopped"


def _dropped_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if "was dropped" in r.getMessage()]


def test_a_job_returning_after_shutdown_is_dropped_with_a_log_line(qtbot, threaded_bridge, caplog):
    caplog.set_level(logging.INFO)
    started, release = threading.Event(), threading.Event()
    results: list[str] = []
    task = threaded_bridge.run(
        wait_for_release, args=(started, release), on_done=results.append, label="held"
    )
    assert started.wait(5)
    still_running = threaded_bridge.shutdown(wait=True, timeout_s=0.2)
    assert still_running == [task]  # the bounded wait gave up on it
    assert task.state == "cancelled" and task.is_cancelled()
    assert threaded_bridge.running_tasks() == []
    release.set()
    qtbot.waitUntil(lambda: task.dropped, timeout=5000)
    QApplication.processEvents()
    assert results == [] and threaded_bridge.errors == []
    assert any("'held'" in line for line in _dropped_lines(caplog))


def test_the_bounded_wait_lets_a_cancelled_job_stop(qtbot, threaded_bridge, caplog):
    caplog.set_level(logging.INFO)
    started = threading.Event()
    cancelled_calls: list[object] = []
    task = threaded_bridge.run(
        wait_for_cancel, args=(started,), on_cancelled=lambda: cancelled_calls.append(1)
    )
    assert started.wait(5)
    assert threaded_bridge.shutdown(wait=True, timeout_s=30) == []
    assert task.returned_at is not None and task.dropped  # returned inside the wait
    QApplication.processEvents()
    assert cancelled_calls == [] and threaded_bridge.errors == []


def test_a_result_queued_before_shutdown_is_not_delivered_after_it(qtbot, threaded_bridge):
    """The worker emitted before the window closed; the GUI thread sees it only after."""
    started, release = threading.Event(), threading.Event()
    results: list[str] = []
    task = threaded_bridge.run(wait_for_release, args=(started, release), on_done=results.append)
    assert started.wait(5)
    release.set()
    while task.returned_at is None:  # no events processed: the result stays queued
        threading.Event().wait(0.005)
    threaded_bridge.shutdown(wait=True)
    QApplication.processEvents()
    assert results == [] and task.dropped and task.state == "cancelled"


def test_no_job_starts_after_shutdown(threaded_bridge):
    threaded_bridge.shutdown()
    task = threaded_bridge.run(wait_for_cancel, args=(threading.Event(),), label="late")
    assert task.state == "cancelled" and threaded_bridge.tasks() == []


def test_a_bridge_deleted_without_shutdown_is_never_emitted_into(qtbot, caplog):
    """Its window destroyed unclosed: the worker returning afterwards drops its result
    instead of emitting into a deleted object."""
    caplog.set_level(logging.INFO)
    errors: list[tuple[str, str]] = []
    bridge = TaskBridge(show_error=lambda title, msg: errors.append((title, msg)))
    started, release = threading.Event(), threading.Event()
    results: list[str] = []
    task = bridge.run(
        wait_for_release, args=(started, release), on_done=results.append, label="orphan"
    )
    assert started.wait(5)
    bridge.deleteLater()
    qtbot.waitUntil(lambda: not shiboken6.isValid(bridge), timeout=5000)
    release.set()
    qtbot.waitUntil(lambda: task.dropped, timeout=5000)
    assert results == [] and errors == []
    assert any("'orphan'" in line for line in _dropped_lines(caplog))


def test_a_lambda_or_partial_on_a_deleted_widget_is_dropped(qtbot, threaded_bridge):
    """A panel's ``lambda r: self._show(r)`` acts on the panel as much as its method does."""
    in_closure, in_partial = QLabel(), QLabel()
    labels = [in_closure, in_partial]
    callbacks = [
        lambda text: in_closure.setText(text),
        functools.partial(QLabel.setText, in_partial),
    ]
    tasks = []
    for callback in callbacks:
        started = threading.Event()
        tasks.append(threaded_bridge.run(wait_for_cancel, args=(started,), on_done=callback))
        assert started.wait(5)
    for label in labels:
        label.deleteLater()
    qtbot.waitUntil(lambda: not any(shiboken6.isValid(w) for w in labels), timeout=5000)
    for task in tasks:
        task.cancel()
    qtbot.waitUntil(lambda: not any(t.running for t in tasks), timeout=5000)
    assert threaded_bridge.errors == []  # no "Internal C++ object already deleted"


def test_a_worker_never_keeps_the_bridge_alive(qtbot):
    """The last reference to a bridge dropped while its job runs: the bridge goes then, on
    the GUI thread, not later on the worker's thread as the worker lets go."""
    bridge = TaskBridge(show_error=lambda title, msg: None)
    alive = weakref.ref(bridge)
    started, release = threading.Event(), threading.Event()
    task = bridge.run(wait_for_release, args=(started, release))
    assert started.wait(5)
    del bridge
    gc.collect()
    assert alive() is None
    release.set()
    qtbot.waitUntil(lambda: task.dropped, timeout=5000)
