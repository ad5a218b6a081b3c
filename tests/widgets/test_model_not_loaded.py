"""A step whose model did not load never says it finished: the engine reports such a model in
its runs' summaries (``load_error``) instead of raising, and the Generate and Translate
dialogs, the Tasks panel and the main window's status bar say that it failed and why, naming
the model. The fault injected: a registered model whose file is not a GGUF (a text file).
Driven as a person does: the model is the workspace's default, Run is clicked."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget

from app.study_actions import StudyActions
from engine.llm.models.registry import register_gguf
from engine.workspace.store import Workspace
from tests.widgets.task_fixtures import task_ws  # noqa: F401 (fixture)
from tests.widgets.translation.conftest import corpus_ws  # noqa: F401 (fixture)
from widgets.answering.generate_dialog import GenerateDialog
from widgets.translation.translate_dialog import TranslateDialog
from widgets.understanding.tasks_panel import TasksPanel

NOT_GGUF = "not-a-gguf"


def add_model_that_is_not_a_gguf(ws: Workspace, tmp_path) -> None:
    """The workspace's default model, whose file holds text, not a GGUF model."""
    path = tmp_path / "notes.gguf"
    path.write_text("these are notes, not a model\n" * 64, encoding="utf-8")
    register_gguf(
        ws,
        path,
        name=NOT_GGUF,
        sha256="0" * 64,
        size_bytes=path.stat().st_size,
        is_default=True,
    )


def says_it_failed(text: str) -> None:
    assert "failed" in text and NOT_GGUF in text and "did not load" in text, text
    assert "written" not in text and "finished" not in text, text


@pytest.fixture
def answer_ws(tmp_path):
    from engine.importing.importers import import_questions

    questions = tmp_path / "one question.csv"
    questions.write_text(
        "id,question,sylhet\nq1,সৌরজগতের বৃহত্তম গ্রহের নাম কী?,সৌরজগতর সবথাকি বড় গ্রহর নাম কিতা?\n",
        encoding="utf-8",
    )
    ws = Workspace(tmp_path / "study.sqlite", create=True)
    import_questions(ws, questions, name="one")
    add_model_that_is_not_a_gguf(ws, tmp_path)
    yield ws
    ws.close()


def test_generate_says_the_model_did_not_load(qtbot, answer_ws, sync_bridge):
    dialog = GenerateDialog(answer_ws, sync_bridge)
    qtbot.addWidget(dialog)
    dialog.show()
    finished: list[dict] = []
    dialog.sig_finished.connect(finished.append)
    QTest.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(finished), timeout=60_000)
    assert finished[0]["load_error"] and not finished[0]["complete"]
    says_it_failed(dialog.status.text())
    assert not sync_bridge.errors  # the dialog says it; no message box on top
    assert answer_ws.scalar("SELECT count(*) FROM responses") == 0


def test_the_tasks_panel_says_the_model_did_not_load(qtbot, task_ws, sync_bridge, tmp_path):
    add_model_that_is_not_a_gguf(task_ws, tmp_path)
    panel = TasksPanel(task_ws, sync_bridge)
    qtbot.addWidget(panel)
    panel.show()
    assert list(panel.checked_models().values()) == [NOT_GGUF]  # the default is ticked
    messages: list[str] = []
    panel.sig_status_message.connect(messages.append)
    QTest.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.run_button.isEnabled(), timeout=60_000)
    says_it_failed(messages[-1])
    says_it_failed(panel.progress_note.text())
    assert "100%" not in panel.progress.text()
    assert not sync_bridge.errors


@pytest.mark.slow
def test_translate_says_the_model_did_not_load(qtbot, corpus_ws, sync_bridge, tmp_path):
    add_model_that_is_not_a_gguf(corpus_ws, tmp_path)
    dialog = TranslateDialog(corpus_ws, sync_bridge)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.model.currentText().startswith(NOT_GGUF)
    listing = dialog.dialects
    row = next(i for i in range(listing.count()) if listing.item(i).data(256) == "sylhet")
    rect = listing.visualItemRect(listing.item(row))
    qtbot.mouseClick(listing.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    QTest.keyClick(listing, Qt.Key.Key_Space)
    dialog.limit.setFocus()
    QTest.keyClick(dialog.limit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(dialog.limit, "1")
    assert dialog.limit.value() == 1
    finished: list[dict] = []
    dialog.sig_finished.connect(finished.append)
    QTest.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(finished), timeout=300_000)
    assert finished[0]["load_error"] and finished[0]["written"] == 0
    says_it_failed(dialog.status.text())
    # the main window's status bar, which stays after the dialog is closed
    parent = QWidget()
    qtbot.addWidget(parent)
    actions = StudyActions(parent, sync_bridge)
    shown: list[str] = []
    actions.sig_status_message.connect(lambda text, _ms: shown.append(text))
    actions.after_translation(finished[0])
    says_it_failed(shown[-1])
    assert shown[-1].startswith("Translation failed:")
