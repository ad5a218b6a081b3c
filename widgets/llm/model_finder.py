"""ModelFinderDialog: "Find models on this computer" — GGUF files kept by LM Studio, GPT4All,
Jan, Ollama and the Hugging Face cache (and folders the user adds), listed with name, size,
quantisation and architecture; the checked ones are added in place, never copied.

The search reads only file headers and runs through the bridge
(:func:`engine.llm.tasks.discover_models_at`); adding hashes each file in the background
(the Models panel's :meth:`~widgets.llm.models_panel.ModelsPanel.add_gguf`).
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.i18n import _, digits, ngettext
from engine.llm import tasks as model_tasks
from widgets.common import file_dialogs
from widgets.common.file_dialogs import MODELS
from widgets.common.hints import for_gui
from widgets.common.task_bridge import TaskBridge

log = logging.getLogger(__name__)


def human_size(n: int | None) -> str:
    if not n:
        return ""
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if size < 1024 or unit == "TiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return ""


def finder_columns() -> list[str]:
    return [_("Name"), _("Found in"), _("Size"), _("Quantisation"), _("Architecture"), _("File")]


class ModelFinderDialog(QDialog):
    sig_add = Signal(list)  # the found models (dicts) the user chose to add
    sig_found = Signal(list)  # a search finished: every model found
    sig_folders_changed = Signal(list)  # the folders the user added (to be remembered)

    def __init__(self, workspace_path: str, bridge: TaskBridge, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(_("Find models on this computer"))
        self.workspace_path, self.bridge = workspace_path, bridge
        self.folders: list[str] = []
        self.found: list[dict] = []
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.table = QTableWidget(0, len(finder_columns()))
        self.table.setHorizontalHeaderLabels(finder_columns())
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.add_folder_button = QPushButton(_("Add a &folder…"))
        self.add_folder_button.clicked.connect(self.choose_folder)
        self.search_button = QPushButton(_("Search &again"))
        self.search_button.clicked.connect(self.search)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.add_button = self.buttons.addButton(
            _("Add the checked models"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.add_button.clicked.connect(self.add_checked)
        self.buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(self.add_folder_button)
        row.addWidget(self.search_button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(
            QLabel(
                _(
                    "GGUF models kept by LM Studio, GPT4All, Jan, Ollama and the Hugging Face "
                    "cache. They are added where they are, not copied."
                )
            )
        )
        layout.addLayout(row)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        self.resize(900, 420)

    def add_folder(self, folder: str | Path) -> None:
        folder = str(Path(folder).expanduser())
        if folder not in self.folders:
            self.folders.append(folder)
            self.sig_folders_changed.emit(list(self.folders))
        self.search()

    def choose_folder(self) -> None:
        folder = file_dialogs.choose_folder(self, MODELS, _("A folder with GGUF models"))
        if folder:
            self.add_folder(folder)

    def search(self) -> None:
        self.search_button.setEnabled(False)
        self.status.setText(_("Searching…"))
        self.bridge.run(
            model_tasks.discover_models_at,
            args=(self.workspace_path, list(self.folders)),
            label=_("Finding models on this computer"),
            replace="model-finder",
            on_done=self.show_found,
            on_error=self._failed,
        )

    def show_found(self, found: list[dict]) -> None:
        self.found = found
        self.search_button.setEnabled(True)
        self.table.setRowCount(len(found))
        for row, model in enumerate(found):
            cells = [
                model["name"],
                model["source"] if model["source"] != "folder" else _("your folder"),
                human_size(model["size_bytes"]),
                model["quantization"],
                model["architecture"],
                model["path"],
            ]
            items = [QTableWidgetItem(text) for text in cells]
            for column, item in enumerate(items):
                item.setToolTip(model["path"])
                self.table.setItem(row, column, item)
            first = items[0]
            if model["registered"]:
                first.setFlags(first.flags() & ~Qt.ItemFlag.ItemIsEnabled)
                first.setText(_("{name} (already added)").format(name=model["name"]))
            else:
                first.setFlags(first.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                first.setCheckState(Qt.CheckState.Unchecked)
        new = sum(1 for m in found if not m["registered"])
        self.status.setText(
            ngettext(
                "{n} model found, {new} not yet in this workspace.",
                "{n} models found, {new} not yet in this workspace.",
                len(found),
            ).format(n=digits(len(found)), new=digits(new))
            if found
            else _("No GGUF models found. Add a folder that has some.")
        )
        self.sig_found.emit(found)

    def checked(self) -> list[dict]:
        return [
            model
            for row, model in enumerate(self.found)
            if not model["registered"]
            and (item := self.table.item(row, 0)) is not None
            and item.checkState() == Qt.CheckState.Checked
        ]

    def add_checked(self) -> None:
        chosen = self.checked()
        if chosen:
            self.sig_add.emit(chosen)
        self.accept()

    def _failed(self, exc: BaseException) -> None:
        self.search_button.setEnabled(True)
        self.status.setText(for_gui(str(exc)))
