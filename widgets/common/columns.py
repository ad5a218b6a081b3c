"""Table columns as wide as their headers (no clipped header at 1366 px, in either language).

A QHeaderView starts every section at 100 px whatever its text ("α score (interval)" showed
as "ɑ score (interval"); ``resizeColumnsToContents`` fixes that only once rows arrive, and a
column per number then makes the table wider than the panel. Here every section gets at least
its header's width, a long header is put on two lines first (Bengali labels are longer), and
one chosen column stretches to take what is left.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QHeaderView, QStyle, QTableView, QTableWidget

WRAP_FROM_PX = 120  # a header wider than this goes on two lines


def header_width(header: QHeaderView, text: str) -> int:
    """The section width that shows ``text`` unclipped (all its lines, the style's margins)."""
    metrics = QFontMetrics(header.font())
    margin = 2 * header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    lines = text.splitlines() or [""]
    return max(metrics.horizontalAdvance(line) for line in lines) + margin + 2


def two_lines(text: str) -> str:
    """``text`` broken at the space nearest its middle (unchanged when it has no space)."""
    if "\n" in text or " " not in text:
        return text
    middle = len(text) / 2
    cut = min((i for i, c in enumerate(text) if c == " "), key=lambda i: abs(i - middle))
    return text[:cut] + "\n" + text[cut + 1 :]


def fit_columns_to_headers(
    view: QTableView,
    *,
    stretch: int | None = None,
    grow_only: bool = False,
    at_least: dict[int, int] | None = None,
) -> None:
    """Size each column of ``view`` to its header; ``stretch`` takes the rest (its long cells
    elide, widgets.common.elided_tooltips shows them whole). ``grow_only`` keeps a column
    that is already wider (sized to its contents); ``at_least`` gives columns of names a
    width that shows a name, not "sy…".

    In a QTableWidget a header wider than :data:`WRAP_FROM_PX` is first put on two lines."""
    header = view.horizontalHeader()
    model = view.model()
    for section in range(header.count()):
        item = view.horizontalHeaderItem(section) if isinstance(view, QTableWidget) else None
        if item is not None:
            if header_width(header, item.text()) > WRAP_FROM_PX:
                item.setText(two_lines(item.text()))
        text = model.headerData(section, Qt.Orientation.Horizontal)
        if isinstance(text, str) and text:
            header.setMinimumSectionSize(min(header.minimumSectionSize(), 30))
            width = max(header_width(header, text), 30)
            if grow_only:
                width = max(width, header.sectionSize(section))
            width = max(width, (at_least or {}).get(section, 0))
            header.resizeSection(section, width)
    if stretch is not None:
        header.setStretchLastSection(False)
        header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
