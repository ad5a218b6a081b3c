"""Ctrl+Z in a text field that has nothing left to undo undoes the panel's last edit.

A text field takes Ctrl+Z for itself (Qt gives it the shortcut first), so a panel's own Undo
never fires while the focus is in the field — and after a save the keyboard flow leaves the
focus there, with the field's history cleared. The filter lets the field undo its typing
first and hands the key to the panel's action once the field has no step left.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QLineEdit, QPlainTextEdit, QTextEdit, QWidget


def _field_can(field: QWidget, redo: bool) -> bool:
    if isinstance(field, QLineEdit):
        return field.isRedoAvailable() if redo else field.isUndoAvailable()
    if isinstance(field, (QPlainTextEdit, QTextEdit)):
        document = field.document()
        return document.isRedoAvailable() if redo else document.isUndoAvailable()
    return False


class UndoFallthrough(QObject):
    """Installed on text fields: Undo/Redo keys the field cannot use go to the actions."""

    def __init__(self, undo: QAction, redo: QAction, parent: QObject | None = None):
        super().__init__(parent)
        self.undo, self.redo = undo, redo

    def watch(self, *fields: QWidget) -> None:
        for field in fields:
            field.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() not in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress):
            return False
        assert isinstance(event, QKeyEvent)
        for action, redo, key in (
            (self.undo, False, QKeySequence.StandardKey.Undo),
            (self.redo, True, QKeySequence.StandardKey.Redo),
        ):
            if event.matches(key) and isinstance(watched, QWidget):
                if _field_can(watched, redo):
                    return False  # the field's own typing comes first
                if event.type() == QEvent.Type.KeyPress and action.isEnabled():
                    action.trigger()
                event.accept()
                return True
        return False
