"""The questions x dialects review grid as a Qt model over question ids, fetched lazily.

Only the ids are held up front; question text and the variant cells are read in blocks as
the view scrolls (``canFetchMore``/``fetchMore``), so thousands of questions open at once
(docs/design.md, house style 6).
"""

from __future__ import annotations

import math

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QPointF,
    QRectF,
    Qt,
)
from PySide6.QtGui import QBrush, QColor, QFont, QIcon, QPainter, QPainterPath, QPen, QPixmap

from engine.i18n import _, digits
from engine.text.text_rules import visible
from engine.translation import api as translation
from engine.workspace.api import Workspace
from widgets.common.labels import dialect_of, label

FETCH_BLOCK = 200
VARIANT_ID_ROLE = Qt.ItemDataRole.UserRole + 1
STATUS_ROLE = Qt.ItemDataRole.UserRole + 2
QUESTION_ID_ROLE = Qt.ItemDataRole.UserRole + 3

# Light backgrounds keep black Bengali text readable; the icon repeats the status in shape
# so colour is never the only cue.
STATUS_COLOURS = {
    "draft": "#eceff1",
    "reviewed": "#dbeafe",
    "gold": "#fdf0c4",
    "flagged": "#fde2c8",
    "rejected": "#f8d0d0",
}
STATUS_ICON_COLOURS = {
    "draft": "#78909c",
    "reviewed": "#2563eb",
    "gold": "#c99700",
    "flagged": "#e07b00",
    "rejected": "#c62828",
}


def status_label(status: str) -> str:
    return {
        "draft": _("draft"),
        "reviewed": _("reviewed"),
        "gold": _("gold"),
        "flagged": _("flagged"),
        "rejected": _("rejected"),
    }.get(status, status)


_icons: dict[str, QIcon] = {}


