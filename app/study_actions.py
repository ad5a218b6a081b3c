"""The main window's study dialogs: import, translate, generate; what each result announces.

One dialog of each kind per workspace, kept (not deleted on close) so a running task's
result still reaches it; dialogs whose choices a result changes are rebuilt when idle.
StudyActions knows the workspace, the bridge and the parent widget of its dialogs — never
the window's panels: it announces each result through its ``sig_*`` signals and the window
connects the panels that care (house style 8-9).
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from engine.i18n import _
from engine.workspace.api import Workspace
from widgets.common.hints import load_failure
from widgets.common.task_bridge import TaskBridge

log = logging.getLogger(__name__)

STATUS_MS = 6000


class StudyActions(QObject):
    sig_imported = Signal(dict)  # an import's report: a corpus or question set was added
    sig_translated = Signal(dict)  # a translation job's summary: new drafts to review
    sig_generated = Signal(dict)  # a generation job's summary: new answers
    sig_show_panel = Signal(str)  # a panel the user should see now ("jobs", "review")
    sig_status_message = Signal(str, int)  # text, milliseconds

    def __init__(self, dialog_parent: QWidget, bridge: TaskBridge):
        super().__init__(dialog_parent)
        self.dialog_parent = dialog_parent
        self.bridge = bridge
        self.workspace: Workspace | None = None
        self.dialogs: dict[str, QWidget] = {}

    def set_workspace(self, workspace: Workspace | None) -> None:
        """The open workspace (None: closed); the dialogs of the previous one go."""
        self.forget()
        self.workspace = workspace

    # -- opening ---------------------------------------------------------------------------
    def open_dialog(self, key: str, build):
        """The workspace's one dialog ``key`` (``build()`` makes it the first time), shown."""
        return self._open(key, build)

    def _open(self, key: str, build):
        if self.workspace is None:
            return None
        dialog = self.dialogs.get(key)
        if dialog is None:
            dialog = build()
            self.dialogs[key] = dialog
        if dialog.isVisible():
            dialog.raise_()
            dialog.activateWindow()
        else:
            dialog.show()
        return dialog

    # Each dialog is imported when first opened, not at start-up: each is slow to import.
    def import_dialog(self, kind: str):
        from app.stage_widgets import import_pages
        from widgets.importing.import_dialog import ImportDialog

        def build():
            dialog = ImportDialog(
                self.workspace,
                self.bridge,
                kind,
                pages=import_pages(),  # every stage's kinds (app/cli/registry.py)
                parent=self.dialog_parent,
            )
            dialog.sig_imported.connect(self.after_import)
            return dialog

        dialog = self._open("import", build)
        if dialog is not None and dialog.task is None:
            dialog.kind.setCurrentIndex(dialog.kind.findData(kind))
        return dialog

    def translate_dialog(self):
        from widgets.translation.translate_dialog import TranslateDialog

        return self._job_dialog("translate", TranslateDialog, self.after_translation)

    def generate_dialog(self):
        from widgets.answering.generate_dialog import GenerateDialog

        return self._job_dialog("generate", GenerateDialog, self.after_generation)

    def _job_dialog(self, key: str, dialog_class, after):
        """A dialog that starts jobs: the Jobs panel shows them, ``after`` announces results."""

        def build():
            dialog = dialog_class(self.workspace, self.bridge, parent=self.dialog_parent)
            dialog.sig_started.connect(lambda _task: self.sig_show_panel.emit("jobs"))
            dialog.sig_finished.connect(after)
            return dialog

        return self._open(key, build)

    # -- closing ---------------------------------------------------------------------------
    def forget(self) -> None:
        for dialog in self.dialogs.values():
            dialog.close()
            dialog.deleteLater()
        self.dialogs.clear()

    def _drop_idle(self, *keys: str) -> None:
        for key in keys:
            dialog = self.dialogs.get(key)
            if dialog is not None and not (
                getattr(dialog, "task", None) or getattr(dialog, "tasks", None)
            ):
                del self.dialogs[key]
                dialog.close()
                dialog.deleteLater()

    def models_changed(self) -> None:
        """Models were added or removed (the Models panel, the CLI): open dialogs list them
        at once."""
        for dialog in self.dialogs.values():
            refresh = getattr(dialog, "refresh_models", None)
            if refresh is not None:
                refresh()

    # -- what each result announces --------------------------------------------------------
    def after_import(self, report: dict) -> None:
        self._drop_idle("translate", "generate")  # rebuilt with the new choices
        self.sig_imported.emit(report)
        self.sig_status_message.emit(
            _("Imported {name}: {n} new").format(name=report["name"], n=report["inserted"]),
            STATUS_MS,
        )

    def _stopped_incomplete(self, summary: dict, step: str) -> bool:
        """An incomplete step (errors, a dead worker, a cancel) stops the study here: say so
        (it stays on the status bar) and do not move on to the next step's panel."""
        if summary.get("complete", True):
            return False
        missing = summary.get("failed")
        if missing is None:
            missing = (
                summary.get("items", 0) - summary.get("done_before", 0) - summary.get("done_now", 0)
            )
        message = _(
            "{step} is incomplete: {n} item(s) failed or are missing. Run it again to resume "
            "before going on."
        ).format(step=step, n=missing)
        reason = load_failure([summary], "{error}")
        if reason:  # its model did not load: nothing ran, and rerunning alone will not mend it
            message = _("{step} failed: {error}").format(step=step, error=reason)
        log.warning("%s", message)
        self.sig_status_message.emit(message, 0)  # 0: it stays until the next message
        return True

    def after_translation(self, summary: dict) -> None:
        if self._stopped_incomplete(summary, _("Translation")):
            self._drop_idle("generate")
            return
        self._drop_idle("generate")  # new drafts change the status counts
        if not summary.get("written"):  # said here: the dialog may be closed by now
            self.sig_status_message.emit(
                _(
                    "The translation wrote no drafts: {kept} of the chosen items already have "
                    "a person's rendering, which is never overwritten."
                ).format(kept=summary.get("protected", 0)),
                0,
            )
        self.sig_translated.emit(summary)

    def after_generation(self, summary: dict) -> None:
        if self._stopped_incomplete(summary, _("Answer generation")):
            return
        self.sig_generated.emit(summary)
