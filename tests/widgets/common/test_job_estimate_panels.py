"""The time estimate in the tasks, probe and judge panels, with the real embedded model: the
real "Estimate time" button, the estimate with its 90 % interval, stale once a choice
changes, nothing written. (The generate dialog's: tests/widgets/answering.)"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from engine.bias.sample import build_bias_sample
from engine.workspace.store import Workspace
from tests.engine.understanding.conftest import insert_pairs
from tests.widgets.keyboard import retype
from tests.widgets.study_fixtures import study_db, study_ws  # noqa: F401 (fixtures)
from widgets.bias.bias_panel import BiasPanel
from widgets.common.job_estimate import JobEstimateBox, describe_estimate
from widgets.judging.judge_panel import JudgePanel
from widgets.understanding.tasks_panel import TasksPanel


def estimate_with(qtbot, box: JobEstimateBox) -> list[dict]:
    box.sample_items = 2  # the smallest calibration: these tests check the wiring
    with qtbot.waitSignal(box.sig_estimated, timeout=120_000) as signal:
        qtbot.mouseClick(box.estimate_button, Qt.MouseButton.LeftButton)
    estimates = signal.args[0]
    for est in estimates:
        assert est["calibration"]["items"] == 2
        assert 0 <= est["seconds_low"] <= est["seconds"] <= est["seconds_high"]
    assert "90 %" in box.label.text() and not box.stale
    return estimates


def runs_and_responses(ws) -> tuple[int, int]:
    return ws.scalar("SELECT count(*) FROM runs"), ws.scalar("SELECT count(*) FROM responses")


@pytest.mark.slow
def test_the_tasks_panel_estimates_a_task_run(qtbot, workspace, sync_bridge, embedded_gguf):
    from engine.llm.models.registry import ensure_embedded_default

    insert_pairs(workspace)
    ensure_embedded_default(workspace)
    panel = TasksPanel(workspace, sync_bridge)
    qtbot.addWidget(panel)
    panel.task_box.setCurrentIndex(panel.task_box.findData("dialect-id"))
    panel.limit.setValue(1)
    before = runs_and_responses(workspace)
    (est,) = estimate_with(qtbot, panel.estimate)
    assert est["items"] == 2 and runs_and_responses(workspace) == before
    panel.regimes["few"].setChecked(True)
    assert panel.estimate.stale and "90 %" not in panel.estimate.label.text()
    assert not sync_bridge.errors


@pytest.mark.slow
def test_the_bias_panel_estimates_a_probe_run(qtbot, tmp_path, sync_bridge, embedded_gguf):
    from engine.llm.models.registry import ensure_embedded_default

    ws = Workspace(build_bias_sample(tmp_path / "bias.sqlite"), create=False)
    model_id = ensure_embedded_default(ws)
    panel = BiasPanel(ws, sync_bridge)
    qtbot.addWidget(panel)
    panel.model.setCurrentIndex(panel.model.findData(model_id))
    panel.limit.setValue(2)
    before = runs_and_responses(ws)
    (est,) = estimate_with(qtbot, panel.estimate)
    assert est["model_id"] == model_id and est["items"] >= 2
    assert runs_and_responses(ws) == before
    panel.counterbalance.toggle()
    assert panel.estimate.stale
    ws.close()


@pytest.mark.slow
def test_the_judge_panel_estimates_a_judge_run(qtbot, study_ws, sync_bridge, embedded_gguf):  # noqa: F811
    from engine.llm.models.registry import ensure_embedded_default

    model_id = ensure_embedded_default(study_ws)
    panel = JudgePanel(study_ws, sync_bridge)
    qtbot.addWidget(panel)
    panel.refresh()
    panel.judge_model.setCurrentIndex(panel.judge_model.findData(model_id))
    # the shortest reasoning cap: the 270M judge repeats itself up to it, as the demo's does
    retype(panel.editor.max_chars, "50")
    assert panel.rubric.reasoning_max_chars == 50
    before = runs_and_responses(study_ws)
    (est,) = estimate_with(qtbot, panel.estimate)
    assert est["left"] > 0 and runs_and_responses(study_ws) == before
    panel.judge_model.setCurrentIndex(0 if panel.judge_model.currentIndex() else 1)
    assert panel.estimate.stale


def test_the_estimate_reads_as_a_duration_with_its_interval():
    text = describe_estimate(7800, 6600, 9600, 1_200_000)
    assert text == "About 2 h 10 min (90 %: 1 h 50 min – 2 h 40 min) · 1.2 M tokens"
    assert describe_estimate(42, 30, 61, 950) == "About 42 s (90 %: 30 s – 1 min) · 950 tokens"


def test_a_missing_choice_is_said_without_a_task(qtbot, workspace, sync_bridge):
    panel = TasksPanel(workspace, sync_bridge)
    qtbot.addWidget(panel)
    assert panel.estimate.start() == [] and "model" in panel.estimate.label.text()
