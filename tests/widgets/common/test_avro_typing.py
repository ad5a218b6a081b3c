"""Avro phonetic typing in place in a text field, driven key by key with qtbot."""

from __future__ import annotations

import gc

import avro
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

from engine.translation import review
from widgets.common.avro_typing import AvroTyping
from widgets.translation.review_panel import ReviewPanel


@pytest.fixture(autouse=True)
def collect_qt_garbage():
    """Widgets in reference cycles are freed here, on the GUI thread, not by a GC pass that
    happens to run in a later test's worker thread (a Qt object destroyed off the GUI thread
    crashes)."""
    yield
    gc.collect()


CTRL = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def editor(qtbot):
    field = QPlainTextEdit()
    qtbot.addWidget(field)
    field.show()
    field.setFocus()
    typing = AvroTyping(field, enabled=True)
    return field, typing


def test_each_key_reconverts_the_current_word(editor, qtbot):
    field, typing = editor
    seen = []
    for key in "ami":
        qtbot.keyClicks(field, key)
        seen.append(field.toPlainText())
    assert seen == [avro.parse("a"), avro.parse("am"), avro.parse("ami")] == ["আ", "আম", "আমি"]
    assert typing.buffer == "ami"


@pytest.mark.parametrize("phrase", ["ami bangla", "amar sonar bangla", "ki khobor? valo achi."])
def test_typed_phrase_equals_avro_parse_of_the_whole_phrase(editor, qtbot, phrase):
    field, _typing = editor
    qtbot.keyClicks(field, phrase)
    assert field.toPlainText() == avro.parse(phrase)


def test_backspace_drops_the_last_roman_letter(editor, qtbot):
    field, typing = editor
    qtbot.keyClicks(field, "bangla")
    qtbot.keyClick(field, Qt.Key.Key_Backspace)
    assert field.toPlainText() == avro.parse("bangl") and typing.buffer == "bangl"
    for _ in range(5):
        qtbot.keyClick(field, Qt.Key.Key_Backspace)
    assert field.toPlainText() == "" and typing.buffer == ""


def test_undo_takes_back_a_whole_word_and_redo_restores_it(editor, qtbot):
    field, _typing = editor
    qtbot.keyClicks(field, "ami ")
    qtbot.keyClicks(field, "bangla")
    assert field.toPlainText() == "আমি বাংলা"
    qtbot.keyClick(field, Qt.Key.Key_Z, CTRL)
    assert field.toPlainText() == "আমি "
    qtbot.keyClick(field, Qt.Key.Key_Z, CTRL | Qt.KeyboardModifier.ShiftModifier)
    assert field.toPlainText() == "আমি বাংলা"
    qtbot.keyClick(field, Qt.Key.Key_Z, CTRL)
    qtbot.keyClicks(field, "tumi")  # typing after an undo starts a fresh word
    assert field.toPlainText() == "আমি তুমি"


def test_f12_and_ctrl_alt_b_switch_the_mode(editor, qtbot):
    field, typing = editor
    changes = []
    typing.sig_enabled_changed.connect(changes.append)
    qtbot.keyClick(field, Qt.Key.Key_F12)
    qtbot.keyClicks(field, "ok ")
    qtbot.keyClick(field, Qt.Key.Key_B, CTRL | Qt.KeyboardModifier.AltModifier)
    qtbot.keyClicks(field, "ok")
    assert field.toPlainText() == "ok " + avro.parse("ok")
    assert changes == [False, True]


def test_moving_the_cursor_ends_the_word(editor, qtbot):
    field, typing = editor
    qtbot.keyClicks(field, "ami")
    qtbot.keyClick(field, Qt.Key.Key_Home)
    assert typing.buffer == ""  # a cursor key ends the word
    qtbot.keyClicks(field, "o")
    assert field.toPlainText() == avro.parse("o") + "আমি"


def test_a_selection_is_replaced_by_the_word(editor, qtbot):
    field, _typing = editor
    field.setPlainText("আমি ভাত খাই")
    cursor = field.textCursor()
    cursor.setPosition(4)
    cursor.setPosition(7, QTextCursor.MoveMode.KeepAnchor)
    field.setTextCursor(cursor)
    qtbot.keyClicks(field, "ruTi")
    assert field.toPlainText() == "আমি " + avro.parse("ruTi") + " খাই"


def test_off_the_keys_reach_the_field_unchanged(qtbot):
    field = QPlainTextEdit()
    qtbot.addWidget(field)
    AvroTyping(field)
    qtbot.keyClicks(field, "ami bangla")
    assert field.toPlainText() == "ami bangla"


def test_in_place_in_the_review_gold_field(qtbot, review_ws):
    panel = ReviewPanel(review_ws, reviewer="রহিম")
    qtbot.addWidget(panel)
    panel.resize(1200, 700)
    panel.show()
    modes = []
    panel.sig_avro_mode_changed.connect(modes.append)
    variant = review_ws.scalar("SELECT id FROM variants WHERE provenance = 'machine'")
    panel.select_variant(variant)
    editor = panel.detail.editor
    editor.clear()
    panel.avro_action.trigger()  # Ctrl+M, as before
    assert modes == [True]
    panel.activateWindow()  # window shortcuts (Ctrl+Enter) need an active window
    qtbot.waitUntil(editor.hasFocus, timeout=2000)  # the mode puts the cursor in the field
    qtbot.keyClicks(editor, "amar sOnar bangla")
    assert editor.toPlainText() == "আমার সোনার বাংলা"
    qtbot.keyClick(editor, Qt.Key.Key_Z, CTRL)  # the editor's undo, not the panel's
    assert editor.toPlainText() == "আমার সোনার "
    qtbot.keyClicks(editor, "bangla")
    qtbot.keyClick(editor, Qt.Key.Key_Return, CTRL)  # accept still works in the mode
    state = review.variant_state(review_ws, variant)
    assert state.status == "gold" and state.text == "আমার সোনার বাংলা"
    panel.select_variant(variant)
    panel.detail.editor.setFocus()
    qtbot.keyClick(panel.detail.editor, Qt.Key.Key_F12)
    assert modes == [True, False] and not panel.detail.avro_toggle.isChecked()
