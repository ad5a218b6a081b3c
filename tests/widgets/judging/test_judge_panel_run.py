"""A judge run from the Judge panel: Run is disabled while it runs (a second click starts
nothing), its progress row's Cancel stops it and says how to resume, and Run again resumes
the same judge run to the end."""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt

from engine.judging import request as judge_request
from engine.judging import run as judging_run
from engine.judging import store
from tests.engine.judging.study_fixture import build_study
from tests.engine.judging.test_judging_run import VALID, ScriptedBackend, judge_model
from widgets.judging.judge_panel import JudgePanel


class StopsWhenCancelled(ScriptedBackend):
    """The scripted judge, stopping between replies once the job is cancelled (as the real
    backends do)."""

    def generate(self, requests, *, progress=None, cancelled=None):
        for result in super().generate(requests):
            if cancelled and cancelled():
                return
            yield result


def test_run_is_disabled_while_judging_and_cancel_then_run_again_resumes(
    qtbot, workspace, monkeypatch, threaded_bridge
):
    build_study(workspace)
    judge_model(workspace)
    pairs = len(store.answer_pairs(workspace))
    cancel_clicked = threading.Event()
    replies: list[int] = []

    def reply(_request, _n):
        replies.append(1)
        if len(replies) == 2:  # the second reply waits until Cancel was clicked
            assert cancel_clicked.wait(60)
        return VALID

    real_judge = judging_run.judge_answers

    def scripted(ws, model, **kw):
        backend = lambda w, r: StopsWhenCancelled(reply)  # noqa: E731
        return real_judge(ws, model, backend_factory=backend, **kw)

    monkeypatch.setattr(judge_request, "judge_answers", scripted)
    panel = JudgePanel(workspace, threaded_bridge)
    qtbot.addWidget(panel)
    panel.show()
    messages: list[str] = []
    panel.sig_status_message.connect(messages.append)
    qtbot.waitUntil(panel.run_button.isEnabled, timeout=30_000)

    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    task = panel.job.task
    assert task is not None and panel.job.isVisible()
    assert not panel.run_button.isEnabled()
    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)  # a second click: nothing
    assert panel.job.task is task and len(threaded_bridge.running_tasks()) == 1
    qtbot.waitUntil(lambda: len(replies) == 2, timeout=60_000)
    qtbot.mouseClick(panel.job.cancel_button, Qt.MouseButton.LeftButton)
    cancel_clicked.set()
    qtbot.waitUntil(lambda: bool(messages) and not task.running, timeout=60_000)
    assert "cancelled" in messages[-1] and "run it again to resume" in messages[-1]
    assert panel.run_button.isEnabled() and not panel.job.isVisible()
    judged = workspace.scalar("SELECT count(*) FROM judgments")
    assert 0 < judged < pairs

    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.job.task is None, timeout=60_000)
    run_id = workspace.scalar("SELECT id FROM runs WHERE kind = 'judge'")
    assert messages[-1].startswith(f"Judge run {run_id}: ")
    assert workspace.scalar("SELECT count(*) FROM runs WHERE kind = 'judge'") == 1  # resumed
    assert workspace.scalar("SELECT count(*) FROM judgments") == pairs
    assert panel.run_button.isEnabled() and not threaded_bridge.errors
