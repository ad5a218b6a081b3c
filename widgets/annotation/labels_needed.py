"""The draw dialog's answer to "how many labels do I need": for a typed target width, each
model × dialect cell's labels under a uniform and an active draw, predicted from the judge
run's pilot labels (engine.annotation.ppi_power), shown before the user confirms the draw."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QLabel,
    QLineEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.annotation import api as annotation
from engine.i18n import _
from engine.scales import parse_number
from engine.workspace.api import Workspace
from widgets.common.columns import fit_columns_to_headers
from widgets.common.labels import dialect_of


class LabelsNeededView(QWidget):
    """A target-width field, a line about the pilot and a table of labels per cell."""

    def __init__(self, ws: Workspace, parent: QWidget | None = None):
        super().__init__(parent)
        self.ws = ws
        self.run: int | None = None
        self.width_edit = QLineEdit(f"{annotation.PPI.width:g}")
        self.width_edit.setToolTip(
            _("The width of the interval each cell's mean should reach, in score points.")
        )
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.table = QTableWidget(0, 5)
        self.table.setHorizontalHeaderLabels(
            [_("Model"), _("Dialect"), _("Answers"), _("Uniform draw"), _("Active draw")]
        )
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        fit_columns_to_headers(self.table, stretch=0)
        form = QFormLayout()
        form.addRow(_("Target interval width:"), self.width_edit)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(form)
        layout.addWidget(self.summary)
        layout.addWidget(self.table)
        self.width_edit.textChanged.connect(lambda _text: self.refresh())

    def set_run(self, run: int | None) -> None:
        self.run = run
        self.refresh()

    def refresh(self) -> None:
        self.table.setRowCount(0)
        if self.run is None:
            self.summary.setText("")
            return
        width = parse_number(self.width_edit.text())
        if width is None or width <= 0:
            self.summary.setText(_("Type a target width above 0, such as 0.5."))
            return
        need = annotation.labels_needed(self.ws, self.run, annotation.PPISettings(width=width))
        names = self.ws.dialect_names()
        pilot = sum(c["pilot"] for c in need["cells"])
        if need["pilot_batch"] is None or not pilot:
            text = _(
                "No human labels yet: score a pilot of at least {n} answers in each cell, "
                "then the labels each cell needs are shown here."
            )
        else:
            text = _(
                "Labels each cell needs for an interval {width} wide, predicted from the "
                "{pilot} pilot labels; a cell with fewer than {n} says so."
            )
        self.summary.setText(text.format(n=need["pilot_min"], width=f"{width:g}", pilot=pilot))
        for c in need["cells"]:
            row = self.table.rowCount()
            self.table.insertRow(row)
            dialect = (
                dialect_of({**names[c["dialect"]], "code": c["dialect"]})
                if c["dialect"] in names
                else c["dialect"]
            )
            values = [c["model"], dialect, str(c["N"]), *self._counts(c)]
            for col, value in enumerate(values):
                self.table.setItem(row, col, QTableWidgetItem(value))
        fit_columns_to_headers(self.table, stretch=0)  # a long model name elides

    @staticmethod
    def _counts(cell: Mapping[str, Any]) -> list[str]:
        if cell["state"] == "pilot":
            short = _("needs a pilot ({have} of {n})").format(
                have=cell["pilot"], n=annotation.PILOT_MIN
            )
            return [short, short]
        return [
            str(cell[k]) if cell[k] is not None else _("not reachable")
            for k in ("uniform", "active")
        ]
