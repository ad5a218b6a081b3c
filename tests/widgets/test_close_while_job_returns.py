"""Closing the main window while a background job is still out, as a user does: a test
prompt sent from the Models panel to an endpoint (a local server that holds its reply until
the test releases it: fault injection), File → Quit, the question answered with a click, and
the reply arriving before, while or after Qt deletes the window. Nothing crashes, the job's
result is dropped with a log line, the workspace stays whole.

The loop runs in a fresh process: a crash there is a failed test that says at which round,
not a dead test session."""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from app import window_closing
from app.main_window import MainWindow
from app.settings import Settings
from engine.llm.models.registry import register_endpoint
from engine.workspace.store import Workspace
from tests.app.first_window import user_env
from tests.fault_server import LocalServer, completion, read_body, send_json
from tests.widgets.menus import menu_action

ROOT = Path(__file__).resolve().parents[2]
REPLY = "উত্তর।"
LABEL = "Test prompt to held"
ROUNDS = 30
WAIT_S = 60  # the most one round waits for a condition
# when the held reply is let go, round by round
MOMENTS = ("while closing waits for jobs", "while Qt deletes the window", "after that")


class HeldServer(LocalServer):
    """Holds each completion until released; says when one arrived."""

    def __init__(self):
        self.arrived, self.release = threading.Event(), threading.Event()
        super().__init__()

    def respond(self, handler) -> None:
        read_body(handler)
        self.arrived.set()
        self.release.wait(60)
        send_json(handler, 200, completion(REPLY, finish_reason="stop"))

    def hold_next(self) -> None:
        self.arrived.clear()
        self.release.clear()


def workspace_with_endpoint(sample: Path, path: Path, server: HeldServer) -> Path:
    shutil.copy(sample, path)
    with Workspace(path, create=False) as ws:
        register_endpoint(ws, "held", [server.url], "m")
    return path


def send_test_prompt(window: MainWindow, server: HeldServer, wait) -> None:
    """The Models tab, a click on the endpoint's row, a typed prompt, a click on Send; back
    once the server holds the request."""
    window.show_panel("models")
    panel = window.panels["models"]
    row = next(i for i, r in enumerate(panel.model.rows) if r["name"] == "held")
    rect = panel.view.visualRect(panel.model.index(row, 0))
    QTest.mouseClick(panel.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    QTest.keyClicks(panel.try_box.prompt, "How are you?")
    QTest.mouseClick(panel.try_box.send_button, Qt.MouseButton.LeftButton)
    wait(server.arrived.is_set)


def answering(window: MainWindow, action: str, button, then=lambda: None) -> list[str]:
    """The menu action ``action`` triggered; the question it asks (if one comes) answered by
    a click, ``then`` called right after it. The questions' texts."""
    asked: list[str] = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):  # not shown yet
            QTimer.singleShot(10, answer)
            return
        asked.append(box.text())
        QTest.mouseClick(box.button(button), Qt.MouseButton.LeftButton)
        then()

    QTimer.singleShot(0, answer)
    menu_action(window, action).trigger()
    return asked


def quit_answering(
    window: MainWindow, button: QMessageBox.StandardButton, then=lambda: None
) -> str:
    """File → Quit, the question about running jobs answered (the window is closing)."""
    asked = answering(window, "Quit", button, then)
    assert asked, "no question before quitting while a job ran"
    return asked[0]


def workspace_is_whole(path: Path) -> bool:
    with sqlite3.connect(path) as conn:
        ok = conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        held = conn.execute("SELECT count(*) FROM models WHERE name = 'held'").fetchone()[0]
    return ok and held == 1


def _test_prompt_task(window: MainWindow):
    return next(t for t in reversed(window.bridge.tasks()) if t.label == LABEL)


