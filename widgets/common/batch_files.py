"""A step's request as OpenAI Batch files, from the dialog that would run it: the request the
dialog builds for its Run button, written by :func:`engine.steps.tasks.export_batch_at` (the
engine path of ``upabhasha batch export``). File → Import batch results… takes the results
back (app/batch_actions.py)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QMessageBox, QPushButton, QWidget

from engine.i18n import _, digits
from engine.steps import tasks as steps_tasks
from engine.steps.api import StepRequest
from engine.workspace.api import Workspace
from widgets.common import file_dialogs
from widgets.common.file_dialogs import BATCHES
from widgets.common.task_bridge import WRITER, TaskBridge, describe_error

# what the dialog would run, or why it cannot (a message to show)
RequestOf = Callable[[], StepRequest | str]


def exported_text(manifest: dict, folder: str) -> str:
    """What an export wrote, in the interface language."""
    if not manifest["files"]:
        return _("Nothing to send: every item of this step is done.")
    return _(
        "{items} requests in {files} file(s) written to {folder} (batch {batch}). Send them to "
        "the inference engine, then take the results in with File → Import batch results…"
    ).format(
        items=digits(manifest["items"]),
        files=digits(len(manifest["files"])),
        folder=folder,
        batch=manifest["batch"],
    )


class BatchExportButton(QPushButton):
    """Export as batch files…: the dialog's request, written to a chosen folder."""

    sig_exported = Signal(dict)  # the manifest

    def __init__(
        self,
        workspace: Workspace,
        bridge: TaskBridge,
        request_of: RequestOf,
        parent: QWidget | None = None,
    ):
        super().__init__(_("Export as batch files…"), parent)
        self.ws, self.bridge, self.request_of = workspace, bridge, request_of
        self.setToolTip(
            _(
                "Write the requests this step would send as OpenAI Batch files, for an "
                "inference engine that takes work as files"
            )
        )
        self.clicked.connect(self.export)

    def export(self) -> None:
        request = self.request_of()
        if isinstance(request, str):
            QMessageBox.information(self, _("Export as batch files"), request)
            return
        folder = file_dialogs.choose_folder(self, BATCHES, _("Folder for the batch files"))
        if folder:
            self.export_to(request, folder)

    def export_to(self, request: StepRequest, folder: str) -> None:
        self.setEnabled(False)
        self.bridge.run(
            steps_tasks.export_batch_at,
            args=(str(self.ws.path), request, folder),
            label=_("Exporting batch files"),
            lane=WRITER,
            dialog=True,
            on_done=lambda manifest: self._exported(manifest, folder),
            on_error=self._failed,
        )

    def _exported(self, manifest: dict, folder: str) -> None:
        self.setEnabled(True)
        QMessageBox.information(self, _("Export as batch files"), exported_text(manifest, folder))
        self.sig_exported.emit(manifest)

    def _failed(self, exc: BaseException) -> None:
        self.setEnabled(True)
        QMessageBox.warning(self, _("Batch files not written"), describe_error(exc))
