"""The panels' race: when a task run ends, the Tasks panel's report holds every run of it,
even when a results read started during the run comes back later (held back here)."""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt

from engine.understanding import tasks as task_jobs
from engine.understanding.api import TASK_STATS
from tests.scripted_backend import ScriptedBackend
from tests.widgets.task_fixtures import task_ws  # noqa: F401 (fixture)
from widgets.common.task_bridge import TaskBridge
from widgets.understanding.tasks_panel import TasksPanel


def test_the_report_after_a_run_holds_every_run_though_a_stale_read_comes_last(
    qtbot, task_ws, monkeypatch, threaded_bridge
):
    run_ended = threading.Event()
    stale_reads: list[int] = []  # the runs each held-back read saw
    real_stats = task_jobs.task_stats_at

    stale_taken = threading.Event()

    def held_back_read(path, task, user_dir=None, *, settings=TASK_STATS):
        report = real_stats(path, task, user_dir, settings=settings)
        if not stale_taken.is_set():  # the first read: taken during the run …
            stale_reads.append(len(report.get("runs", [])))
            stale_taken.set()
            run_ended.wait(30)  # … and delivered after it ended
        return report

    first_reply = threading.Event()

    def reply(_request):
        if not first_reply.is_set():
            first_reply.set()
            stale_taken.wait(30)  # the run goes on once the panel's read has been taken
        return '{"standard": "তুমি কোথায় যাচ্ছ"}'

    monkeypatch.setattr(
        "engine.llm.runs.backend.backend_for_run", lambda ws, run_id: ScriptedBackend(reply)
    )
    bridge = threaded_bridge
    try:
        panel = TasksPanel(task_ws, bridge)
        qtbot.addWidget(panel)
        panel.show()
        monkeypatch.setattr(task_jobs, "task_stats_at", held_back_read)
        qtbot.mouseClick(panel.regimes["few"], Qt.MouseButton.LeftButton)
        qtbot.mouseClick(panel.scripts["roman"], Qt.MouseButton.LeftButton)
        finished: list = []
        panel.sig_run_finished.connect(finished.append)
        qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
        assert first_reply.wait(30)
        panel.refresh_results()  # a read during the run (as a workspace watcher's tick)
        qtbot.waitUntil(lambda: bool(stale_reads), timeout=30_000)
        qtbot.waitUntil(lambda: bool(finished), timeout=60_000)
        run_ended.set()
        runs = {(r["regime"], r["script"]) for r in panel.report["runs"]}
        assert runs == {("zero", "native"), ("zero", "roman"), ("few", "native"), ("few", "roman")}
        assert stale_reads[0] < 4  # the held-back read saw only the runs begun by then
        assert all(r["pending"] == 0 for r in panel.report["runs"])
        # the held-back read comes back now and must not replace the newer report
        # idle: every read's result was delivered (or dropped) on this thread
        qtbot.waitUntil(lambda: not bridge.running_tasks() and _idle(bridge), timeout=30_000)
        assert len(panel.report["runs"]) == 4 and panel.results.rowCount() == 4
        assert all(r["pending"] == 0 for r in panel.report["runs"])
        assert not bridge.errors
    finally:
        run_ended.set()


def _idle(bridge: TaskBridge) -> bool:
    return not any(t.running for t in bridge._tasks.values())