@pytest.fixture
def held(qtbot, sample_db, tmp_path, threaded_bridge, caplog):
    """A window on a workspace whose endpoint holds its replies; a wait for a condition."""
    caplog.set_level(logging.INFO)
    server = HeldServer()
    try:
        path = workspace_with_endpoint(sample_db, tmp_path / "ws.sqlite", server)
        window = MainWindow(
            Settings(reviewer_name="r"), bridge=threaded_bridge, save=lambda _s: None
        )
        qtbot.addWidget(window)
        window.show()
        assert window.open_workspace(path)

        def wait(condition):
            qtbot.waitUntil(condition, timeout=30_000)

        yield window, server, path, wait
    finally:
        server.release.set()
        server.stop()


def test_the_quit_question_no_keeps_working_yes_closes(held, threaded_bridge, caplog):
    window, server, path, wait = held
    send_test_prompt(window, server, wait)
    task = _test_prompt_task(window)
    text = quit_answering(window, QMessageBox.StandardButton.No)
    assert text.startswith("1 job(s) are still running. Cancel them and quit?")
    assert window.isVisible() and task.running  # "No": nothing stopped
    server.release.set()
    box = window.panels["models"].try_box
    wait(lambda: box.reply.toPlainText() == REPLY)
    assert task.state == "done"

    server.hold_next()
    send_test_prompt(window, server, wait)
    task = _test_prompt_task(window)
    quit_answering(window, QMessageBox.StandardButton.Yes)
    assert not window.isVisible() and task.state == "cancelled"
    assert window.workspace is None and window.panels == {}
    server.release.set()
    wait(lambda: task.dropped)  # its worker returned into a closed window
    QApplication.processEvents()
    assert threaded_bridge.errors == []
    dropped = [r.getMessage() for r in caplog.records if "was dropped" in r.getMessage()]
    assert any(LABEL in line for line in dropped)
    assert workspace_is_whole(path)


def test_closing_the_workspace_asks_then_lets_its_job_finish_first(held, threaded_bridge, caplog):
    """File → Close workspace while a job runs on it: "No" keeps the workspace and the job;
    "Yes" cancels the job and delivers its last result while the panels still live, then
    closes: no error box, no result for a closed workspace, the bridge still works."""
    window, server, path, wait = held
    send_test_prompt(window, server, wait)
    task = _test_prompt_task(window)
    asked = answering(window, "Close workspace", QMessageBox.StandardButton.No)
    assert asked and asked[0].startswith("1 job(s) are still running in this workspace.")
    assert window.workspace is not None and task.running
    # "Yes": the reply comes back during the bounded wait
    answering(window, "Close workspace", QMessageBox.StandardButton.Yes, then=server.release.set)
    assert window.workspace is None and window.panels == {}
    assert not task.running and not task.dropped
    assert threaded_bridge.errors == []
    assert workspace_is_whole(path)
    # the bridge was not shut down: the next workspace's jobs run
    server.hold_next()
    assert window.open_workspace(path)
    send_test_prompt(window, server, wait)
    server.release.set()
    box = window.panels["models"].try_box
    wait(lambda: box.reply.toPlainText() == REPLY)


def bounded_wait(app: QApplication, server: HeldServer):
    """A wait for a condition in a process of its own (no qtbot): the events processed,
    bounded, so that a hang is a failure that says so."""

    def wait(condition) -> None:
        deadline = time.monotonic() + WAIT_S
        while not condition():
            assert time.monotonic() < deadline, f"{condition} not reached in {WAIT_S} s"
            app.processEvents()
            server.arrived.wait(0.002)  # a short sleep that wakes on the server

    return wait


