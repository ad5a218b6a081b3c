"""FailureBars: the failure modes of task runs as grouped horizontal bars (shares 0–1).

One group per run (task · regime · script · model), one bar per failure mode: unparseable, output
script drift, empty. Painted with QPainter from the rows it is given; no data, no chart.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QSizePolicy, QWidget

from engine.i18n import _, digits
from widgets.common.labels import label

MODES = (
    ("unparseable", "#c0392b"),
    ("script_drift", "#e67e22"),
    ("empty", "#7f8c8d"),
)
BAR_H, GAP, LABEL_W, LEGEND_H = 7, 8, 230, 22


class FailureBars(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.rows: list[tuple[str, dict]] = []  # (label, {mode: share or None})
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    def shown_texts(self) -> list[str]:
        """What the bars write, for tests that read the screen (the painter draws it)."""
        values = [f.get("unparseable") for _label, f in self.rows]
        return [text for text, _f in self.rows] + [
            "—" if v is None else digits(f"{v:.2f}") for v in values
        ]

    def set_runs(self, runs: list[dict]) -> None:
        self.rows = [
            (
                f"{label('task', r['task'])} · {label('regime', r['regime'])}"
                + (f" k={digits(r['k'])}" if r["k"] else "")
                + f" · {label('script', r['script'])}"
                + (" · " + _("constrained") if r["constrained"] else "")
                + f" · {r['model'] or ''}",
                r["failures"],
            )
            for r in runs
        ]
        self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(600, LEGEND_H + len(self.rows) * (3 * BAR_H + GAP) + GAP)

    def minimumSizeHint(self) -> QSize:
        return QSize(300, LEGEND_H + min(len(self.rows), 3) * (3 * BAR_H + GAP) + GAP)

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), Qt.GlobalColor.white)
        width = max(self.width() - LABEL_W - 60, 40)
        x = 4.0
        for mode, colour in MODES:  # legend
            painter.fillRect(QRectF(x, 6, 10, 10), QColor(colour))
            text = {"unparseable": _("unparseable"), "script_drift": _("script drift"),
                    "empty": _("empty")}[mode]  # fmt: skip
            painter.setPen(Qt.GlobalColor.black)
            painter.drawText(QRectF(x + 14, 2, 120, 18), Qt.AlignmentFlag.AlignVCenter, text)
            x += 130
        painter.drawText(
            QRectF(LABEL_W, 2, width, 18), Qt.AlignmentFlag.AlignRight, _("share of outputs (0–1)")
        )
        y = float(LEGEND_H)
        for text, failures in self.rows:
            painter.setPen(Qt.GlobalColor.black)
            painter.drawText(
                QRectF(4, y, LABEL_W - 8, 3 * BAR_H),
                Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                painter.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, LABEL_W - 8),
            )
            for i, (mode, colour) in enumerate(MODES):
                share = failures.get(mode)
                top = y + i * BAR_H
                painter.fillRect(QRectF(LABEL_W, top, width, BAR_H - 1), QColor("#f2f2f2"))
                if share:
                    painter.fillRect(QRectF(LABEL_W, top, width * share, BAR_H - 1), QColor(colour))
            value = failures.get("unparseable")
            painter.drawText(
                QRectF(LABEL_W + width + 4, y, 56, 3 * BAR_H),
                Qt.AlignmentFlag.AlignVCenter,
                "—" if value is None else digits(f"{value:.2f}"),
            )
            y += 3 * BAR_H + GAP
        painter.end()