def status_icon(status: str) -> QIcon:
    """A small drawn icon per status: dot, tick, star, flag, cross (no compiled resources)."""
    if status in _icons:
        return _icons[status]
    size = 16
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    colour = QColor(STATUS_ICON_COLOURS.get(status, "#777777"))
    painter.setPen(
        QPen(colour, 2.2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
    )
    painter.setBrush(Qt.BrushStyle.NoBrush)
    if status == "reviewed":
        path = QPainterPath()
        path.moveTo(3, 8.5)
        path.lineTo(6.5, 12)
        path.lineTo(13, 4)
        painter.drawPath(path)
    elif status == "gold":
        path = QPainterPath()
        for i in range(10):
            radius = 7 if i % 2 == 0 else 3
            angle = -math.pi / 2 + i * math.pi / 5
            point = (8 + radius * math.cos(angle), 8.5 + radius * math.sin(angle))
            if i == 0:
                path.moveTo(*point)
            else:
                path.lineTo(*point)
        path.closeSubpath()
        painter.setBrush(colour)
        painter.setPen(QPen(colour, 1))
        painter.drawPath(path)
    elif status == "flagged":
        painter.drawLine(4, 2, 4, 14)
        painter.setBrush(colour)
        painter.setPen(QPen(colour, 1))
        painter.drawPolygon([QPointF(5, 2.5), QPointF(13, 5.5), QPointF(5, 8.5)])
    elif status == "rejected":
        painter.drawLine(4, 4, 12, 12)
        painter.drawLine(12, 4, 4, 12)
    else:
        painter.setBrush(colour)
        painter.drawEllipse(QRectF(5, 5, 6, 6))
    painter.end()
    _icons[status] = QIcon(pixmap)
    return _icons[status]


class ReviewGridModel(QAbstractTableModel):
    """Rows: questions (by id), labelled in the vertical header so the question stays in
    view while the dialect columns scroll. Columns: one per dialect."""

    def __init__(self, workspace: Workspace, dialects: list[dict], parent=None):
        super().__init__(parent)
        self.ws = workspace
        self.dialects = dialects  # [{code, name_en, name_bn}]
        self.codes = [d["code"] for d in dialects]
        self.question_ids: list[int] = []
        self.loaded = 0
        self.questions: dict[int, dict] = {}
        self.cells: dict[tuple[int, str], dict] = {}
        self._bold = QFont()
        self._bold.setBold(True)

    # -- loading ---------------------------------------------------------------------------
    def set_question_ids(self, ids: list[int]) -> None:
        self.beginResetModel()
        self.question_ids = list(ids)
        self.loaded = 0
        self.questions.clear()
        self.cells.clear()
        self._load(min(FETCH_BLOCK, len(self.question_ids)))
        self.endResetModel()

    def _load(self, count: int) -> None:
        block = self.question_ids[self.loaded : self.loaded + count]
        self.questions.update(translation.question_rows(self.ws, block))
        self.cells.update(translation.variant_cells(self.ws, block, self.codes))
        self.loaded += len(block)

    def canFetchMore(self, parent=QModelIndex()) -> bool:
        return not parent.isValid() and self.loaded < len(self.question_ids)

    def fetchMore(self, parent=QModelIndex()) -> None:
        if parent.isValid():
            return
        count = min(FETCH_BLOCK, len(self.question_ids) - self.loaded)
        if count <= 0:
            return
        self.beginInsertRows(QModelIndex(), self.loaded, self.loaded + count - 1)
        self._load(count)
        self.endInsertRows()

    def ensure_loaded(self, row: int) -> None:
        while row >= self.loaded and self.canFetchMore():
            self.fetchMore()

    def refresh_variant(self, variant_id: int) -> None:
        """Re-read one cell after an edit and tell the view."""
        for (qid, code), cell in self.cells.items():
            if cell["id"] == variant_id:
                fresh = translation.variant_cells(self.ws, [qid], [code])
                self.cells.update(fresh)
                row = self.question_ids.index(qid)
                index = self.index(row, self.codes.index(code))
                self.dataChanged.emit(index, index)
                return

    # -- lookups ---------------------------------------------------------------------------
    def variant_at(self, index: QModelIndex | QPersistentModelIndex) -> dict | None:
        if not index.isValid() or index.row() >= self.loaded:
            return None
        qid = self.question_ids[index.row()]
        return self.cells.get((qid, self.codes[index.column()]))

    def index_of_variant(self, variant_id: int) -> QModelIndex:
        for (qid, code), cell in self.cells.items():
            if cell["id"] == variant_id:
                return self.index(self.question_ids.index(qid), self.codes.index(code))
        return QModelIndex()

    # -- Qt model API ----------------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else self.loaded

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.codes)

    def headerData(self, section: int, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal:
            if role == Qt.ItemDataRole.DisplayRole and section < len(self.dialects):
                d = self.dialects[section]
                return dialect_of(d, both=True, code=False, separator="\n")
            return None
        if section >= self.loaded:
            return None
        question = self.questions.get(self.question_ids[section], {})
        if role == Qt.ItemDataRole.DisplayRole:
            label = question.get("ext_id") or digits(str(section + 1))
            return f"{label}  {question.get('text', '')}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return "\n".join(t for t in (question.get("text"), question.get("gloss_en")) if t)
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or index.row() >= self.loaded:
            return None
        qid = self.question_ids[index.row()]
        cell = self.cells.get((qid, self.codes[index.column()]))
        if cell is None:
            if role == Qt.ItemDataRole.DisplayRole:
                return "—"
            if role == Qt.ItemDataRole.ToolTipRole:
                return _("not translated yet")
            if role == Qt.ItemDataRole.ForegroundRole:
                return QBrush(QColor("#9e9e9e"))
            return None
        status = cell["status"]
        if role == Qt.ItemDataRole.DisplayRole:
            return visible(cell["text"])  # a machine draft's hidden characters shown
        if role == Qt.ItemDataRole.DecorationRole:
            return status_icon(status)
        if role == Qt.ItemDataRole.BackgroundRole:
            return QBrush(QColor(STATUS_COLOURS.get(status, "#ffffff")))
        if role == Qt.ItemDataRole.ForegroundRole:
            return QBrush(QColor("#1a1a1a"))
        if role == Qt.ItemDataRole.ToolTipRole:
            return (
                f"{status_label(status)} · {label('provenance', cell['provenance'])}\n"
                + visible(cell["text"])
            )
        if role == Qt.ItemDataRole.FontRole and status == "gold":
            return self._bold
        if role == VARIANT_ID_ROLE:
            return cell["id"]
        if role == STATUS_ROLE:
            return status
        if role == QUESTION_ID_ROLE:
            return qid
        return None
