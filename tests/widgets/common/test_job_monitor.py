"""JobMonitor: rows per task with progress, tokens/s, ETA; cancel; buffered per-job log."""

from __future__ import annotations

import logging
import threading
import time

import pytest

from widgets.common.job_monitor import JobMonitor, eta_seconds, format_duration, tokens_per_second
from widgets.common.task_bridge import Task, TaskBridge
from widgets.common.task_progress import PhaseClock

log = logging.getLogger("tests.job")


def generate(n, progress, cancelled):
    for i in range(1, n + 1):
        log.info("answered item %d", i)
        progress(i, n, f"item {i}", tokens=10 * i)
    return n


def wait_until_cancelled(started: threading.Event, cancelled):
    started.set()
    while not cancelled():
        time.sleep(0.01)
    log.info("stopping at a clean item boundary")
    return "partial"


@pytest.fixture
def monitor(qtbot, sync_bridge, caplog):
    caplog.set_level(logging.INFO)
    widget = JobMonitor(sync_bridge)
    qtbot.addWidget(widget)
    return widget


def test_rows_follow_the_bridge(monitor, sync_bridge):
    sync_bridge.run(generate, args=(50,), label="answer 50 questions")
    model = monitor.model
    assert model.rowCount() == 1
    assert model.data(model.index(0, 0)) == "answer 50 questions"
    assert model.data(model.index(0, 1)) == "done"
    assert model.data(model.index(0, 3)) == "50 of 50"
    assert model.data(model.index(0, 4))  # tokens/s shown


def test_log_is_buffered_and_flushed_by_the_timer(monitor, sync_bridge, qtbot):
    sync_bridge.run(generate, args=(30,), label="job")
    monitor.view.selectRow(0)
    qtbot.waitUntil(lambda: "answered item 30" in monitor.log_view.toPlainText(), timeout=2000)
    text = monitor.log_view.toPlainText()
    assert text.count("answered item") == 30
    monitor.flush()  # a second flush appends nothing new
    assert monitor.log_view.toPlainText().count("answered item") == 30


def test_cancel_selected_job(qtbot, caplog):
    caplog.set_level(logging.INFO)
    bridge = TaskBridge(show_error=lambda *a: None)
    monitor = JobMonitor(bridge)
    qtbot.addWidget(monitor)
    try:
        started = threading.Event()
        task = bridge.run(wait_until_cancelled, args=(started,), label="long job")
        assert started.wait(5)
        monitor.view.selectRow(0)
        assert monitor.selected_task() is task
        with qtbot.waitSignal(bridge.sig_task_finished, timeout=5000):
            monitor.cancel_button.click()
        assert task.state == "cancelled"
        qtbot.waitUntil(
            lambda: "clean item boundary" in monitor.log_view.toPlainText(), timeout=2000
        )
        assert monitor.model.data(monitor.model.index(0, 1)) == "cancelled"
    finally:
        bridge.shutdown()


def test_clear_finished(monitor, sync_bridge):
    sync_bridge.run(generate, args=(3,))
    sync_bridge.run(generate, args=(4,))
    monitor.clear_finished()
    assert monitor.model.rowCount() == 0 and sync_bridge.tasks() == []


def test_eta_and_rates():
    task = Task(1, "t", "pool", started_at=time.monotonic() - 10)
    now = 0.0
    task.clock = PhaseClock(clock=lambda: now)
    task.clock.observe(0, 100, "item 0")
    now = 10.0
    task.done, task.total, task.tokens = 25, 100, 500
    task.clock.observe(25, 100, "item 25")
    assert eta_seconds(task) == pytest.approx(30, rel=0.05)
    assert tokens_per_second(task) == pytest.approx(50, rel=0.05)
    task.state = "done"
    assert eta_seconds(task) is None
    assert format_duration(3725) == "1:02:05" and format_duration(65) == "1:05"
    assert format_duration(None) == ""
