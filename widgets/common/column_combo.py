"""ColumnCombo: a column of the file being imported, or none (shared by the import pages)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtWidgets import QComboBox


class ColumnCombo(QComboBox):
    """A column of the file, or none (``currentData()`` is the column name or None)."""

    def __init__(self, none_text: str):
        super().__init__()
        self.none_text = none_text
        self.set_columns([])

    def set_columns(self, columns: list[str], choose: str | None = None) -> None:
        self.clear()
        self.addItem(self.none_text, None)
        for column in columns:
            self.addItem(column, column)
        self.choose(choose)

    def choose(self, column: str | None) -> None:
        index = self.findData(column) if column is not None else 0
        self.setCurrentIndex(max(index, 0))


def fill_from_guess(
    columns: list[str], guess: Mapping[str, Any], combos: dict[str, ColumnCombo]
) -> None:
    """Offer ``columns`` in each combo, choosing the guessed column (``guess[key]``)."""
    for key, combo in combos.items():
        combo.set_columns(columns, guess[key])
