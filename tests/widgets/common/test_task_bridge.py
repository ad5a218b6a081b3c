"""The background-work bridge: results and exceptions come back to the GUI thread."""

from __future__ import annotations

import logging
import threading

import pytest
import shiboken6
from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QApplication, QProgressDialog, QPushButton

from engine.errors import UserError
from widgets.common.task_bridge import WRITER, SyncExecutor, TaskBridge, describe_error

log = logging.getLogger(__name__)


def add(a, b):
    return a + b


def count_to(n, progress, cancelled):
    for i in range(1, n + 1):
        progress(i, n, f"item {i}")
    return n


def fail(message):
    raise ValueError(message)


def fail_user():
    raise UserError("workspace.sqlite: no such workspace")


def wait_for_cancel(started: threading.Event, cancelled):
    started.set()
    while not cancelled():
        threading.Event().wait(0.01)
    return "stopped"


def log_and_return(value):
    log.info("working on %s", value)
    return value


@pytest.fixture
def errors():
    return []


@pytest.fixture
def sync_bridge(qtbot, errors):
    bridge = TaskBridge(
        executor_factory=lambda lane: SyncExecutor(),
        show_error=lambda title, msg: errors.append((title, msg)),
    )
    yield bridge
    bridge.shutdown()


@pytest.fixture
def thread_bridge(qtbot, errors):
    bridge = TaskBridge(
        show_error=lambda title, msg: errors.append((title, msg)), dialog_delay_ms=50
    )
    yield bridge
    bridge.shutdown()


def test_result_reaches_on_done(sync_bridge):
    results = []
    finished = []
    sync_bridge.sig_task_finished.connect(finished.append)
    task = sync_bridge.run(add, args=(2, 3), on_done=results.append, label="add")
    assert results == [5]
    assert task.state == "done" and finished == [task]


def test_progress_and_cancelled_are_injected_and_last_value_delivered(sync_bridge):
    seen = []
    task = sync_bridge.run(
        count_to, args=(500,), on_progress=lambda d, t, n: seen.append((d, t, n))
    )
    assert task.state == "done"
    # throttled to ~10 Hz: far fewer than 500 calls, and the final value is never lost
    assert 1 <= len(seen) < 50
    assert seen[-1] == (500, 500, "item 500")
    assert (task.done, task.total) == (500, 500)


def test_exception_goes_to_on_error_and_is_logged(sync_bridge, caplog, errors):
    got = []
    failed = []
    sync_bridge.sig_task_failed.connect(lambda t, m: failed.append(m))
    task = sync_bridge.run(fail, args=("boom",), on_error=got.append, label="failing job")
    assert isinstance(got[0], ValueError) and str(got[0]) == "boom"
    assert task.state == "failed"
    assert "ValueError: boom" in failed[0]
    assert any("failing job" in r.getMessage() and r.exc_info for r in caplog.records)
    assert errors == []  # the caller handled it


def test_unhandled_exception_is_shown(sync_bridge, errors):
    task = sync_bridge.run(fail_user, label="open workspace")
    # bad input is an input error, not a failed job
    assert errors == [("open workspace: check the input", "workspace.sqlite: no such workspace")]
    assert task.state == "refused"


def test_qt_objects_are_refused_as_worker_inputs(sync_bridge):
    with pytest.raises(TypeError):
        sync_bridge.run(add, args=(QObject(), 1))
    with pytest.raises(TypeError):
        sync_bridge.run(QObject().objectName)


def test_task_log_collects_records_from_the_worker(sync_bridge, caplog):
    caplog.set_level(logging.INFO)
    task = sync_bridge.run(log_and_return, args=("বাংলা",))
    assert any("working on বাংলা" in line for line in task.log_lines)


def test_worker_thread_result_arrives_on_gui_thread(qtbot, thread_bridge):
    threads = []
    with qtbot.waitSignal(thread_bridge.sig_task_finished, timeout=5000):
        thread_bridge.run(
            add, args=(1, 1), on_done=lambda r: threads.append((r, threading.current_thread()))
        )
    assert threads == [(2, threading.main_thread())]


def test_cancel_stops_a_running_task(qtbot, thread_bridge):
    started = threading.Event()
    results = []
    task = thread_bridge.run(wait_for_cancel, args=(started,), on_done=results.append)
    assert started.wait(5)
    with qtbot.waitSignal(thread_bridge.sig_task_finished, timeout=5000):
        task.cancel()
    assert task.state == "cancelled"
    assert results == ["stopped"]  # a cancelled job still hands back what it did


