"""The import dialog's legacy Bijoy box: what the scan of the mapped Bengali text columns
found, a preview of its conversion, and the checkbox that converts on import."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtWidgets import QCheckBox, QGroupBox, QLabel, QPlainTextEdit, QVBoxLayout

from engine.i18n import _
from engine.importing import tasks as import_tasks
from widgets.common.fonts import bengali_font


class BijoyBox(QGroupBox):
    """Hidden until a scan finds Bijoy; ``scan`` holds the last scan's result."""

    def __init__(self) -> None:
        super().__init__(_("Legacy Bijoy/SutonnyMJ text found"))
        self.scan: Mapping[str, Any] = {"cells": 0}  # no scan yet: no Bijoy cells
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.preview = QPlainTextEdit()
        self.preview.setReadOnly(True)
        self.preview.setFont(bengali_font())
        self.preview.setMaximumHeight(110)
        self.convert = QCheckBox(_("Convert Bijoy text to Unicode on import"))
        lay = QVBoxLayout(self)
        lay.addWidget(self.note)
        lay.addWidget(self.preview)
        lay.addWidget(self.convert)
        self.setVisible(False)

    def converts(self) -> bool:
        return bool(self.scan["cells"]) and self.convert.isChecked()

    def show_scan(self, path: str, columns: list[str] | None) -> None:
        """Scan ``columns`` of ``path`` (None: every column, []: none) and show the result."""
        self.convert.setChecked(False)
        scan = self.scan = (
            import_tasks.scan_bijoy(path, columns=columns)
            if path and columns != []
            else {"cells": 0}
        )
        self.setVisible(bool(scan["cells"]))
        if not scan["cells"]:
            return
        self.preview.setVisible(True)
        names = ", ".join(f"“{c}”" for c in scan["in_columns"])
        self.note.setText(
            _("Bengali text columns with Bijoy: {columns}.").format(columns=names)
            + " "
            + _(
                "{cells} cells in the first {rows} rows look like legacy Bijoy ASCII, not "
                "Unicode Bengali. Without conversion the import is refused. Preview:"
            ).format(cells=f"{scan['cells']:,}", rows=f"{scan['rows_scanned']:,}")
        )
        lines = []
        for sample in scan["samples"]:
            result = sample["unicode"] or _("cannot convert: {error}").format(error=sample["error"])
            lines.append(
                _("line {line}, {column}: {bijoy}  →  {result}").format(
                    line=sample["line"],
                    column=sample["column"],
                    bijoy=sample["bijoy"],
                    result=result,
                )
            )
        self.preview.setPlainText("\n".join(lines))

    def offer(self) -> str:
        """Show the conversion checkbox (Bijoy past the scanned rows has not shown it yet);
        returns what to do, for the refusal's message."""
        if not self.scan["cells"]:
            self.scan = {**self.scan, "cells": 1}
            self.note.setText(_("Legacy Bijoy text was found past the rows scanned."))
            self.preview.setVisible(False)
        self.setVisible(True)
        return _("Tick “{checkbox}” below and import again.").format(checkbox=self.convert.text())
