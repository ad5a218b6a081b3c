"""The import dialog's page for an item set for understanding tasks: its columns mapped
(a guess the user corrects), run on the writer lane by engine.understanding.tasks."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QLineEdit

from engine.i18n import _
from engine.importing.api import SPLITS
from engine.understanding import tasks as understanding_tasks
from engine.understanding.api import parse_label_names
from widgets.common.column_combo import ColumnCombo, fill_from_guess
from widgets.common.import_page import StudyPage, names_list, with_fixed
from widgets.common.labels import dialect_of, label

ITEMS = "items"


class ItemsPage(StudyPage):
    """``upabhasha import items``: an item set for understanding tasks."""

    kind = ITEMS
    uses_dialect_names = True
    run = staticmethod(understanding_tasks.import_items_at)

    def __init__(self, dialects: list[dict]):
        super().__init__(_("Import an item set for tasks"))
        self.native_col = ColumnCombo(_("(choose a column)"))
        self.dialect_col = ColumnCombo(_("(one dialect for every row →)"))
        self.fixed_dialect = QComboBox()
        self.fixed_dialect.addItem(_("standard Bengali"), "standard")
        for d in dialects:
            self.fixed_dialect.addItem(dialect_of(d), d["code"])
        self.roman_col = ColumnCombo(_("(none)"))
        self.standard_cols = QLineEdit()
        self.standard_cols.setPlaceholderText(_("column names, comma-separated (optional)"))
        self.english_cols = QLineEdit()
        self.english_cols.setPlaceholderText(_("column names, comma-separated (optional)"))
        self.label_col = ColumnCombo(_("(none)"))
        # what the stored labels mean: prompts, parsing and reports use the names
        self.label_names = QLineEdit()
        self.label_names.setPlaceholderText(_("e.g. 0=not-offensive,1=offensive (optional)"))
        self.label_name_col = ColumnCombo(_("(none)"))
        self.split_col = ColumnCombo(_("(no column: one split for every row →)"))
        self.fixed_split = QComboBox()
        for split in ("test", *[s for s in SPLITS if s != "test"]):
            self.fixed_split.addItem(label("split", split), split)
        self.id_col = ColumnCombo(_("(none: numbered in file order)"))
        self.form.addRow(_("Native-script text"), self.native_col)
        self.form.addRow(_("Dialect code"), with_fixed(self.dialect_col, self.fixed_dialect))
        self.form.addRow(_("Romanized text (the dataset's own)"), self.roman_col)
        self.form.addRow(_("Standard Bengali references"), self.standard_cols)
        self.form.addRow(_("English references"), self.english_cols)
        self.form.addRow(_("Label (classification)"), self.label_col)
        self.form.addRow(_("Label names"), self.label_names)
        self.form.addRow(_("Label name column"), self.label_name_col)
        self.form.addRow(_("Split"), with_fixed(self.split_col, self.fixed_split))
        self.form.addRow(_("Item id"), self.id_col)

    def apply_guess(self, columns: list[str]) -> None:
        guess = understanding_tasks.guess_item_mapping(columns)
        fill_from_guess(
            columns,
            guess,
            {
                "native_col": self.native_col,
                "dialect_col": self.dialect_col,
                "roman_col": self.roman_col,
                "label_col": self.label_col,
                "split_col": self.split_col,
                "id_col": self.id_col,
            },
        )
        self.label_name_col.set_columns(columns)
        self.standard_cols.setText(", ".join(guess["standard_cols"]))
        self.english_cols.setText(", ".join(guess["english_cols"]))

    def bengali_columns(self) -> list[str]:
        chosen = [self.native_col.currentData(), *names_list(self.standard_cols.text())]
        return [c for c in chosen if c]

    def options(self) -> dict:
        opts: dict = {
            "native_col": self.native_col.currentData() or "text",
            "roman_col": self.roman_col.currentData(),
            "standard_cols": names_list(self.standard_cols.text()) or None,
            "english_cols": names_list(self.english_cols.text()) or None,
            "label_col": self.label_col.currentData(),
            "id_col": self.id_col.currentData(),
        }
        names = self.label_names.text().strip()
        if names:
            opts["label_names"] = parse_label_names(names)
        elif self.label_name_col.currentData():
            opts["label_name_col"] = self.label_name_col.currentData()
        if self.dialect_col.currentData() is None:
            opts["dialect"] = self.fixed_dialect.currentData()
        else:
            opts["dialect_col"] = self.dialect_col.currentData()
        if self.split_col.currentData() is None:
            opts["split"] = self.fixed_split.currentData()
        else:
            opts["split_col"] = self.split_col.currentData()
        return opts
