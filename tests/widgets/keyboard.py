"""Typing as a person does, for widget tests: QTest.keyClicks takes only what a keyboard
key names (it aborts on U+202E and on Bengali letters), so other characters arrive as an
input method sends them, a key event carrying the text."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget


def type_text(widget: QWidget, text: str) -> None:
    for char in text:
        if char.isascii() and char.isprintable():
            QTest.keyClicks(widget, char)
        else:
            event = QKeyEvent(QEvent.Type.KeyPress, 0, Qt.KeyboardModifier.NoModifier, char)
            QApplication.sendEvent(widget, event)


def retype(box: QWidget, text: str) -> None:
    """Replace what ``box`` holds: select all, type ``text``, Enter."""
    QTest.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    type_text(box, text)
    QTest.keyClick(box, Qt.Key.Key_Return)