def quit_while_jobs_return(sample: str, folder: str, rounds: int) -> None:
    """The subprocess's loop: each round a window with its own bridge, as the app makes it;
    prints a line per round and a JSON summary last."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    dropped_lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if "was dropped" in record.getMessage():
                dropped_lines.append(record.getMessage())

    logging.getLogger().addHandler(Collect())
    logging.getLogger().setLevel(logging.INFO)
    server = HeldServer()
    # the close's bounded wait shortened so that thirty rounds run quickly; the replies
    # released after it still come after it
    window_closing.QUIT_WAIT_S = 0.1

    wait = bounded_wait(app, server)

    summary: dict = {"rounds": 0, "states": [], "dropped": 0, "whole": 0}
    for i in range(rounds):
        server.hold_next()
        path = workspace_with_endpoint(Path(sample), Path(folder) / f"ws{i}.sqlite", server)
        window = MainWindow(Settings(reviewer_name="r"), save=lambda _settings: None)
        window.show()
        assert window.open_workspace(path)
        send_test_prompt(window, server, wait)
        task = _test_prompt_task(window)
        moment = MOMENTS[i % len(MOMENTS)]
        release_now = server.release.set if moment == MOMENTS[0] else lambda: None
        quit_answering(window, QMessageBox.StandardButton.Yes, then=release_now)
        if moment == MOMENTS[1]:
            window.menuBar().destroyed.connect(lambda *_: server.release.set())
        window.deleteLater()
        del window
        app.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
        server.release.set()
        wait(lambda task=task: task.dropped)
        app.processEvents()
        summary["states"].append(task.state)
        summary["dropped"] += task.dropped
        summary["whole"] += workspace_is_whole(path)
        summary["rounds"] += 1
        print(f"round {i}: {moment}", flush=True)
    summary["dropped_lines"] = sum(LABEL in line for line in dropped_lines)
    server.stop()
    print(json.dumps(summary), flush=True)


SCRIPT = (
    "import sys\n"
    "from tests.widgets.test_close_while_job_returns import quit_while_jobs_return\n"
    "quit_while_jobs_return(sys.argv[1], sys.argv[2], int(sys.argv[3]))\n"
)


def test_quitting_while_a_job_returns_never_crashes(sample_db, tmp_path):
    env = {**user_env(tmp_path), "PYTHONFAULTHANDLER": "1"}
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(sample_db), str(tmp_path), str(ROUNDS)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
    )
    rounds = [line for line in result.stdout.splitlines() if line.startswith("round ")]
    assert result.returncode == 0, (
        f"exit {result.returncode} after {len(rounds)} rounds (last: {rounds[-1:]}):\n"
        + result.stderr[-3000:]
    )
    summary = json.loads(result.stdout.splitlines()[-1])
    assert summary["rounds"] == ROUNDS
    assert summary["states"] == ["cancelled"] * ROUNDS
    assert summary["dropped"] == summary["dropped_lines"] == ROUNDS  # each with its log line
    assert summary["whole"] == ROUNDS


class SilentServer(HeldServer):
    """Takes each completion and never answers: the job stays inside its read."""

    def respond(self, handler) -> None:
        read_body(handler)
        self.arrived.set()
        self.release.wait()


STUCK_SCRIPT = r"""
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from app.main_window import MainWindow
from tests.widgets import test_close_while_job_returns as t

app = QApplication(sys.argv[:1])
server = t.SilentServer()
path = t.workspace_with_endpoint(t.Path(sys.argv[1]), t.Path(sys.argv[2]) / "ws.sqlite", server)

wait = t.bounded_wait(app, server)

def drive():
    window = next(w for w in app.topLevelWidgets() if isinstance(w, MainWindow))
    t.send_test_prompt(window, server, wait)
    print("sent", flush=True)
    t.quit_answering(window, QMessageBox.StandardButton.Yes)

QTimer.singleShot(0, drive)
from app.gui_main import main
code = main([str(path)])
print("returned", code, flush=True)
"""


def test_quitting_leaves_a_job_that_ignores_its_cancel(sample_db, tmp_path):
    """File → Quit with "Yes" while a job waits on a server that never answers (its read
    timeout far off): the process ends after the close's bounded wait instead of joining
    the job's thread, logs which job it left, and the workspace stays whole."""
    env = {**user_env(tmp_path), "PYTHONFAULTHANDLER": "1"}
    result = subprocess.run(
        [sys.executable, "-c", STUCK_SCRIPT, str(sample_db), str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=240,  # a hang guard only: the endpoint's read timeout is longer
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.splitlines() == ["sent"]  # it never returned into Python's exit
    logged = "\n".join(p.read_text() for p in (tmp_path / "logs").glob("*.log"))
    assert "quitting without 1 job(s) that did not stop when cancelled" in logged
    assert LABEL in logged
    assert workspace_is_whole(tmp_path / "ws.sqlite")
