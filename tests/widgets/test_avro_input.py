"""Avro phonetic typing in place: Latin keystrokes become Bengali inside the field."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit

from widgets.avro_input import AvroTyping


def _edit(qtbot, enabled=True):
    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    edit.show()
    edit.setFocus()
    return edit, AvroTyping(edit, enabled)


def test_words_become_bengali_as_typed(qtbot):
    edit, _typing = _edit(qtbot)
    qtbot.keyClicks(edit, "am")
    assert edit.toPlainText() == "আম"
    qtbot.keyClicks(edit, "i bhalo achi.")
    assert edit.toPlainText() == "আমি ভাল আছি।"


def test_backspace_removes_the_last_latin_letter(qtbot):
    edit, _typing = _edit(qtbot)
    qtbot.keyClicks(edit, "kori")
    qtbot.keyClick(edit, Qt.Key.Key_Backspace)
    assert edit.toPlainText() == "কর"
    qtbot.keyClick(edit, Qt.Key.Key_Space)
    qtbot.keyClick(edit, Qt.Key.Key_Backspace)  # outside a word: an ordinary backspace
    assert edit.toPlainText() == "কর"


def test_typing_inside_existing_text_and_switching_off(qtbot):
    edit, typing = _edit(qtbot)
    edit.setPlainText("তুমি  যাও")
    cursor = edit.textCursor()
    cursor.setPosition(5)
    edit.setTextCursor(cursor)
    qtbot.keyClicks(edit, "kobe")
    assert edit.toPlainText() == "তুমি কবে যাও"
    typing.set_enabled(False)
    qtbot.keyClicks(edit, "x")
    assert edit.toPlainText() == "তুমি কবেx যাও"
    typing.set_enabled(True)
    edit.setReadOnly(True)
    qtbot.keyClicks(edit, "ami")
    assert edit.toPlainText() == "তুমি কবেx যাও"  # a read-only field stays unchanged


def test_review_detail_avro_mode_types_in_the_gold_editor(qtbot):
    from widgets.review_detail import ReviewDetail

    detail = ReviewDetail()
    qtbot.addWidget(detail)
    detail.show()
    detail.editor.setEnabled(True)  # as when a variant is shown
    detail.set_avro_mode(True)
    detail.editor.setFocus()
    qtbot.keyClicks(detail.editor, "ami")
    assert detail.editor.toPlainText() == "আমি"
    detail.set_avro_mode(False)
    qtbot.keyClicks(detail.editor, " ok")
    assert detail.editor.toPlainText() == "আমি ok"
