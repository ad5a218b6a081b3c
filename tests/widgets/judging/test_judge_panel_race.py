"""The panels' race in the Judge panel: when a judge run ends, the judge runs it lists count
every judgment of the run, though every read the panel started meanwhile (a watcher's tick)
is held back until after the run has ended and comes back last."""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt

from engine.judging import request as judge_request
from engine.judging import run as judging_run
from engine.judging import tasks as judge_tasks
from tests.engine.judging.study_fixture import build_study
from tests.engine.judging.test_judging_run import VALID, ScriptedBackend, judge_model
from widgets.judging.judge_panel import JudgePanel


def listed_judgments(panel: JudgePanel) -> dict[int, int]:
    """Judgments per judge run as the panel's table shows them."""
    table = panel.judges
    return {
        int(table.item(r, 0).text()): int(table.item(r, 3).text()) for r in range(table.rowCount())
    }


def test_the_judge_runs_when_a_run_ends_count_every_judgment_though_reads_come_back_late(
    qtbot, workspace, monkeypatch, threaded_bridge
):
    build_study(workspace)
    judge_model(workspace)
    hold = threading.Event()  # set: the panel's own reads are held back
    run_ended = threading.Event()  # the test saw the run end: held reads come back now
    read_taken = threading.Event()  # a read of the panel was taken during the run
    job_thread: list[int] = []  # the judge job's worker: its own read is not held
    real_overview = judge_tasks.judge_overview_at

    def held_back_overview(path):
        overview = real_overview(path)
        if hold.is_set() and threading.get_ident() not in job_thread:
            read_taken.set()
            run_ended.wait(60)
        return overview

    def reply(_request, _n):
        assert read_taken.wait(60)  # the run goes on once a read of the panel is taken
        return VALID

    real_judge = judging_run.judge_answers

    def scripted(ws, model, **kw):
        job_thread.append(threading.get_ident())
        return real_judge(ws, model, backend_factory=lambda w, r: ScriptedBackend(reply), **kw)

    monkeypatch.setattr(judge_request, "judge_answers", scripted)
    monkeypatch.setattr(judge_tasks, "judge_overview_at", held_back_overview)
    try:
        panel = JudgePanel(workspace, threaded_bridge)
        qtbot.addWidget(panel)
        panel.show()
        qtbot.waitUntil(panel.run_button.isEnabled, timeout=30_000)  # the first read shown
        before = listed_judgments(panel)
        ended: list = []
        threaded_bridge.sig_task_finished.connect(ended.append)
        hold.set()
        qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
        panel.refresh()  # a read during the run (as the workspace watcher's tick)
        # the run's end, as the job monitor sees it
        qtbot.waitUntil(lambda: bool(ended) and not threaded_bridge.running_tasks(), timeout=60_000)
        stored = {
            r["run_id"]: r["n"]
            for r in workspace.query("SELECT run_id, count(*) AS n FROM judgments GROUP BY run_id")
        }
        assert len(stored) == len(before) + 1  # the new judge run
        assert listed_judgments(panel) == stored  # read after the run's last write
        # the held-back reads come back now and must not replace the newer list
        run_ended.set()
        qtbot.waitUntil(
            lambda: not any(t.running for t in threaded_bridge._tasks.values()), timeout=30_000
        )
        assert listed_judgments(panel) == stored
        assert not threaded_bridge.errors
    finally:
        run_ended.set()
        read_taken.set()
