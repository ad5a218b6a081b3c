"""Every panel words the engine's messages itself: a judge or probe run on a model whose file
was moved away fails with the engine's "register it again with ⟦step:add_model⟧", and the
panels say it in the window's words ("the Models panel"; in Bengali, its Bengali label) in
every label, status line and message box a person sees. Driven as a person does: choose the
model, click the button."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QLabel, QWidget

from engine.bias.sample import build_bias_sample
from engine.errors import Step
from engine.i18n import set_language
from engine.judging import store
from engine.judging.rubric import load_rubric
from engine.llm.models.registry import register_gguf
from engine.workspace.store import Workspace
from tests.widgets.study_fixtures import study_db, study_ws  # noqa: F401 (fixtures)
from widgets.bias.bias_panel import BiasPanel
from widgets.common.hints import actions, label, step_words
from widgets.judging.judge_panel import JudgePanel

MOVED = "moved-model"


@pytest.fixture
def english_afterwards():
    yield
    set_language("en")


def add_moved_model(ws: Workspace, tmp_path) -> int:
    """A local model registered from a file that has since been moved away."""
    return register_gguf(
        ws, tmp_path / "gone" / "model.gguf", name=MOVED, sha256="0" * 64, size_bytes=1
    )


def add_human_scores(ws: Workspace) -> None:
    """Two human-scored answers, so that the judge can be calibrated."""
    run = store.primary_judge(ws)
    ids = ws.query(
        "SELECT id FROM judgments WHERE run_id = ? AND gate = 'ok' ORDER BY id LIMIT 2", (run,)
    )
    for row, score in zip(ids, (8.0, 2.0)):
        store.add_override(
            ws,
            row["id"],
            annotator="রহিম",
            reason="calibration set",
            rubric=load_rubric(),
            final=score,
        )


def shown_texts(widget: QWidget) -> list[str]:
    """The text of every label and button a person sees in ``widget``."""
    kinds = (QLabel, QAbstractButton)
    return [
        child.text()
        for kind in kinds
        for child in widget.findChildren(kind)
        if child.isVisibleTo(widget) and child.text()
    ]


def assert_worded(texts: list[str], hint: str) -> None:
    assert texts and not any("⟦" in t or "⟧" in t for t in texts), texts
    assert any(hint in t for t in texts), (hint, texts)


def choose(combo, text: str) -> None:
    """Pick an entry of a combo box by typing its first letters, as a person does."""
    combo.setFocus()
    QTest.keyClicks(combo, text)
    assert combo.currentText().startswith(text)


@pytest.fixture
def judge_panel(qtbot, study_ws, sync_bridge, tmp_path):
    add_human_scores(study_ws)
    add_moved_model(study_ws, tmp_path)
    panel = JudgePanel(study_ws, sync_bridge)
    qtbot.addWidget(panel)
    panel.resize(1440, 820)
    panel.show()
    panel.messages = []
    panel.sig_status_message.connect(panel.messages.append)
    choose(panel.judge_model, MOVED)
    return panel


def test_calibrating_on_a_moved_model_names_the_models_panel(judge_panel, sync_bridge):
    assert judge_panel.calibrate_button.isEnabled()
    QTest.mouseClick(judge_panel.calibrate_button, Qt.MouseButton.LeftButton)
    figures = judge_panel.calibration.figures.text()
    assert figures.startswith("Calibration failed:") and MOVED in figures
    hint = step_words()[Step.ADD_MODEL]
    assert hint == "the Models panel"
    assert_worded([figures], hint)
    assert_worded(judge_panel.messages, hint)  # the status line
    assert_worded(shown_texts(judge_panel), hint)
    assert sync_bridge.errors == []  # the panel shows it; no message box on top


def test_running_the_judge_on_a_moved_model_names_the_models_panel(judge_panel, sync_bridge):
    assert judge_panel.run_button.isEnabled()
    QTest.mouseClick(judge_panel.run_button, Qt.MouseButton.LeftButton)
    assert len(sync_bridge.errors) == 1  # the bridge's message box
    title, message = sync_bridge.errors[0]
    assert_worded([title, message], step_words()[Step.ADD_MODEL])
    assert not any("⟦" in t for t in shown_texts(judge_panel) + judge_panel.messages)


def test_calibration_failure_in_bengali(qtbot, study_ws, sync_bridge, tmp_path, english_afterwards):
    assert set_language("bn")
    add_human_scores(study_ws)
    add_moved_model(study_ws, tmp_path)
    panel = JudgePanel(study_ws, sync_bridge)
    qtbot.addWidget(panel)
    panel.show()
    choose(panel.judge_model, MOVED)
    QTest.mouseClick(panel.calibrate_button, Qt.MouseButton.LeftButton)
    hint = step_words()[Step.ADD_MODEL]
    assert hint == "মডেল প্যানেল"  # the Bengali catalogue's words
    assert_worded([panel.calibration.figures.text()], hint)


@pytest.fixture
def bias_ws(tmp_path):
    ws = Workspace(build_bias_sample(tmp_path / "bias.sqlite"), create=False)
    yield ws
    ws.close()


@pytest.fixture
def bias_panel(qtbot, bias_ws, sync_bridge, tmp_path):
    add_moved_model(bias_ws, tmp_path)
    panel = BiasPanel(bias_ws, sync_bridge)
    qtbot.addWidget(panel)
    panel.resize(1400, 900)
    panel.show()
    panel.messages = []
    panel.sig_status_message.connect(panel.messages.append)
    choose(panel.model, MOVED)
    return panel


def test_probing_a_moved_model_names_the_models_panel(bias_panel, sync_bridge):
    """The engine reports a model that did not load in the run's summary (it does not
    raise): the panel says so, in its words, instead of "finished"."""
    assert bias_panel.run_button.isEnabled()
    QTest.mouseClick(bias_panel.run_button, Qt.MouseButton.LeftButton)
    message = bias_panel.messages[-1]
    assert message.startswith("Probing failed:") and MOVED in message
    assert_worded([message], step_words()[Step.ADD_MODEL])
    assert not any("⟦" in t or "⟧" in t for t in shown_texts(bias_panel))
    assert sync_bridge.errors == []
    assert bias_panel.run_button.isEnabled()  # one can run again


def test_a_probe_run_the_engine_refuses_names_the_import_menu_item(bias_panel, bias_ws):
    """The probe sets went from the workspace file after the panel read them (another
    window, a restored copy): the engine refuses with "⟦step:import_probes⟧"."""
    with bias_ws.transaction() as conn:
        conn.execute("DELETE FROM probe_sets")
    QTest.mouseClick(bias_panel.run_button, Qt.MouseButton.LeftButton)
    message = bias_panel.messages[-1]
    assert message.startswith("Probing failed: no probe sets yet")
    assert_worded([message], label(actions()[Step.IMPORT_PROBES]))
    assert "“Import probes”" in message and "“Generate probes from templates”" in message
    assert bias_panel.run_button.isEnabled()  # one can run again
