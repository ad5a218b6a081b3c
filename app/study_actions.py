"""The main window's study dialogs: import, translate, generate; what each result refreshes.

One dialog of each kind per workspace, kept (not deleted on close) so a running task's
result still reaches it; dialogs whose choices a result changes are rebuilt when idle.
The window passes itself for its workspace, bridge, panels and status bar.
"""

from __future__ import annotations

import logging

from PySide6.QtWidgets import QMainWindow, QWidget

from engine.i18n import _

log = logging.getLogger(__name__)


class StudyActions:
    def __init__(self, window: QMainWindow):
        self.window = window
        self.dialogs: dict[str, QWidget] = {}

    # -- opening ---------------------------------------------------------------------------
    def _open(self, key: str, build):
        if self.window.workspace is None:
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

    def import_dialog(self, kind: str):
        from widgets.import_dialog import ImportDialog

        w = self.window

        def build():
            dialog = ImportDialog(w.workspace, w.bridge, kind, parent=w)
            dialog.sig_imported.connect(self.after_import)
            return dialog

        dialog = self._open("import", build)
        if dialog is not None and dialog.task is None:
            dialog.kind.setCurrentIndex(dialog.kind.findData(kind))
        return dialog

    def translate_dialog(self):
        from widgets.translate_dialog import TranslateDialog

        return self._job_dialog("translate", TranslateDialog, self.after_translation)

    def generate_dialog(self):
        from widgets.generate_dialog import GenerateDialog

        return self._job_dialog("generate", GenerateDialog, self.after_generation)

    def _job_dialog(self, key: str, dialog_class, after):
        """A dialog that starts jobs: the Jobs panel shows them, ``after`` refreshes panels."""
        w = self.window

        def build():
            dialog = dialog_class(w.workspace, w.bridge, parent=w)
            dialog.sig_started.connect(lambda _task: w.show_panel("jobs"))
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

    # -- what each result refreshes --------------------------------------------------------
    def after_import(self, report: dict) -> None:
        w = self.window
        self._drop_idle("translate", "generate")  # rebuilt with the new choices
        if "review" in w.panels:
            w.panels["review"].reload_sets()  # a new question set joins the filter
        w.refresh_status()
        w.statusBar().showMessage(
            _("Imported {name}: {n} new").format(name=report["name"], n=report["inserted"]), 6000
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
        log.warning("%s", message)
        self.window.statusBar().showMessage(message)
        return True

    def after_translation(self, summary: dict) -> None:
        w = self.window
        if self._stopped_incomplete(summary, _("Translation")):
            self._drop_idle("generate")
            w.refresh_status()
            return
        self._drop_idle("generate")  # new drafts change the status counts
        if "review" in w.panels:
            w.panels["review"].reload()
            w.show_panel("review")
        w.refresh_status()

    def after_generation(self, summary: dict) -> None:
        w = self.window
        if self._stopped_incomplete(summary, _("Answer generation")):
            w.refresh_status()
            return
        if "answers" in w.panels:
            w.panels["answers"].refresh_options()
            w.panels["judge"].refresh()
            w.panels["charts"].mark_dirty()
        w.refresh_status()
