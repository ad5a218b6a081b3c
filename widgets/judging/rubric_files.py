"""The judge panel's rubric files (a mixin of :class:`widgets.judging.judge_panel.JudgePanel`):
the bundled rubric, a rubric file the user opens, and the versions saved in the workspace's
rubric folder (one file per content hash)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QComboBox, QWidget

from engine.i18n import _
from engine.judging import tasks as judge_tasks
from engine.judging.api import default_rubric_path
from widgets.common import file_dialogs
from widgets.common.file_dialogs import RUBRICS
from widgets.common.hints import for_gui
from widgets.judging.rubric_editor import RubricEditor


class RubricFiles:
    """The panel provides the attributes declared here."""

    editor: RubricEditor
    versions: QComboBox
    rubric_folder: Path
    sig_status_message: Any  # the panel's Signal(str)

    def _fill_versions(self) -> None:
        self.versions.clear()
        self.versions.addItem(_("saved versions…"), None)
        for path in judge_tasks.rubric_versions(self.rubric_folder):
            self.versions.addItem(path.stem, str(path))

    def _load_version(self, index: int) -> None:
        path = self.versions.itemData(index)
        if path:
            self.load_rubric(path)

    def load_rubric(self, path: str | Path) -> bool:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            self.sig_status_message.emit(
                _("Cannot read {path}: {error}").format(path=path, error=for_gui(str(exc)))
            )
            return False
        self.editor.set_data(data)
        return True

    def load_default(self) -> None:
        self.load_rubric(str(default_rubric_path()))

    def open_rubric_dialog(self) -> None:
        parent = self if isinstance(self, QWidget) else None  # the panel it is mixed into
        path = file_dialogs.open_file(
            parent, RUBRICS, _("Open a rubric"), "JSON (*.json)", fallback=self.rubric_folder
        )
        if path:
            self.load_rubric(path)

    def save_version(self) -> Path | None:
        try:
            path = judge_tasks.save_rubric_version(self.editor.to_dict(), self.rubric_folder)
        except ValueError as exc:
            self.sig_status_message.emit(_("Not saved: {error}").format(error=for_gui(str(exc))))
            return None
        self._fill_versions()
        self.sig_status_message.emit(_("Rubric saved as {path}").format(path=path))
        return path
