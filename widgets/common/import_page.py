"""What an import page of the import dialog is (widgets.importing.import_dialog): its
columns, its options and the background task that runs it. Each study stage declares its own
pages (widgets/<stage>/__init__.py, ``IMPORT_PAGES``) and builds them on this base.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QComboBox, QFormLayout, QGroupBox, QHBoxLayout

from engine.i18n import _


def with_fixed(combo: QComboBox, fixed: QComboBox) -> QHBoxLayout:
    """A column combo beside the one value used for every row when no column is chosen."""
    combo.currentIndexChanged.connect(lambda: fixed.setEnabled(combo.currentData() is None))
    row = QHBoxLayout()
    row.addWidget(combo, 1)
    row.addWidget(fixed)
    return row


def names_list(text: str) -> list[str]:
    return [p.strip() for p in text.split(",") if p.strip()]


class StudyPage(QGroupBox):
    """One kind of import: its columns, its options and the task that runs it."""

    kind = ""
    needs_columns = True  # False: the file is not a table (templates JSON)
    uses_dialect_names = False  # the dialog's "Dialect names" row applies (dialect codes)
    run: Callable
    # the report as lines; None: as every import's (the dialog's engine.importing.tasks)
    describe: Callable[[dict], list[str]] | None = None

    def __init__(self, window_title: str):
        super().__init__(_("Columns"))
        # the dialog's title while this page shows (QGroupBox.title is the box's "Columns")
        self.window_title = window_title
        self.form = QFormLayout(self)

    def apply_guess(self, columns: list[str]) -> None:
        raise NotImplementedError

    def options(self) -> dict:
        raise NotImplementedError

    def ready(self, columns: list[str]) -> bool:
        return bool(columns)

    def bengali_columns(self) -> list[str] | None:
        """The chosen columns the import reads as Bengali text (only they are checked for
        legacy Bijoy); None: every column."""
        return None
