"""The import dialog's pages for social-bias probes: imported from a table, or generated
from templates × words; run on the writer lane by engine.bias.tasks."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QPushButton

from engine.bias import tasks as bias_tasks
from engine.errors import UserError
from engine.i18n import _
from widgets.common import file_dialogs
from widgets.common.column_combo import ColumnCombo, fill_from_guess
from widgets.common.file_dialogs import IMPORTS
from widgets.common.import_page import StudyPage, names_list

PROBES, PROBE_TEMPLATES = "probes", "probe-templates"


class ProbesPage(StudyPage):
    """``upabhasha import probes``: template or natural social-bias probes."""

    kind = PROBES
    run = staticmethod(bias_tasks.import_probes_at)
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

    def bengali_columns(self) -> list[str]:
        chosen = [self.prompt_col.currentData(), self.option_x.currentData()]
        return [c for c in (*chosen, self.option_y.currentData()) if c]

    def options(self) -> dict:
        groups = names_list(self.groups.text())
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
    run = staticmethod(bias_tasks.generate_probes_at)
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
        path = file_dialogs.open_file(
            self, IMPORTS, _("Choose the word list"), _("CSV files (*.csv);;All (*)")
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
