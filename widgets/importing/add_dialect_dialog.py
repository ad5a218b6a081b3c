"""AddDialectDialog: add a dialect (or more spellings of one) to the workspace, from the
import dialog; it lists the dialects already known and the spellings that resolve to them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QWidget,
)

from engine.errors import UserError
from engine.i18n import _
from engine.importing.api import checked_dialect_names
from widgets.common.dialog_parts import show_status
from widgets.common.fonts import bengali_font
from widgets.common.hints import for_gui


class AddDialectDialog(QDialog):
    """Code, English and Bengali names, region and aliases of a new dialect."""

    def __init__(
        self, parent: QWidget | None = None, known: Sequence[Mapping[str, Any]] | None = None
    ):
        super().__init__(parent)
        self.setWindowTitle(_("Add a dialect"))
        self.known = QPlainTextEdit()
        self.known.setReadOnly(True)
        self.known.setFont(bengali_font())
        self.known.setMaximumHeight(180)
        self.known.setPlainText(
            "\n".join(
                f"{d['code']}: {d['name_en']} · {d['name_bn']}"
                + (
                    f" — {', '.join(d['aliases'] + d['builtin_aliases'])}"
                    if d["aliases"] or d["builtin_aliases"]
                    else ""
                )
                for d in known or []
            )
        )
        self.code_edit = QLineEdit()
        self.code_edit.setPlaceholderText(_("lower-case code, e.g. comilla"))
        self.name_en = QLineEdit()
        self.name_bn = QLineEdit()
        self.name_bn.setFont(bengali_font())
        self.region = QLineEdit()
        self.aliases = QLineEdit()
        self.aliases.setFont(bengali_font())
        self.aliases.setPlaceholderText(_("other spellings, comma-separated"))
        form = QFormLayout(self)
        form.addRow(QLabel(_("Known dialects and the spellings that resolve to them:")))
        form.addRow(self.known)
        form.addRow(_("Code"), self.code_edit)
        form.addRow(_("English name"), self.name_en)
        form.addRow(_("Bengali name"), self.name_bn)
        form.addRow(_("Region"), self.region)
        form.addRow(_("Aliases"), self.aliases)
        self.error = QLabel()
        self.error.setWordWrap(True)
        form.addRow(self.error)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)

    def accept(self) -> None:
        """OK keeps the dialog open, with the reason, while a name breaks the name rule."""
        try:
            checked_dialect_names(**self.fields())
        except UserError as exc:
            show_status(self.error, for_gui(str(exc)), error=True)
            return
        super().accept()

    def code(self) -> str:
        return self.code_edit.text().strip()

    def fields(self) -> dict:
        return {
            "name_en": self.name_en.text(),
            "name_bn": self.name_bn.text(),
            "region": self.region.text(),
            "aliases": [a.strip() for a in self.aliases.text().split(",") if a.strip()],
        }
