"""The field-notes study's panel, import page and Study-menu dialog, declared as every
stage's are (widgets.common.stage_parts)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from engine.i18n import _
from engine.llm.api import models_default_first
from engine.steps import tasks as steps_tasks
from engine.workspace.api import Workspace
from tests.fourth_study.api import GistRequest, count_notes, counts_by_origin, import_notes_file
from widgets.common.batch_files import BatchExportButton
from widgets.common.import_page import StudyPage
from widgets.common.labels import label
from widgets.common.stage_parts import ImportPage, PanelContext, Panels, StudyEntry
from widgets.common.task_bridge import TaskBridge, describe_error, model_lane
from widgets.common.workspace_watcher import follow


class NotesPanel(QLabel):
    def __init__(self, ctx: PanelContext):
        super().__init__()
        self.ws = ctx.workspace
        self.refresh()
        follow(self, self.refresh, ctx.watcher, "field_notes")

    def refresh(self) -> None:
        self.setText(_("{n} notes").format(n=count_notes(self.ws)))
        # its stored codes named as its declaration (schema.py, LABELS) lets every panel do
        origins = counts_by_origin(self.ws).items()
        self.setToolTip(
            "\n".join(
                _("{origin}: {n}").format(origin=label("note_origin", code), n=n)
                for code, n in origins
            )
        )


class NotesPage(StudyPage):
    kind = "notes"
    needs_columns = False
    run = staticmethod(import_notes_file)
    describe = staticmethod(lambda report: [f"{report['name']}: {report['inserted']} notes"])

    def __init__(self, _dialects: list[dict]):
        super().__init__(_("Import field notes"))

    def apply_guess(self, columns: list[str]) -> None:
        pass  # a text file: no columns

    def options(self) -> dict:
        return {}

    def ready(self, columns: list[str]) -> bool:
        return True


class GistDialog(QDialog):
    """Choose a model, then Run (or export the same request as batch files): the request
    ``upabhasha gist-notes`` builds, run by the one request runner."""

    sig_finished = Signal(object)  # the step's GistResult

    def __init__(self, workspace: Workspace, bridge: TaskBridge, parent: QWidget | None = None):
        super().__init__(parent)
        self.ws, self.bridge = workspace, bridge
        self.setWindowTitle(_("Read the field notes"))
        self.model = QComboBox()
        for row in models_default_first(workspace):
            self.model.addItem(row["name"], row["id"])
        self.run_button = QPushButton(_("&Run"))
        self.run_button.clicked.connect(self.start)
        self.export_button = BatchExportButton(workspace, bridge, self.request, self)
        self.result = QLabel()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for widget in (self.model, self.run_button, self.export_button, self.result, buttons):
            layout.addWidget(widget)

    def request(self) -> GistRequest | str:
        if self.model.currentIndex() < 0:
            return _("Add a model first.")
        return GistRequest(models=(self.model.currentText(),))

    def start(self) -> None:
        request = self.request()
        if isinstance(request, str):
            self.result.setText(request)
            return
        self.run_button.setEnabled(False)
        self.bridge.run(
            steps_tasks.run_request_at,
            args=(str(self.ws.path), request),
            lane=model_lane(self.model.currentData()),
            label=_("Reading the field notes"),
            on_done=self._done,
            on_error=self._failed,
        )

    def _done(self, result) -> None:
        self.run_button.setEnabled(True)
        done = sum(run["done_now"] + run["done_before"] for run in result.runs)
        self.result.setText(_("{n} notes read").format(n=done))
        self.sig_finished.emit(result)

    def _failed(self, exc: BaseException) -> None:
        self.run_button.setEnabled(True)
        self.result.setText(describe_error(exc, one_line=True))


def _open_gist(study, _show_panel) -> None:
    study.open_dialog(
        "gist-notes", lambda: GistDialog(study.workspace, study.bridge, study.dialog_parent)
    )


PANELS = [Panels(130, lambda ctx: [("notes", _("Field notes"), NotesPanel(ctx))])]
IMPORT_PAGES = [
    ImportPage(50, "notes", lambda: _("Field notes"), lambda: _("Import field &notes…"), NotesPage)
]
STUDY_ENTRIES = [StudyEntry(50, lambda: _("Read the field &notes…"), _open_gist)]
