"""The answers table's view: Home and End (with or without Ctrl) go to the first and the
last answer of the whole list, not of the rows fetched so far.

The model (:mod:`widgets.judging.answers_model`) fetches rows in blocks as the view
scrolls, so Qt's own End would stop at the last fetched row (and a table's End moves to
its last column, useless in a list of whole rows).
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QTableView

from widgets.judging.answers_model import AnswersTableModel

Move = QAbstractItemView.CursorAction


class AnswersTableView(QTableView):
    def moveCursor(self, action: Move, modifiers: Qt.KeyboardModifier) -> QModelIndex:
        model = self.model()
        if isinstance(model, AnswersTableModel) and action in (Move.MoveHome, Move.MoveEnd):
            if not model.ids:
                return QModelIndex()
            if action == Move.MoveEnd:
                model.ensure_loaded(len(model.ids) - 1)
            row = 0 if action == Move.MoveHome else model.rowCount() - 1
            return model.index(row, max(self.currentIndex().column(), 0))
        return super().moveCursor(action, modifiers)
