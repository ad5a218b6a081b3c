"""ImportDialog: import a parallel corpus or a question set from a tabular file.

The column combos are filled from the chosen file's real header (a guess the user
corrects); the import runs through the bridge on the writer lane
(:mod:`engine.importing.tasks`), all-or-nothing. The dialog shows the report (counts per
dialect, warnings) or a refused file's one-line message (file, line, column).

``python -m widgets.importing.import_dialog [WORKSPACE]`` opens the dialog alone.
"""

# Stays whole: the corpus and question pages are wired into the dialog's column guess, options
# and added dialects; they can leave once they are StudyPage classes like the stages' pages.

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from engine.errors import UserError
from engine.i18n import N_, _, current_language
from engine.importing import tasks as import_tasks
from engine.importing.api import (
    BIJOY_HINT,
    DUPLICATE_HINT,
    SPLITS,
    DialectInfo,
    DuplicateContent,
    RenameNeeded,
    aliases_kept,
    parse_dialect_map,
)
from engine.workspace.api import Workspace
from widgets.common import file_dialogs
from widgets.common.column_combo import ColumnCombo, fill_from_guess
from widgets.common.dialog_parts import CurrentPageStack, ScreenFittingScroll, size_to_screen
from widgets.common.file_dialogs import IMPORTS
from widgets.common.fonts import bengali_font
from widgets.common.hints import for_gui
from widgets.common.import_page import StudyPage
from widgets.common.labels import dialect_of, label
from widgets.common.stage_parts import ImportPage
from widgets.common.standalone import run_panel
from widgets.common.task_bridge import WRITER, Task, TaskBridge, describe_error
from widgets.importing.add_dialect_dialog import AddDialectDialog
from widgets.importing.bijoy_box import BijoyBox

log = logging.getLogger(__name__)

CORPUS, QUESTIONS = "corpus", "questions"
FILE_FILTER = "Tables (*.csv *.tsv *.txt *.json *.jsonl *.xlsx);;All files (*)"


