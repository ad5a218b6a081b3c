"""TranslateDialog runs a real RAG translation with the embedded model (synchronous bridge)."""

from __future__ import annotations

from importlib.resources import as_file, files

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from engine.workspace.store import Workspace
from widgets.common.dialog_parts import checked_data, set_checked
from widgets.translation.translate_dialog import TranslateDialog


def test_refuses_to_start_without_a_dialect(qtbot, corpus_ws, sync_bridge):
    dialog = TranslateDialog(corpus_ws, sync_bridge)
    qtbot.addWidget(dialog)
    assert dialog.start() is None
    assert "dialect" in dialog.status.text()
    assert not sync_bridge.tasks()


@pytest.mark.slow
def test_translates_one_question_into_one_dialect(qtbot, corpus_ws, sync_bridge):
    dialog = TranslateDialog(corpus_ws, sync_bridge)
    qtbot.addWidget(dialog)
    assert dialog.question_set.currentData() == "sample questions"
    set_checked(dialog.dialects, ["chittagong"])
    assert checked_data(dialog.dialects) == ["chittagong"]
    dialog.limit.setValue(1)
    with qtbot.waitSignal(dialog.sig_finished, timeout=120_000) as signal:
        dialog.start()
    summary = signal.args[0]
    assert not sync_bridge.errors
    assert summary["items"] == 1 and summary["errors"] == 0
    drafts = corpus_ws.query(
        "SELECT text, status, provenance, run_id FROM variants WHERE dialect = 'chittagong'"
    )
    assert len(drafts) == summary["written"] == 1
    assert drafts[0]["status"] == "draft" and drafts[0]["provenance"] == "machine"
    assert "1 draft(s) written" in dialog.status.text()
    assert dialog.start_button.isEnabled()


def test_a_dialect_without_corpus_pairs_is_warned_about_before_the_start(
    qtbot, corpus_ws, sync_bridge
):
    dialog = TranslateDialog(corpus_ws, sync_bridge)
    qtbot.addWidget(dialog)
    assert not dialog.pairs_warning.isVisibleTo(dialog)
    set_checked(dialog.dialects, ["chittagong"])
    assert not dialog.pairs_warning.isVisibleTo(dialog)
    set_checked(dialog.dialects, ["chittagong", "barishal"])
    assert dialog.without_pairs() == ["barishal"]
    assert dialog.pairs_warning.isVisibleTo(dialog)
    assert "Barishal" in dialog.pairs_warning.text() and not sync_bridge.tasks()


def test_says_which_of_question_set_and_model_is_missing(qtbot, tmp_path, sync_bridge):
    from engine.importing.importers import import_questions

    ws = Workspace(tmp_path / "empty.sqlite", create=True)
    dialog = TranslateDialog(ws, sync_bridge)
    qtbot.addWidget(dialog)
    assert "question set" in dialog.status.text() and "model" in dialog.status.text()
    with as_file(files("resources") / "sample" / "questions.csv") as qs:
        import_questions(ws, qs, name="sample questions")
    dialog = TranslateDialog(ws, sync_bridge)
    qtbot.addWidget(dialog)
    assert dialog.status.text() == "Add a model first (the Models panel)."
    assert not dialog.start_button.isEnabled()
    ws.close()


def _type_limit(qtbot, box, text: str) -> None:
    qtbot.mouseClick(box.lineEdit(), Qt.MouseButton.LeftButton)
    QTest.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(box, text)
    QTest.keyClick(box, Qt.Key.Key_Return)