def test_newest_request_replaces_the_previous_one(qtbot, thread_bridge):
    started = threading.Event()
    results = []
    first = thread_bridge.run(
        wait_for_cancel, args=(started,), on_done=results.append, replace="preview"
    )
    assert started.wait(5)
    with qtbot.waitSignals([thread_bridge.sig_task_finished] * 2, timeout=5000):
        second = thread_bridge.run(add, args=(20, 22), on_done=results.append, replace="preview")
    assert first.superseded and first.state == "cancelled"
    assert second.state == "done"
    assert results == [42]  # the superseded result is dropped


def test_progress_dialog_appears_only_for_long_tasks_and_cancels(qtbot, thread_bridge):
    def dialogs():
        return [
            w
            for w in QApplication.topLevelWidgets()
            if isinstance(w, QProgressDialog) and w.isVisible()
        ]

    with qtbot.waitSignal(thread_bridge.sig_task_finished, timeout=5000):
        thread_bridge.run(add, args=(1, 2), dialog=True)
    qtbot.wait(100)
    assert dialogs() == []

    started = threading.Event()
    task = thread_bridge.run(wait_for_cancel, args=(started,), dialog=True, label="long job")
    qtbot.waitUntil(lambda: len(dialogs()) == 1, timeout=5000)
    cancel_button = dialogs()[0].findChild(QPushButton)
    with qtbot.waitSignal(thread_bridge.sig_task_finished, timeout=5000):
        qtbot.mouseClick(cancel_button, Qt.MouseButton.LeftButton)
    assert task.state == "cancelled"
    qtbot.waitUntil(lambda: dialogs() == [], timeout=5000)


def test_single_worker_lane_runs_tasks_one_at_a_time(qtbot, thread_bridge):
    active = []
    overlap = []
    lock = threading.Lock()

    def guarded(i):
        with lock:
            active.append(i)
            overlap.append(len(active))
        threading.Event().wait(0.02)
        with lock:
            active.remove(i)
        return i

    results = []
    with qtbot.waitSignals([thread_bridge.sig_task_finished] * 4, timeout=5000):
        for i in range(4):
            thread_bridge.run(guarded, args=(i,), lane=WRITER, on_done=results.append)
    assert sorted(results) == [0, 1, 2, 3]
    assert max(overlap) == 1


def test_quiet_tasks_stay_out_of_the_job_list_and_are_forgotten(qtbot, thread_bridge, errors):
    """A chart refresh a second for a night would otherwise pile up as finished jobs."""
    announced, results, failures = [], [], []
    thread_bridge.sig_task_started.connect(announced.append)
    thread_bridge.sig_task_finished.connect(announced.append)
    started = threading.Event()
    first = thread_bridge.run(
        wait_for_cancel, args=(started,), on_done=results.append, replace="chart", quiet=True
    )
    assert started.wait(5)
    assert thread_bridge.tasks() == [] and thread_bridge.running_tasks() == []
    thread_bridge.run(add, args=(20, 22), on_done=results.append, replace="chart", quiet=True)
    thread_bridge.run(fail, args=("no data",), on_error=failures.append, quiet=True)
    qtbot.waitUntil(lambda: results == [42] and len(failures) == 1, timeout=5000)
    # the superseded task ends when its worker next checks for cancel, maybe after the others
    qtbot.waitUntil(lambda: not first.running, timeout=5000)
    assert first.superseded  # replacing works among quiet ones
    job = thread_bridge.run(add, args=(1, 2), label="a real job")
    qtbot.waitUntil(lambda: not job.running, timeout=5000)
    assert announced == [job, job] and thread_bridge.tasks() == [job]
    assert thread_bridge._tasks.keys() == {job.id}  # the quiet ones are gone
    assert not errors


def with_options(label, *, lane="", quiet=False):
    """A task whose own keywords share names with the bridge's options."""
    return (label, lane, quiet)


def test_task_arguments_are_kept_apart_from_the_bridge_options(sync_bridge):
    results = []
    task = sync_bridge.run(
        with_options,
        args=("task label",),
        kwargs={"lane": "task lane", "quiet": True},
        label="bridge label",
        on_done=results.append,
    )
    assert results == [("task label", "task lane", True)]
    assert task.label == "bridge label" and task.lane == "pool" and not task.quiet


