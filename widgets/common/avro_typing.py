"""Avro phonetic typing in place, as the Avro keyboard does it, for any QPlainTextEdit.

While the mode is on, Latin keystrokes do not reach the editor: they collect in the current
word's Roman buffer, and the word on screen is replaced by ``avro.parse(buffer)`` after every
key (``a`` → অ, ``am`` → আম, ``ami`` → আমি). Backspace removes the last Roman letter and
re-converts. Space, Enter, Tab, a click elsewhere, a cursor key or any edit not made here
ends the word. Each word is one undo step (the edits of one word join one edit block), so
Ctrl+Z takes back the whole word as the Avro keyboard does, and Ctrl+Shift+Z restores it.

F12 (Avro's own toggle) and Ctrl+Alt+B switch the mode while the editor has focus.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

log = logging.getLogger(__name__)

TOGGLE_KEYS = (QKeySequence("F12"), QKeySequence("Ctrl+Alt+B"))
_PASS_MODIFIERS = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier


def avro_parse(latin: str) -> str:
    import avro  # lazy: only reviewers who switch the mode pay for it

    return avro.parse(latin)


def _is_toggle(event: QKeyEvent) -> bool:
    pressed = QKeySequence(event.keyCombination())
    return any(pressed.matches(key) == QKeySequence.SequenceMatch.ExactMatch for key in TOGGLE_KEYS)


def _roman(text: str) -> bool:
    """A key that belongs to an Avro word: printable ASCII other than white space."""
    return len(text) == 1 and "!" <= text <= "~"


class AvroTyping(QObject):
    """Converts Roman keystrokes to Bengali inside ``editor`` (an event filter on it)."""

    sig_enabled_changed = Signal(bool)

    def __init__(
        self,
        editor: QPlainTextEdit,
        *,
        parse: Callable[[str], str] = avro_parse,
        enabled: bool = False,
    ):
        super().__init__(editor)
        self.editor = editor
        self._parse = parse
        self._enabled = enabled
        self._buffer = ""
        self._start = 0
        self._length = 0
        self._revision = -1
        editor.installEventFilter(self)

    # -- mode --------------------------------------------------------------------------------
    def is_enabled(self) -> bool:
        return self._enabled

    def set_enabled(self, enabled: bool) -> None:
        if enabled == self._enabled:
            return
        self._enabled = enabled
        self.end_word()
        self.sig_enabled_changed.emit(enabled)

    def toggle(self) -> None:
        self.set_enabled(not self._enabled)

    @property
    def buffer(self) -> str:
        """The Roman letters of the word being typed ("" between words)."""
        return self._buffer

    def end_word(self) -> None:
        self._buffer = ""
        self._length = 0

    # -- keys --------------------------------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.ShortcutOverride and _is_toggle(event):  # type: ignore[arg-type]
            event.accept()  # ours, not a window action's
            return True
        if kind != QEvent.Type.KeyPress:
            if kind in (QEvent.Type.FocusOut, QEvent.Type.MouseButtonPress):
                self.end_word()
            return False
        key_event: QKeyEvent = event  # type: ignore[assignment]
        if _is_toggle(key_event):
            self.toggle()
            return True
        if not self._enabled or self.editor.isReadOnly():
            return False
        if key_event.modifiers() & _PASS_MODIFIERS:
            self.end_word()  # Ctrl+Z, Ctrl+Enter …: the editor and the window handle them
            return False
        if key_event.key() == Qt.Key.Key_Backspace and self._continues():
            self._buffer = self._buffer[:-1]
            self._render(join=True)
            return True
        text = key_event.text()
        if _roman(text):
            continues = self._continues()
            if not continues:
                self._begin_word()
            self._buffer += text
            self._render(join=continues)
            return True
        self.end_word()  # space, Enter, cursor keys, Bengali from another input method
        return False

    def _continues(self) -> bool:
        """Whether the word on screen is still the one this buffer rendered."""
        if not self._buffer:
            return False
        cursor = self.editor.textCursor()
        return (
            not cursor.hasSelection()
            and cursor.position() == self._start + self._length
            and self.editor.document().revision() == self._revision
        )

    def _begin_word(self) -> None:
        self._buffer = ""
        cursor = self.editor.textCursor()
        self._start = cursor.selectionStart()
        self._length = cursor.selectionEnd() - cursor.selectionStart()  # typing replaces it

    def _render(self, *, join: bool) -> None:
        """Replace the word on screen by the conversion of the buffer; one undo step a word."""
        bengali = self._parse(self._buffer) if self._buffer else ""
        cursor = self.editor.textCursor()
        if join:
            cursor.joinPreviousEditBlock()
        else:
            cursor.beginEditBlock()
        cursor.setPosition(self._start)
        cursor.setPosition(self._start + self._length, QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(bengali)
        cursor.endEditBlock()
        self._length = len(bengali)
        self.editor.setTextCursor(cursor)
        self._revision = self.editor.document().revision()
        if not self._buffer:
            self.end_word()
