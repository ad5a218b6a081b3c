"""The import dialog's page for scored translations on their declared human scale; run on
the writer lane by engine.importing.tasks (scored_import owns the scored segments)."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLineEdit

from engine.errors import UserError
from engine.i18n import _
from engine.importing import tasks as import_tasks
from widgets.common.column_combo import ColumnCombo, fill_from_guess
from widgets.common.import_page import StudyPage, names_list
from widgets.common.labels import dialect_of

SCORED = "scored"


class ScoredPage(StudyPage):
    """``upabhasha import scored-translations --human-scale MIN-MAX``."""

    kind = SCORED
    run = staticmethod(import_tasks.import_scored_at)

    def __init__(self, dialects: list[dict]):
        super().__init__(_("Import scored translations"))
        self.scale = QLineEdit()
        self.scale.setPlaceholderText(_("required: e.g. 0-100, 0-1 or 1-5"))
        self.source_col = ColumnCombo(_("(choose a column)"))
        self.hyp_col = ColumnCombo(_("(choose a column)"))
        self.ref_cols = QLineEdit()
        self.ref_cols.setPlaceholderText(_("column names or a glob such as ref*"))
        self.system_col = ColumnCombo(_("(one system for every row →)"))
        self.fixed_system = QLineEdit()
        self.fixed_system.setPlaceholderText(_("system name"))
        self.score_layout = QComboBox()
        self.score_layout.addItem(_("wide: one score column per annotator"), "wide")
        self.score_layout.addItem(_("long: one row per annotator"), "long")
        self.score_cols = QLineEdit()
        self.score_cols.setPlaceholderText(_("wide: score columns, names or a glob"))
        self.score_col = ColumnCombo(_("(choose a column)"))
        self.annotator_col = ColumnCombo(_("(one annotator for every row →)"))
        self.fixed_annotator = QLineEdit()
        self.average = QCheckBox(_("Several annotators of one segment may be averaged"))
        self.accept_scale = QCheckBox(
            _("Import even if the scores use less than a tenth of the declared scale")
        )
        self.seg_id_col = ColumnCombo(_("(none: the source text)"))
        self.dialect = QComboBox()
        self.dialect.addItem(_("(not recorded)"), None)
        self.dialect.addItem(_("standard Bengali"), "standard")
        for d in dialects:
            self.dialect.addItem(dialect_of(d), d["code"])
        system_row = QHBoxLayout()
        system_row.addWidget(self.system_col, 1)
        system_row.addWidget(self.fixed_system)
        self.system_col.currentIndexChanged.connect(
            lambda: self.fixed_system.setEnabled(self.system_col.currentData() is None)
        )
        annotator_row = QHBoxLayout()
        annotator_row.addWidget(self.annotator_col, 1)
        annotator_row.addWidget(self.fixed_annotator)
        self.score_layout.currentIndexChanged.connect(self._layout_changed)
        self.form.addRow(_("Human score scale"), self.scale)
        self.form.addRow(self.accept_scale)
        self.form.addRow(_("Source text"), self.source_col)
        self.form.addRow(_("System output"), self.hyp_col)
        self.form.addRow(_("References"), self.ref_cols)
        self.form.addRow(_("System"), system_row)
        self.form.addRow(_("Scores"), self.score_layout)
        self.form.addRow(_("Score columns"), self.score_cols)
        self.form.addRow(_("Score column"), self.score_col)
        self.form.addRow(_("Annotator"), annotator_row)
        self.form.addRow(self.average)
        self.form.addRow(_("Segment id"), self.seg_id_col)
        self.form.addRow(_("Target dialect"), self.dialect)
        self._layout_changed()

    def _layout_changed(self) -> None:
        wide = self.score_layout.currentData() == "wide"
        self.form.setRowVisible(self.score_cols, wide)
        self.form.setRowVisible(self.score_col, not wide)
        self.annotator_col.setEnabled(not wide)
        self.fixed_annotator.setEnabled(not wide)

    def apply_guess(self, columns: list[str]) -> None:
        guess = import_tasks.guess_scored_mapping(columns)
        fill_from_guess(
            columns,
            guess,
            {
                "source_col": self.source_col,
                "hyp_col": self.hyp_col,
                "system_col": self.system_col,
                "score_col": self.score_col,
                "annotator_col": self.annotator_col,
                "seg_id_col": self.seg_id_col,
            },
        )
        self.ref_cols.setText(", ".join(guess["ref_cols"]))
        self.score_cols.setText(", ".join(guess["score_cols"]))
        long = not guess["score_cols"] and guess["score_col"] is not None
        self.score_layout.setCurrentIndex(self.score_layout.findData("long" if long else "wide"))

    def bengali_columns(self) -> list[str]:
        chosen = [self.source_col.currentData(), self.hyp_col.currentData()]
        return [c for c in chosen if c] + names_list(self.ref_cols.text())

    def options(self) -> dict:
        scale = self.scale.text().strip()
        if not scale:
            raise UserError(
                _("Human score scale: say the scale the scores were given on, e.g. 0-100")
            )
        opts: dict = {
            "human_scale": scale,
            "source_col": self.source_col.currentData() or "source",
            "hyp_col": self.hyp_col.currentData() or "hypothesis",
            "ref_cols": self.ref_cols.text().strip() or "reference",
            "seg_id_col": self.seg_id_col.currentData(),
            "dialect": self.dialect.currentData(),
            "average_annotators": self.average.isChecked(),
            "accept_scale": self.accept_scale.isChecked(),
        }
        if self.system_col.currentData() is None:
            opts["system_col"] = None
            opts["system"] = self.fixed_system.text().strip() or None
        else:
            opts["system_col"] = self.system_col.currentData()
        if self.score_layout.currentData() == "wide":
            opts["score_cols"] = self.score_cols.text().strip() or None
            if opts["score_cols"] is None:
                raise UserError(_("Score columns: name the annotators' score columns"))
        else:
            opts["score_col"] = self.score_col.currentData()
            if opts["score_col"] is None:
                raise UserError(_("Score column: choose the column of the scores"))
            if self.annotator_col.currentData() is None:
                opts["annotator"] = self.fixed_annotator.text().strip() or None
            else:
                opts["annotator_col"] = self.annotator_col.currentData()
        return opts