def test_the_old_mixed_form_fails_loudly(sync_bridge):
    with pytest.raises(TypeError):
        sync_bridge.run(add, 1, 2)  # task arguments must go in args=(…)
    with pytest.raises(TypeError):
        sync_bridge.run(with_options, args=("x",), resamples=5)  # … and kwargs={…}


def test_describe_error_for_people():
    assert describe_error(UserError("questions.csv, line 3: 'domain' is empty")) == (
        "questions.csv, line 3: 'domain' is empty"
    )
    text = describe_error(ValueError("bad\nvalue"))
    assert text.startswith("ValueError: bad\nvalue") and "log file" in text.splitlines()[-1]
    assert "\n" not in describe_error(ValueError("bad\nvalue"), one_line=True)
    assert describe_error(KeyError()).startswith("KeyError\n")


def test_a_result_for_a_deleted_widget_is_dropped(qtbot, thread_bridge, errors):
    from PySide6.QtWidgets import QLabel

    label = QLabel()
    started = threading.Event()
    task = thread_bridge.run(wait_for_cancel, args=(started,), on_done=label.setText)
    assert started.wait(5)
    label.deleteLater()
    qtbot.waitUntil(lambda: not shiboken6.isValid(label), timeout=5000)
    with qtbot.waitSignal(thread_bridge.sig_task_finished, timeout=5000):
        task.cancel()
    assert errors == []  # no "Internal C++ object already deleted"


def test_the_port_script_moves_task_arguments_apart():
    from scripts.port_bridge_run import port_source

    old = 'self.bridge.run(fn, path, 3, limit=5, label="x", on_done=cb)\nbridge.run(g, args=(1,))\n'
    new, count = port_source(old)
    assert count == 1
    assert new.splitlines() == [
        'self.bridge.run(fn, args=(path, 3), kwargs={"limit": 5}, label="x", on_done=cb)',
        "bridge.run(g, args=(1,))",
    ]


def two_runs(progress):
    """A job of two runs, each counting its generated tokens from 0 (as run_job does)."""
    for tokens in (0, 40, 100):
        progress(tokens // 10, 20, "run 1", tokens=tokens)
    for tokens in (0, 30, 50):
        progress(10 + tokens // 10, 20, "run 2", tokens=tokens)


def test_tokens_add_up_over_a_job_s_runs(sync_bridge):
    task = sync_bridge.run(two_runs, label="two runs")
    assert task.tokens == 150


def raise_when_cancelled(started: threading.Event, cancelled):
    started.set()
    while not cancelled():
        threading.Event().wait(0.01)
    raise InterruptedError("encoding cancelled")


def two_phases(progress):
    for i in range(1, 4):
        progress(i, 100, f"index: encoding {i}/100")
    progress(1, 10, "retrieving exemplars")
    return "ok"


def test_a_task_stopped_by_raising_reaches_on_cancelled(qtbot, thread_bridge, errors):
    started = threading.Event()
    cancelled, failed = [], []
    task = thread_bridge.run(
        raise_when_cancelled,
        args=(started,),
        on_done=lambda result: pytest.fail("no result"),
        on_error=failed.append,
        on_cancelled=lambda: cancelled.append(True),
    )
    assert started.wait(5)
    from widgets.common.job_monitor import JobMonitor

    monitor = JobMonitor(thread_bridge)  # the user's way: select the job, click Cancel job
    qtbot.addWidget(monitor)
    monitor.show()
    row = monitor.view.visualRect(monitor.model.index(0, 0)).center()
    qtbot.mouseClick(monitor.view.viewport(), Qt.MouseButton.LeftButton, pos=row)
    assert monitor.selected_task() is task
    qtbot.mouseClick(monitor.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: cancelled == [True], timeout=5000)
    assert task.state == "cancelled" and not failed and not errors


def test_a_new_phase_is_delivered_at_once(sync_bridge):
    seen = []
    sync_bridge.run(two_phases, on_progress=lambda d, t, n: seen.append(n))
    # the first report of each phase arrives although it comes within the throttle interval
    assert seen[0] == "index: encoding 1/100" and "retrieving exemplars" in seen
