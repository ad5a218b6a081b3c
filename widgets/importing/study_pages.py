"""The import dialog's pages for the three studies' inputs: item sets for understanding
tasks, social-bias probes (imported, or generated from templates × words) and scored
translations on their declared human scale.

Each page maps the file's real columns (a guess the user corrects), builds the importer's
keyword arguments and names the background task that runs it on the writer lane: the
study's own front door (``engine.understanding.tasks``, ``engine.bias.tasks``,
``engine.importing.tasks``), all-or-nothing like the corpus and question imports.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
)

from engine.bias import tasks as bias_tasks
from engine.errors import UserError
from engine.i18n import _
from engine.importing import tasks as import_tasks
from engine.importing.api import SPLITS
from engine.understanding import tasks as understanding_tasks
from widgets.common.stage_parts import ImportPage
from widgets.importing.column_combo import ColumnCombo, fill_from_guess

ITEMS, PROBES, PROBE_TEMPLATES, SCORED = "items", "probes", "probe-templates", "scored"


def _with_fixed(combo: QComboBox, fixed: QComboBox) -> QHBoxLayout:
    """A column combo beside the one value used for every row when no column is chosen."""
    combo.currentIndexChanged.connect(lambda: fixed.setEnabled(combo.currentData() is None))
    row = QHBoxLayout()
    row.addWidget(combo, 1)
    row.addWidget(fixed)
    return row


def _names(text: str) -> list[str]:
    return [p.strip() for p in text.split(",") if p.strip()]


class StudyPage(QGroupBox):
    """One kind of import: its columns, its options and the task that runs it."""

    kind = ""
    needs_columns = True  # False: the file is not a table (templates JSON)
    uses_dialect_names = False  # the dialog's "Dialect names" row applies (dialect codes)
    run: Callable
    describe: Callable[[dict], list[str]] = staticmethod(import_tasks.describe_report)

    def __init__(self, title: str):
        super().__init__(_("Columns"))
        self.title = title
        self.form = QFormLayout(self)

    def apply_guess(self, columns: list[str]) -> None:
        raise NotImplementedError

    def options(self) -> dict:
        raise NotImplementedError

    def ready(self, columns: list[str]) -> bool:
        return bool(columns)


class ItemsPage(StudyPage):
    """``upabhasha import items``: an item set for understanding tasks."""

    kind = ITEMS
    uses_dialect_names = True
    run = staticmethod(understanding_tasks.import_items_file)

    def __init__(self, dialects: list[dict]):
        super().__init__(_("Import an item set for tasks"))
        self.native_col = ColumnCombo(_("(choose a column)"))
        self.dialect_col = ColumnCombo(_("(one dialect for every row →)"))
        self.fixed_dialect = QComboBox()
        self.fixed_dialect.addItem(_("standard Bengali"), "standard")
        for d in dialects:
            self.fixed_dialect.addItem(f"{d['name_en']} ({d['code']})", d["code"])
        self.roman_col = ColumnCombo(_("(none)"))
        self.standard_cols = QLineEdit()
        self.standard_cols.setPlaceholderText(_("column names, comma-separated (optional)"))
        self.english_cols = QLineEdit()
        self.english_cols.setPlaceholderText(_("column names, comma-separated (optional)"))
        self.label_col = ColumnCombo(_("(none)"))
        self.split_col = ColumnCombo(_("(no column: one split for every row →)"))
        self.fixed_split = QComboBox()
        for split in ("test", *[s for s in SPLITS if s != "test"]):
            self.fixed_split.addItem(split, split)
        self.id_col = ColumnCombo(_("(none: numbered in file order)"))
        self.form.addRow(_("Native-script text"), self.native_col)
        self.form.addRow(_("Dialect code"), _with_fixed(self.dialect_col, self.fixed_dialect))
        self.form.addRow(_("Romanized text (the dataset's own)"), self.roman_col)
        self.form.addRow(_("Standard Bengali references"), self.standard_cols)
        self.form.addRow(_("English references"), self.english_cols)
        self.form.addRow(_("Label (classification)"), self.label_col)
        self.form.addRow(_("Split"), _with_fixed(self.split_col, self.fixed_split))
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
        self.standard_cols.setText(", ".join(guess["standard_cols"]))
        self.english_cols.setText(", ".join(guess["english_cols"]))

    def options(self) -> dict:
        opts: dict = {
            "native_col": self.native_col.currentData() or "text",
            "roman_col": self.roman_col.currentData(),
            "standard_cols": _names(self.standard_cols.text()) or None,
            "english_cols": _names(self.english_cols.text()) or None,
            "label_col": self.label_col.currentData(),
            "id_col": self.id_col.currentData(),
        }
        if self.dialect_col.currentData() is None:
            opts["dialect"] = self.fixed_dialect.currentData()
        else:
            opts["dialect_col"] = self.dialect_col.currentData()
        if self.split_col.currentData() is None:
            opts["split"] = self.fixed_split.currentData()
        else:
            opts["split_col"] = self.split_col.currentData()
        return opts


class ProbesPage(StudyPage):
    """``upabhasha import probes``: template or natural social-bias probes."""

    kind = PROBES
    run = staticmethod(bias_tasks.import_probes_file)
    describe = staticmethod(bias_tasks.describe_probe_report)

    def __init__(self):
        super().__init__(_("Import social-bias probes"))
        self.probe_kind = QComboBox()
        self.probe_kind.addItem(_("from the file (natural if it has a firstOption column)"), None)
        self.probe_kind.addItem(_("template probes"), "template")
        self.probe_kind.addItem(_("natural probes"), "natural")
        self.topic = QLineEdit()
        self.topic.setPlaceholderText(_("gender, religion, or a new topic (default: the file's)"))
        self.groups = QLineEdit()
        self.groups.setPlaceholderText(_("a new topic's two groups, x first: e.g. rural, urban"))
        self.prompt_col = ColumnCombo(_("(choose a column)"))
        self.id_col = ColumnCombo(_("(none: the line number)"))
        self.category_col = ColumnCombo(_("(none)"))
        self.subcategory_col = ColumnCombo(_("(none)"))
        self.topic_col = ColumnCombo(_("(none)"))
        self.first_col = ColumnCombo(_("(none)"))
        self.option_x = ColumnCombo(_("(none)"))
        self.option_y = ColumnCombo(_("(none)"))
        options = QHBoxLayout()
        options.addWidget(self.option_x, 1)
        options.addWidget(self.option_y, 1)
        self.form.addRow(_("Probe kind"), self.probe_kind)
        self.form.addRow(_("Topic"), self.topic)
        self.form.addRow(_("Groups"), self.groups)
        self.form.addRow(_("Prompt text"), self.prompt_col)
        self.form.addRow(_("Probe id"), self.id_col)
        self.form.addRow(_("Category"), self.category_col)
        self.form.addRow(_("Subcategory"), self.subcategory_col)
        self.form.addRow(_("Topic column"), self.topic_col)
        self.form.addRow(_("Group of option 1 (natural)"), self.first_col)
        self.form.addRow(_("Option words of group x, y"), options)

    def apply_guess(self, columns: list[str]) -> None:
        guess = bias_tasks.guess_probe_mapping(columns)
        fill_from_guess(
            columns,
            guess,
            {
                "prompt_col": self.prompt_col,
                "id_col": self.id_col,
                "category_col": self.category_col,
                "subcategory_col": self.subcategory_col,
                "topic_col": self.topic_col,
                "first_col": self.first_col,
            },
        )
        self.option_x.set_columns(columns)
        self.option_y.set_columns(columns)

    def options(self) -> dict:
        groups = _names(self.groups.text())
        if groups and len(groups) != 2:
            raise UserError(_("Groups: two names separated by a comma, x first"))
        x, y = self.option_x.currentData(), self.option_y.currentData()
        if (x is None) != (y is None):
            raise UserError(_("Option words: choose the columns of both groups, or neither"))
        return {
            "kind": self.probe_kind.currentData(),
            "topic": self.topic.text().strip() or None,
            "groups": tuple(groups) if groups else None,
            "prompt_col": self.prompt_col.currentData() or "prompt",
            "id_col": self.id_col.currentData(),
            "category_col": self.category_col.currentData(),
            "subcategory_col": self.subcategory_col.currentData(),
            "topic_col": self.topic_col.currentData(),
            "first_col": self.first_col.currentData(),
            "option_cols": (x, y) if x and y else None,
        }


class ProbeTemplatesPage(StudyPage):
    """``upabhasha probes generate --templates JSON --words CSV``: the dialog's file is the
    templates JSON; this page chooses the word list."""

    kind = PROBE_TEMPLATES
    needs_columns = False
    run = staticmethod(bias_tasks.generate_probes_files)
    describe = staticmethod(bias_tasks.describe_probe_report)

    def __init__(self):
        super().__init__(_("Generate probes from templates"))
        self.setTitle(_("Word list"))
        self.note = QLabel(
            _(
                "The file above is the templates JSON (template_prompts and the noun pairs); "
                "the word list is a CSV with Word, Category, Subcategory and Topic. One probe "
                "set per topic is written, named '<name>-<topic>'."
            )
        )
        self.note.setWordWrap(True)
        self.words = QLineEdit()
        self.words.setPlaceholderText(_("CSV with Word, Category, Subcategory, Topic"))
        browse = QPushButton(_("Choose…"))
        browse.clicked.connect(self.choose_words)
        row = QHBoxLayout()
        row.addWidget(self.words, 1)
        row.addWidget(browse)
        self.form.addRow(self.note)
        self.form.addRow(_("Word list"), row)

    def choose_words(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(
            self, _("Choose the word list"), str(Path.home()), _("CSV files (*.csv);;All (*)")
        )
        if path:
            self.words.setText(path)

    def apply_guess(self, columns: list[str]) -> None:
        pass  # a JSON of templates has no columns to map

    def ready(self, columns: list[str]) -> bool:
        return True

    def options(self) -> dict:
        words = self.words.text().strip()
        if not words:
            raise UserError(_("Choose the word list (CSV) first."))
        return {"words": words}


class ScoredPage(StudyPage):
    """``upabhasha import scored-translations --human-scale MIN-MAX``."""

    kind = SCORED
    run = staticmethod(import_tasks.import_scored_file)

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
            self.dialect.addItem(f"{d['name_en']} ({d['code']})", d["code"])
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
        for widget in (self.score_cols,):
            self.form.setRowVisible(widget, wide)
        for widget in (self.score_col,):
            self.form.setRowVisible(widget, not wide)
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


def standalone_pages() -> list[ImportPage]:
    """The pages of ``python -m widgets.importing.import_dialog``, run without the window
    (which passes every stage's own declarations: widgets/<stage>/__init__.py)."""
    kinds = [
        (ITEMS, _("Item set for understanding tasks"), ItemsPage),
        (PROBES, _("Social-bias probes"), lambda _d: ProbesPage()),
        (
            PROBE_TEMPLATES,
            _("Social-bias probes generated from templates"),
            lambda _d: ProbeTemplatesPage(),
        ),
        (SCORED, _("Scored translations (metrics vs humans)"), ScoredPage),
    ]
    return [
        ImportPage(place, kind, lambda t=title: t, lambda t=title: t, build)
        for place, (kind, title, build) in enumerate(kinds)
    ]


__all__ = ["ITEMS", "PROBES", "PROBE_TEMPLATES", "SCORED", "StudyPage", "standalone_pages"]