def test_the_limit_opens_small_takes_typed_numbers_and_keeps_enter(qtbot, corpus_ws, sync_bridge):
    dialog = TranslateDialog(corpus_ws, sync_bridge)
    qtbot.addWidget(dialog)
    dialog.show()
    set_checked(dialog.dialects, ["chittagong", "sylhet"])
    assert dialog.limit.value() == 10
    assert dialog.scope.text() == "20 drafts to write: 10 questions × 2 dialects"
    _type_limit(qtbot, dialog.limit, "0")
    assert dialog.limit.text() == "every question"
    assert dialog.scope.text() == "80 drafts to write: 40 questions × 2 dialects"
    # the reported bug: a 3 typed over the shown "every question" was refused
    dialog.limit.lineEdit().end(False)
    QTest.keyClicks(dialog.limit, "3")
    QTest.keyClick(dialog.limit, Qt.Key.Key_Enter)
    assert dialog.limit.value() == 3
    assert dialog.scope.text() == "6 drafts to write: 3 questions × 2 dialects"
    QTest.keyClick(dialog.limit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    for char in "১২":  # Bengali digits (QTest.keyClicks takes ASCII only)
        QApplication.sendEvent(
            dialog.limit, QKeyEvent(QEvent.Type.KeyPress, 0, Qt.KeyboardModifier.NoModifier, char)
        )
    QTest.keyClick(dialog.limit, Qt.Key.Key_Return)
    assert dialog.limit.value() == 12
    assert not sync_bridge.tasks(), "Enter in the box must not start the job"


def test_a_large_job_asks_first_and_no_starts_nothing(qtbot, tmp_path, sync_bridge):
    from engine.importing.importers import import_questions
    from engine.llm.models.registry import ensure_embedded_default

    ws = Workspace(tmp_path / "large.sqlite", create=True)
    rows = ["id,question"] + [f"q{i},প্রশ্ন নম্বর {i} কী?" for i in range(300)]
    (tmp_path / "many.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    import_questions(ws, tmp_path / "many.csv", name="many")
    ensure_embedded_default(ws)
    dialog = TranslateDialog(ws, sync_bridge)
    qtbot.addWidget(dialog)
    dialog.show()
    set_checked(dialog.dialects, ["chittagong", "sylhet"])
    _type_limit(qtbot, dialog.limit, "250")
    assert dialog.scope.text() == "500 drafts to write: 250 questions × 2 dialects"
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    box = dialog.confirmation
    assert box is not None and "500 items" in box.text()
    qtbot.mouseClick(box.button(QMessageBox.StandardButton.No), Qt.MouseButton.LeftButton)
    assert not sync_bridge.tasks() and dialog.task is None
    ws.close()


def test_a_request_the_fields_do_not_make_is_named_by_its_control(qtbot, corpus_ws, sync_bridge):
    """The dialog words a refused request with its controls' labels and starts nothing."""
    dialog = TranslateDialog(corpus_ws, sync_bridge)
    qtbot.addWidget(dialog)
    dialog.show()
    row = next(
        i for i in range(dialog.dialects.count()) if dialog.dialects.item(i).data(256) == "sylhet"
    )
    rect = dialog.dialects.visualItemRect(dialog.dialects.item(row))
    qtbot.mouseClick(dialog.dialects.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    QTest.keyClick(dialog.dialects, Qt.Key.Key_Space)
    for box in dialog.index.splits.values():  # both indexed splits unticked
        qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    assert dialog.status.text() == "“Indexed splits”: choose at least one split to index"
    assert not sync_bridge.tasks() and dialog.task is None


def test_a_translation_that_would_write_nothing_says_so_before_it_starts(
    qtbot, sync_bridge, tmp_path
):
    """Every question already has a person's rendering in the ticked dialect: the dialog
    says nothing would be drafted, and why, and Translate waits for another choice."""
    from engine.importing.question_import import import_questions
    from engine.llm.models.registry import register_endpoint

    rendered = tmp_path / "rendered.csv"
    rendered.write_text(
        "question,chittagong\nতুমি কোথায় যাও?,তুঁই কডে যর?\nভাত খেয়েছ?,ভাত খাইয়ো?\n",
        encoding="utf-8",
    )
    with Workspace(tmp_path / "ws.sqlite") as ws:
        import_questions(ws, rendered, name="rendered")
        register_endpoint(ws, "m", ["http://127.0.0.1:9"], "m", is_default=True)
        dialog = TranslateDialog(ws, sync_bridge)
        qtbot.addWidget(dialog)
        dialog.show()
        row = next(
            i
            for i in range(dialog.dialects.count())
            if dialog.dialects.item(i).data(256) == "chittagong"
        )
        rect = dialog.dialects.visualItemRect(dialog.dialects.item(row))
        qtbot.mouseClick(dialog.dialects.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        QTest.keyClick(dialog.dialects, Qt.Key.Key_Space)
        assert checked_data(dialog.dialects) == ["chittagong"]
        assert dialog.scope.text().startswith("0 drafts to write")
        assert "2 kept (reviewed, gold or edited by a person)" in dialog.scope.text()
        assert "Nothing to translate" in dialog.status.text()
        assert not dialog.start_button.isEnabled()
        QTest.keyClick(dialog.dialects, Qt.Key.Key_Space)  # untick: the refusal goes
        assert "Nothing to translate" not in dialog.status.text()
