"""The judge's calibration against the human-scored answers, as the Judge panel shows it: the
agreement figures (CCC, MAE, Pearson, Spearman, CBS) in one line and the confusion table of
score bands (rows: human, columns: judge), the diagonal marked."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from engine.i18n import _, digits
from widgets.common.task_bridge import describe_error


def _fmt(value) -> str:
    return "—" if value is None else f"{value:.3f}"


class CalibrationView(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.figures = QLabel(_("No calibration yet."))
        self.figures.setWordWrap(True)
        self.figures.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.confusion = QTableWidget(0, 0)
        self.confusion.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.figures)
        layout.addWidget(QLabel(_("Confusion (rows: human score band, columns: judge)")))
        layout.addWidget(self.confusion, 1)

    def show_busy(self) -> None:
        self.figures.setText(_("Calibrating…"))

    def show_error(self, exc: BaseException) -> None:
        # the engine's steps and settings in the window's words, secrets masked
        self.figures.setText(_("Calibration failed: {error}").format(error=describe_error(exc)))

    def show_result(self, result: dict) -> None:
        note = f"\n{result['note']}" if result.get("note") else ""
        self.figures.setText(
            _(
                "{model} on {n} human-scored answers: CCC {ccc} · MAE {mae} · Pearson {r} · "
                "Spearman {rho} · CBS {cbs} (critical {nc})"
            ).format(
                model=result["judge_model"],
                n=result["n"],
                ccc=_fmt(result["ccc"]),
                mae=_fmt(result["mae"]),
                r=_fmt(result["pearson"]),
                rho=_fmt(result["spearman"]),
                cbs=_fmt(result["cbs"]),
                nc=result["n_critical"],
            )
            + note
        )
        bands = result["bands"]
        self.confusion.setRowCount(len(bands))
        self.confusion.setColumnCount(len(bands))
        self.confusion.setHorizontalHeaderLabels(bands)
        self.confusion.setVerticalHeaderLabels(bands)
        for r, row in enumerate(result["confusion"]):
            for c, value in enumerate(row):
                item = QTableWidgetItem(digits(value))
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                if r == c and value:
                    item.setBackground(Qt.GlobalColor.green)
                self.confusion.setItem(r, c, item)
        self.confusion.resizeColumnsToContents()
