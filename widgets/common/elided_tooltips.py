"""A cell cut short with "…" shows its whole text as a tooltip (drill-down tables, answers).

Qt elides a cell that does not fit its column and offers no way to read the rest short of
widening the column. Hand-written because Qt has no switch for it: an event filter on each
view's viewport answers the ToolTip event for a cell that has no tooltip of its own and whose
text is wider than the cell (or has more lines than a one-line row shows).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QFontMetrics, QHelpEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QToolTip, QWidget

CELL_PADDING_PX = 8  # the delegate's margins and focus frame around the text


def is_elided(view: QAbstractItemView, index) -> bool:
    text = index.data(Qt.ItemDataRole.DisplayRole)
    if not isinstance(text, str) or not text:
        return False
    rect = view.visualRect(index)
    font = index.data(Qt.ItemDataRole.FontRole) or view.font()
    metrics = QFontMetrics(font)
    lines = text.splitlines()
    if len(lines) * metrics.lineSpacing() > rect.height() + 2:
        return True
    icon = 20 if index.data(Qt.ItemDataRole.DecorationRole) is not None else 0
    return max(metrics.horizontalAdvance(line) for line in lines) + icon + CELL_PADDING_PX > (
        rect.width()
    )


class ElidedCellTooltips(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.ToolTip:
            return False
        view = watched.parent()
        if not isinstance(view, QAbstractItemView) or not isinstance(event, QHelpEvent):
            return False
        index = view.indexAt(event.pos())
        if not index.isValid() or index.data(Qt.ItemDataRole.ToolTipRole):
            return False  # the model's own tooltip, shown by Qt
        if is_elided(view, index):
            QToolTip.showText(event.globalPos(), index.data(), view.viewport())
            return True
        QToolTip.hideText()
        return False


def install_elided_tooltips(root: QWidget) -> int:
    """Every item view under ``root`` (and ``root`` itself) shows elided cells in full on
    hover; returns how many views got it. Views already served are skipped."""
    views = [v for v in root.findChildren(QAbstractItemView) if not isinstance(v, QHeaderView)]
    if isinstance(root, QAbstractItemView):
        views.append(root)
    count = 0
    for view in views:
        viewport = view.viewport()
        if viewport.property("elided_tooltips"):
            continue
        helper = ElidedCellTooltips(viewport)  # owned by the viewport, freed with it
        viewport.installEventFilter(helper)
        viewport.setProperty("elided_tooltips", True)
        count += 1
    return count