class ImportDialog(QDialog):
    sig_imported = Signal(dict)  # the import report

    def __init__(
        self,
        workspace: Workspace,
        bridge: TaskBridge,
        kind: str = CORPUS,
        *,
        pages: Sequence[ImportPage] = (),
        parent: QWidget | None = None,
    ):
        """``pages``: the study stages' kinds of import besides corpora and questions (the
        window passes every stage's, app/stage_widgets.py)."""
        super().__init__(parent)
        self.ws = workspace
        self.bridge = bridge
        self.columns: list[str] = []
        self._read_path = ""
        self.task: Task | None = None
        self.last_report: dict | None = None
        self._scanned_columns: list[str] | None = None
        self._guessing = False
        self.dialects = import_tasks.workspace_dialects(workspace)
        self.codes = {d["code"] for d in self.dialects} | {"standard"}
        self.setWindowTitle(_("Import data"))
        self.setMinimumWidth(620)

        self.kind = QComboBox()
        self.kind.addItem(_("Parallel corpus (standard ↔ dialect pairs)"), CORPUS)
        self.kind.addItem(_("Question set (standard Bengali questions)"), QUESTIONS)
        pages = sorted(pages, key=lambda page: page.place)
        for page in pages:
            self.kind.addItem(page.title(), page.kind)
        self._hidden_once = False  # closed before: the next show starts fresh
        self.path = QLineEdit()
        self.path.setPlaceholderText(_("CSV, TSV, JSON, JSONL or XLSX file"))
        self.path.editingFinished.connect(self._path_edited)
        self.browse_button = QPushButton(_("Choose…"))
        self.browse_button.clicked.connect(self.choose_file)
        file_row = QHBoxLayout()
        file_row.addWidget(self.path, 1)
        file_row.addWidget(self.browse_button)
        self.name = QLineEdit()
        self.name.setPlaceholderText(_("default: the file name"))
        top = QFormLayout()
        top.addRow(_("Import"), self.kind)
        top.addRow(_("File"), file_row)
        top.addRow(_("Name in the workspace"), self.name)

        self.pages = CurrentPageStack()
        self.pages.addWidget(self._corpus_page())
        self.pages.addWidget(self._questions_page())
        self.study_pages: dict[str, StudyPage] = {
            page.kind: page.build(self.dialects) for page in pages
        }
        for study_page in self.study_pages.values():
            self.pages.addWidget(study_page)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.shared_options = self._shared_options()
        self.bijoy_box = BijoyBox()
        self.bijoy_note, self.bijoy_preview = self.bijoy_box.note, self.bijoy_box.preview
        self.convert_bijoy = self.bijoy_box.convert
        # shown when an import was refused as a second copy of another set's content
        self.allow_duplicate = QCheckBox(
            _("Import a second copy anyway (another set already holds all of this content)")
        )
        self.allow_duplicate.setVisible(False)

        self.progress = QProgressBar()
        self.progress.setVisible(False)
        self.error = QLabel()
        self.error.setWordWrap(True)
        # a banner above the scrolled body: a refusal is seen without scrolling to it
        self.error.setStyleSheet(
            "color: #b00020; background: #fde8e8; border: 1px solid #b00020; padding: 6px"
        )
        self.error.setVisible(False)
        self.report = QPlainTextEdit()
        self.report.setReadOnly(True)
        self.report.setFont(bengali_font())
        self.report.setPlaceholderText(_("The import report appears here."))
        self.report.setMaximumHeight(160)

        self.buttons = QDialogButtonBox()
        self.import_button = self.buttons.addButton(
            _("Import"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.cancel_button = self.buttons.addButton(
            _("Cancel import"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.cancel_button.setEnabled(False)
        self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.import_button.clicked.connect(self.start_import)
        self.cancel_button.clicked.connect(self.cancel_import)
        self.buttons.rejected.connect(self.reject)

        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.pages)
        layout.addWidget(self.shared_options)
        layout.addWidget(self.bijoy_box)
        layout.addWidget(self.allow_duplicate)
        layout.addWidget(self.progress)
        layout.addWidget(self.report)
        outer = QVBoxLayout(self)
        outer.addWidget(self.error)
        outer.addWidget(ScreenFittingScroll(body), 1)  # the buttons stay on screen
        outer.addWidget(self.buttons)
        size_to_screen(self)
        self.kind.setCurrentIndex(self.kind.findData(kind))
        self._kind_changed()
        for combo in self.findChildren(ColumnCombo):
            combo.currentIndexChanged.connect(lambda _index: self._rescan_bijoy())

    # -- pages -----------------------------------------------------------------------------
    def _shared_options(self) -> QWidget:
        self.dialect_map = QLineEdit()
        self.dialect_map.setPlaceholderText(
            _("e.g. noyakhali=noakhali, ctg=chittagong (common spellings are known already)")
        )
        self.add_dialect_button = QPushButton(_("Add a dialect…"))
        self.add_dialect_button.clicked.connect(self.open_add_dialect)
        row = QHBoxLayout()
        row.addWidget(self.dialect_map, 1)
        row.addWidget(self.add_dialect_button)
        box = QWidget()
        form = QFormLayout(box)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow(_("Dialect names"), row)
        return box

    def bengali_columns(self) -> list[str] | None:
        """The mapped columns this import reads as Bengali text (None: every column)."""
        if self.study_page is not None:
            return self.study_page.bengali_columns()
        if self.current_kind == CORPUS:
            combos = [self.standard_col, self.dialect_text_col, *self.wide_cols.values()]
        else:
            combos = [self.text_col, *self.question_dialect_cols.values()]
        return [c.currentData() for c in combos if c.currentData()]

    def _rescan_bijoy(self) -> None:
        """A column mapping changed: scan again when the Bengali text columns did."""
        if self._guessing or not (self._read_path and self.columns):
            return
        if self.bengali_columns() != self._scanned_columns:
            self._scan_bijoy(self._read_path)

    def _scan_bijoy(self, path: str) -> None:
        columns = self._scanned_columns = self.bengali_columns()
        self.bijoy_box.show_scan(path if self.columns else "", columns)

    def open_add_dialect(self) -> AddDialectDialog:
        dialog = AddDialectDialog(self, import_tasks.list_workspace_dialects(self.ws))
        dialog.accepted.connect(lambda: self.add_dialect(dialog.code(), dialog.fields()))
        dialog.open()
        return dialog

    def add_dialect(self, code: str, fields: dict) -> DialectInfo | None:
        """Add (or extend) a dialect in the workspace and offer it in the combos. New names
        for a dialect that exists rename it only once the user confirms (``rename_box``)."""
        self.rename_box: QMessageBox | None = None
        try:
            row = import_tasks.add_dialect_at(str(self.ws.path), code, fields)
        except RenameNeeded as exc:
            self._show_error("")
            self.rename_box = self._ask_rename(
                exc, lambda: self.add_dialect(code, fields | {"rename": True})
            )
            return None
        except UserError as exc:
            self._show_error(describe_error(exc, one_line=True))
            return None
        self._show_error("")
        if row["code"] not in self.codes:
            self.codes.add(row["code"])
            self.dialects.append(row)
            self.fixed_dialect.addItem(dialect_of(row), row["code"])
            label = dialect_of(row, both=True, code=False)
            self.wide_cols[row["code"]] = ColumnCombo(_("(not in this file)"))
            self.wide_form.addRow(label, self.wide_cols[row["code"]])
            self.question_dialect_cols[row["code"]] = ColumnCombo(_("(none)"))
            self.question_form.addRow(label, self.question_dialect_cols[row["code"]])
            self._apply_guess()
        kept = aliases_kept(row["code"], row["aliases"])
        self.report.setPlainText(
            _("dialect {code} saved; aliases: {aliases}").format(
                code=row["code"], aliases=", ".join(kept) or "—"
            )
        )
        return row

    def _ask_rename(self, refusal: RenameNeeded, rename) -> QMessageBox:
        """A window-modal question before renaming dialect ``refusal.code``; ``rename`` runs
        when it is answered Rename. Returned (and left open) so that a test can click it."""
        box = QMessageBox(
            QMessageBox.Icon.Question,
            _("Rename a dialect?"),
            _(
                "Dialect {code} exists already. Rename it ({renamed})? Its data stays with it, "
                "and these spellings still lead to it: {aliases}."
            ).format(
                code=refusal.code,
                renamed="; ".join(f"{old} → {new}" for old, new in refusal.renamed),
                aliases=", ".join(refusal.aliases) or "—",
            ),
            QMessageBox.StandardButton.Cancel,
            self,
        )
        rename_button = box.addButton(_("Rename"), QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.setWindowModality(Qt.WindowModality.WindowModal)
        box.buttonClicked.connect(lambda button: button is rename_button and rename())
        box.finished.connect(box.deleteLater)
        box.open()
        return box

    def _corpus_page(self) -> QWidget:
        self.fmt = QComboBox()
        self.fmt.addItem(_("long: one pair per row, a dialect-code column"), "long")
        self.fmt.addItem(_("wide: one column per dialect"), "wide")
        self.fmt.currentIndexChanged.connect(self._fmt_changed)
        self.standard_col = ColumnCombo(_("(choose a column)"))
        self.dialect_text_col = ColumnCombo(_("(choose a column)"))
        self.dialect_col = ColumnCombo(_("(one dialect for every row →)"))
        self.fixed_dialect = QComboBox()
        for d in self.dialects:
            self.fixed_dialect.addItem(dialect_of(d), d["code"])
        self.dialect_col.currentIndexChanged.connect(
            lambda: self.fixed_dialect.setEnabled(self.dialect_col.currentData() is None)
        )
        dialect_row = QHBoxLayout()
        dialect_row.addWidget(self.dialect_col, 1)
        dialect_row.addWidget(self.fixed_dialect)
        self.split_col = ColumnCombo(_("(no column: one split for every row →)"))
        self.fixed_split = QComboBox()
        for split in SPLITS:
            self.fixed_split.addItem(label("split", split), split)
        self.split_col.currentIndexChanged.connect(
            lambda: self.fixed_split.setEnabled(self.split_col.currentData() is None)
        )
        split_row = QHBoxLayout()
        split_row.addWidget(self.split_col, 1)
        split_row.addWidget(self.fixed_split)
        self.district_col = ColumnCombo(_("(none)"))
        self.strip_token = QCheckBox(
            _(
                "Strip a leading label token shared by ≥90% of a "
                "dialect's texts (e.g. the region's name)"
            )
        )

        self.long_box = QWidget()
        long_form = QFormLayout(self.long_box)
        long_form.setContentsMargins(0, 0, 0, 0)
        long_form.addRow(_("Dialect text column"), self.dialect_text_col)
        self.variant_cols = QLineEdit()
        self.variant_cols.setPlaceholderText(
            _("several references per source: e.g. dialect_v* (replaces the text column)")
        )
        long_form.addRow(_("Variant columns"), self.variant_cols)
        long_form.addRow(_("Dialect code"), dialect_row)
        self.wide_box = QWidget()
        self.wide_form = QFormLayout(self.wide_box)
        self.wide_form.setContentsMargins(0, 0, 0, 0)
        self.wide_cols: dict[str, ColumnCombo] = {}
        for d in self.dialects:
            combo = ColumnCombo(_("(not in this file)"))
            self.wide_cols[d["code"]] = combo
            self.wide_form.addRow(dialect_of(d, both=True, code=False), combo)

        box = QGroupBox(_("Columns"))
        form = QFormLayout(box)
        form.addRow(_("Format"), self.fmt)
        form.addRow(_("Standard Bengali column"), self.standard_col)
        form.addRow(self.long_box)
        form.addRow(self.wide_box)
        form.addRow(_("Split"), split_row)
        form.addRow(_("District column"), self.district_col)
        form.addRow(self.strip_token)
        return box

    def _questions_page(self) -> QWidget:
        self.text_col = ColumnCombo(_("(choose a column)"))
        self.id_col = ColumnCombo(_("(none: numbered in file order)"))
        self.type_col = ColumnCombo(_("(none)"))
        self.domain_col = ColumnCombo(_("(none)"))
        self.gloss_col = ColumnCombo(_("(none)"))
        self.question_dialect_cols: dict[str, ColumnCombo] = {
            d["code"]: ColumnCombo(_("(none)")) for d in self.dialects
        }
        self.question_dialect_col = ColumnCombo(_("(none: a wide file)"))
        self.variant_status = QComboBox()
        for status, text in (
            ("reviewed", _("reviewed (default)")),
            ("draft", _("draft")),
            ("gold", _("gold (only if these texts are already verified)")),
        ):
            self.variant_status.addItem(text, status)
        box = QGroupBox(_("Columns"))
        form = QFormLayout(box)
        self.question_form = form
        form.addRow(_("Question text"), self.text_col)
        form.addRow(_("Question id"), self.id_col)
        form.addRow(_("Question type (1-4)"), self.type_col)
        form.addRow(_("Domain"), self.domain_col)
        form.addRow(_("English gloss"), self.gloss_col)
        form.addRow(_("Dialect of each row (long file)"), self.question_dialect_col)
        form.addRow(_("Status of dialect variants"), self.variant_status)
        self.rendering_note = QLabel(
            _("Dialect renderings already in the file (wide) become variants:")
        )
        form.addRow(self.rendering_note)
        for d in self.dialects:
            form.addRow(dialect_of(d, both=True, code=False), self.question_dialect_cols[d["code"]])
        return box

    @property
    def study_page(self) -> StudyPage | None:
        """The page of an item set, probes or scored translations (None: corpus, questions)."""
        return self.study_pages.get(self.current_kind)

    def _kind_changed(self) -> None:
        page = self.study_page
        self.shared_options.setVisible(page is None or page.uses_dialect_names)
        if page is not None:
            self.pages.setCurrentWidget(page)
            self.setWindowTitle(page.window_title)
            if page.needs_columns != bool(self.columns) and self.path.text().strip():
                self.set_path(self.path.text())  # read (or stop reading) the file's columns
        else:
            self.pages.setCurrentIndex(0 if self.current_kind == CORPUS else 1)
            self.setWindowTitle(
                _("Import a parallel corpus")
                if self.current_kind == CORPUS
                else _("Import a question set")
            )
        if self.isVisible():  # the stack follows its page (CurrentPageStack); so does the dialog
            self.adjustSize()
        self._apply_guess()

    def _fmt_changed(self) -> None:
        wide = self.fmt.currentData() == "wide"
        self.long_box.setVisible(not wide)
        self.wide_box.setVisible(wide)

    @property
    def current_kind(self) -> str:
        return self.kind.currentData()

    # -- the file --------------------------------------------------------------------------
    def choose_file(self) -> None:
        path = file_dialogs.open_file(self, IMPORTS, _("Choose a file to import"), FILE_FILTER)
        if path:
            self.set_path(path)

    def _path_edited(self) -> None:
        if self.path.text().strip() != self._read_path:  # not mere focus leaving the field
            self.set_path(self.path.text())

    def set_path(self, path: str | Path) -> bool:
        """Read the file's header and fill the column combos; False (message shown) if not."""
        path = str(path).strip()
        self.name.clear()  # a name typed for another file does not carry over
        self.allow_duplicate.setVisible(False)  # asked again for each file
        self.path.setText(path)
        self._read_path = path
        self.name.setPlaceholderText(
            _("default: {name}").format(name=Path(path).stem)
            if path
            else _("default: the file name")
        )
        self.columns = []
        self.report.clear()
        self.last_report = None
        self._show_error("")
        page = self.study_page
        if page is not None and not page.needs_columns:  # a templates JSON, not a table
            self.bijoy_box.setVisible(False)
            self._apply_guess()
            return bool(path)
        if path:
            try:
                self.columns = import_tasks.read_columns(path)
            except UserError as exc:
                self._show_error(for_gui(str(exc)))
            except OSError as exc:
                self._show_error(f"{path}: {for_gui(str(exc.strerror or exc))}")
        self._guessing = True  # one scan below, not one for each guessed combo
        try:
            self._apply_guess()
        finally:
            self._guessing = False
        try:
            self._scan_bijoy(path)
        except UserError as exc:
            self._show_error(for_gui(str(exc)))
        return bool(self.columns)

    def _apply_guess(self) -> None:
        columns = self.columns
        page = self.study_page
        if page is not None:
            page.apply_guess(columns)
            ready = page.ready(columns) and bool(self.path.text().strip())
            self.import_button.setEnabled(ready and self.task is None)
            return
        if self.current_kind == CORPUS:
            guess = import_tasks.guess_corpus_mapping(columns, self.codes)
            self.fmt.setCurrentIndex(self.fmt.findData(guess["fmt"]))
            self.standard_col.set_columns(columns, guess["standard_col"])
            self.dialect_text_col.set_columns(columns, guess["dialect_text_col"])
            self.dialect_col.set_columns(columns, guess["dialect_col"])
            self.split_col.set_columns(columns, guess["split_col"])
            self.district_col.set_columns(columns, guess["district_col"])
            for code, combo in self.wide_cols.items():
                combo.set_columns(columns, guess["dialect_cols"].get(code))
            self._fmt_changed()
        else:
            question_guess = import_tasks.guess_question_mapping(columns, self.codes)
            fill_from_guess(
                columns,
                question_guess,
                {
                    "text_col": self.text_col,
                    "id_col": self.id_col,
                    "type_col": self.type_col,
                    "domain_col": self.domain_col,
                    "gloss_col": self.gloss_col,
                },
            )
            self.question_dialect_col.set_columns(columns, question_guess["dialect_col"])
            for code, combo in self.question_dialect_cols.items():
                combo.set_columns(columns, question_guess["dialect_cols"].get(code))
        self.import_button.setEnabled(bool(columns) and self.task is None)

    # -- options and the import ------------------------------------------------------------
    def options(self) -> dict:
        """The importer's keyword arguments for the current choices (plain values)."""
        name = self.name.text().strip() or None
        common = {
            "dialect_map": parse_dialect_map(
                [p for p in self.dialect_map.text().replace(";", ",").split(",") if p.strip()],
                _("Dialect names"),
            )
            or None,
            "convert_bijoy": self.bijoy_box.converts(),
            "allow_duplicate_content": not self.allow_duplicate.isHidden()
            and self.allow_duplicate.isChecked(),
        }
        if self.study_page is not None:
            return {**common, "name": name, **self.study_page.options()}
        if self.current_kind == QUESTIONS:
            return {
                **common,
                "dialect_col": self.question_dialect_col.currentData(),
                "variant_status": self.variant_status.currentData(),
                "name": name,
                "text_col": self.text_col.currentData() or "question",
                "id_col": self.id_col.currentData(),
                "type_col": self.type_col.currentData(),
                "domain_col": self.domain_col.currentData(),
                "gloss_col": self.gloss_col.currentData(),
                "dialect_cols": {
                    code: combo.currentData()
                    for code, combo in self.question_dialect_cols.items()
                    if combo.currentData()
                }
                or None,
            }
        fmt = self.fmt.currentData()
        opts = {
            **common,
            "fmt": fmt,
            "name": name,
            "standard_col": self.standard_col.currentData() or "standard",
            "split_col": self.split_col.currentData(),
            "district_col": self.district_col.currentData(),
            "strip_leading_token": "auto" if self.strip_token.isChecked() else None,
        }
        if opts["split_col"] is None:
            opts["split"] = self.fixed_split.currentData()
        if fmt == "long":
            opts["dialect_text_col"] = self.dialect_text_col.currentData() or "dialect_text"
            if self.variant_cols.text().strip():
                opts["variant_cols"] = self.variant_cols.text().strip()
            if self.dialect_col.currentData() is None:
                opts["dialect"] = self.fixed_dialect.currentData()
            else:
                opts["dialect_col"] = self.dialect_col.currentData()
        else:
            opts["dialect_cols"] = {
                code: combo.currentData()
                for code, combo in self.wide_cols.items()
                if combo.currentData()
            } or None
        return opts

    def start_import(self) -> Task | None:
        path = self.path.text().strip()
        page = self.study_page
        if not path or not (self.columns or (page is not None and not page.needs_columns)):
            self._show_error(_("Choose a file with a header row first."))
            return None
        if self.task is not None:
            return self.task
        self._show_error("")
        self.report.clear()
        self.last_report = None
        try:
            options = self.options()
        except UserError as exc:
            self._show_error(for_gui(str(exc)))
            return None
        if page is not None:
            fn = page.run
        elif self.current_kind == CORPUS:
            fn = import_tasks.import_corpus_at
        else:
            fn = import_tasks.import_questions_at
        label = _("Importing {file}").format(file=Path(path).name)
        self.progress.setRange(0, 0)
        self.progress.setVisible(True)
        self.import_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        task = self.bridge.run(
            fn,
            args=(str(self.ws.path), path, options),
            lane=WRITER,
            label=label,
            on_done=self._done,
            on_error=self._failed,
            on_progress=self._on_progress,
        )
        if task.running:
            self.task = task
        return task

    def cancel_import(self) -> None:
        if self.task is not None:
            self.task.cancel()

    def _on_progress(self, done: int, total: int, note: str) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(min(done, max(total, 1)))
        self.progress.setFormat(note or "%p%")

    def _finish(self) -> None:
        self.task = None
        self.progress.setVisible(False)
        self.cancel_button.setEnabled(False)
        page = self.study_page
        self.import_button.setEnabled(bool(self.columns) or (page is not None and page.ready([])))

    def _done(self, report: dict) -> None:
        self._finish()
        self.last_report = report
        if self.study_page and self.study_page.describe:
            lines = self.study_page.describe(report)
        else:
            names: dict[str, str] = {}  # English: the codes, as the command line says them
            if current_language() != "en":
                names = {d["code"]: dialect_of(d, code=False) for d in self.dialects}
                names["standard"] = _("standard Bengali")
            lines = import_tasks.describe_report(report, names)
        self.report.setPlainText(for_gui("\n".join(lines)))
        log.info(N_("import finished: %s"), report["name"])
        self.sig_imported.emit(report)

    def _failed(self, exc: BaseException) -> None:
        self._finish()
        message = describe_error(exc, one_line=True)
        bijoy_hint = for_gui(BIJOY_HINT)
        if bijoy_hint in message:  # the checkbox is offered below, with what to do
            message = message.replace(bijoy_hint, "") + " " + self.bijoy_box.offer()
        if isinstance(exc, DuplicateContent):
            self.allow_duplicate.setChecked(False)
            self.allow_duplicate.setVisible(True)
            message = message.replace(
                for_gui(DUPLICATE_HINT),
                _("tick “{checkbox}” below").format(checkbox=self.allow_duplicate.text()),
            )
        if isinstance(exc, UserError):
            self._show_error(message)
        else:
            self._show_error(_("Import failed: {error}").format(error=message))

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        """Reopened: it opens fresh, without the last file, its report or its refusal (Enter
        would import that file again); the file dialog still starts in the last folder."""
        if self.task is None:
            self._show_error("")
            if self._hidden_once:
                self.set_path("")
        super().showEvent(event)

    def hideEvent(self, event) -> None:  # noqa: N802 - Qt's name
        self._hidden_once = True
        super().hideEvent(event)

    def _show_error(self, message: str) -> None:
        self.error.setText(message)
        self.error.setVisible(bool(message))


def main(argv: list[str] | None = None) -> int:
    return run_panel(
        "widgets.importing.import_dialog",
        "ImportDialog",
        # alone, it imports corpora and question sets: the studies' pages come from the
        # window's stage list (app/stage_widgets.py), which a widget does not import
        lambda workspace, bridge, args: ImportDialog(workspace, bridge),
        size=(720, 760),
        argv=argv,
    )


if __name__ == "__main__":
    sys.exit(main())
