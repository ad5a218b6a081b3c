"""Avro phonetic typing in place, as the Avro keyboard does it.

With it on, Latin keystrokes typed into a text field become Bengali in the field itself:
the word being typed is kept in Latin internally and its Bengali rendering (``avro.parse``)
replaces itself on every key (``a`` → অ, ``am`` → আম, ``ami`` → আমি); space, punctuation
other than Avro's own, Enter, a click or a cursor move end the word, and Backspace inside a
word removes its last Latin letter. Nothing needs a side field.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

log = logging.getLogger(__name__)

# Latin characters that take part in an Avro word (letters, digits and Avro's own marks)
WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789`^:.$")


def _parse(latin: str) -> str:
    import avro  # lazy: only those who switch Avro on pay for it

    return avro.parse(latin)


class AvroTyping(QObject):
    """An event filter on one QPlainTextEdit; ``set_enabled`` switches it on and off."""

    def __init__(self, edit: QPlainTextEdit, enabled: bool = False):
        super().__init__(edit)
        self.edit = edit
        self.enabled = False
        self.latin = ""
        self._anchor = 0
        self._shown = 0
        edit.installEventFilter(self)
        self.set_enabled(enabled)

    def set_enabled(self, enabled: bool) -> None:
        self.enabled = enabled
        self.commit()

    def commit(self) -> None:
        """End the current word: its Bengali stays as it is."""
        self.latin, self._shown = "", 0

    def _render(self) -> None:
        new = _parse(self.latin) if self.latin else ""
        cursor = self.edit.textCursor()
        cursor.beginEditBlock()
        cursor.setPosition(self._anchor)
        cursor.setPosition(self._anchor + self._shown, QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(new)
        cursor.endEditBlock()
        self.edit.setTextCursor(cursor)
        self._shown = len(new)  # Bengali is in the BMP: one UTF-16 unit per character

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if not self.enabled or obj is not self.edit:
            return False
        if self.edit.isReadOnly() or not self.edit.isEnabled():
            return False
        kind = event.type()
        if kind in (QEvent.Type.MouseButtonPress, QEvent.Type.FocusOut):
            self.commit()
            return False
        if kind != QEvent.Type.KeyPress:
            return False
        text, key = event.text(), event.key()
        modifiers = event.modifiers() & ~Qt.KeyboardModifier.ShiftModifier
        if self.latin and key == Qt.Key.Key_Backspace and not modifiers:
            self.latin = self.latin[:-1]
            self._render()
            if not self.latin:
                self.commit()
            return True
        if len(text) == 1 and text in WORD_CHARS and not modifiers:
            cursor = self.edit.textCursor()
            if self.latin and cursor.position() != self._anchor + self._shown:
                self.commit()  # the cursor moved away: a new word starts here
            if not self.latin:
                if cursor.hasSelection():
                    cursor.removeSelectedText()
                    self.edit.setTextCursor(cursor)
                self._anchor, self._shown = cursor.position(), 0
            self.latin += text
            self._render()
            return True
        if self.latin:
            self.commit()
        return False
