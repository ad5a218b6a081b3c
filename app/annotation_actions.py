"""The main window's annotation work: its three panels and the review-package menu actions.

Export and import run in the bridge's SQLite writer lane on their own connection; a refused
package (foreign, tampered, truncated) is reported as the engine's one-line message and
merges nothing. Opening a package needs no workspace: it shows the annotation panel on the
package in its own window (the field laptop's whole workflow).
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QInputDialog, QMainWindow, QMessageBox, QWidget

from engine.annotation.api import PACKAGE_SUFFIX, PackageQueue, WorkspaceQueue, list_annotators
from engine.annotation.tasks import export_package_at, import_packages_at
from engine.errors import UserError
from engine.i18n import _
from widgets.common.task_bridge import WRITER
from widgets.common.workspace_watcher import follow

log = logging.getLogger(__name__)


def package_filter() -> str:
    return _("Upabhasha review package (*{suffix});;All files (*)").format(suffix=PACKAGE_SUFFIX)


class AnnotationActions:
    def __init__(self, window: QMainWindow):
        self.window = window
        self.package_windows: list[QWidget] = []
        self.last_result: object = None

    # -- panels ----------------------------------------------------------------------------
    def build_panels(self) -> dict[str, tuple[QWidget, str]]:
        # here, when a workspace opens, as the main window's other panels (40 ms and more each)
        from widgets.annotation.adjudication_panel import AdjudicationPanel
        from widgets.annotation.agreement_panel import AgreementPanel
        from widgets.annotation.annotation_panel import AnnotationPanel

        w = self.window
        name = w.settings.reviewer_name
        annotation = AnnotationPanel(WorkspaceQueue(w.workspace), annotator=name)
        adjudication = AdjudicationPanel(w.workspace, adjudicator=name)
        agreement = AgreementPanel(w.workspace, w.bridge)
        annotation.sig_decided.connect(lambda _item: adjudication.mark_dirty())
        # writes elsewhere (a dialog, a merged package, the CLI): one watcher tick later
        watcher = w.watcher
        if watcher is not None:
            follow(annotation, annotation.reload_annotators, watcher.sig_annotators)
            follow(
                annotation,
                lambda: annotation.reload(annotation.current and annotation.current["item_id"]),
                watcher.sig_assignments,
            )
            watcher.sig_decisions.connect(adjudication.mark_dirty)
            watcher.sig_assignments.connect(adjudication.mark_dirty)
            watcher.sig_decisions.connect(agreement.mark_stale)
            watcher.sig_assignments.connect(agreement.mark_stale)
        adjudication.sig_changed.connect(w.refresh_status)
        for panel in (annotation, adjudication, agreement):
            panel.sig_status_message.connect(lambda text: w.statusBar().showMessage(text, 6000))
        return {
            "annotation": (annotation, _("Annotation")),
            "adjudication": (adjudication, _("Adjudication")),
            "agreement": (agreement, _("Agreement")),
        }

    def _refresh_panels(self) -> None:
        annotation = self.window.panels.get("annotation")
        if annotation is not None:
            annotation.reload()
        adjudication = self.window.panels.get("adjudication")
        if adjudication is not None:
            adjudication.mark_dirty()
        self.window.refresh_status()

    # -- File menu -------------------------------------------------------------------------
    def export_package(self) -> None:
        w = self.window
        if w.workspace is None:
            return
        names = [a["name"] for a in list_annotators(w.workspace)]
        if not names:
            QMessageBox.information(
                w, _("Export review package"), _("Add annotators and assign items first.")
            )
            return
        name, ok = QInputDialog.getItem(
            w, _("Export review package"), _("Annotator:"), names, 0, False
        )
        if not ok:
            return
        out, _filter = QFileDialog.getSaveFileName(
            w,
            _("Export review package"),
            str(Path.home() / f"{name}{PACKAGE_SUFFIX}"),
            package_filter(),
        )
        if not out:
            return
        w.bridge.run(
            export_package_at,
            args=(str(w.workspace.path), name, out),
            label=_("Exporting a review package"),
            lane=WRITER,
            dialog=True,
            on_done=self._exported,
        )

    def _exported(self, result: dict) -> None:
        self.last_result = result
        self.window.statusBar().showMessage(
            _("{path}: {items} items for the annotator").format(**result), 8000
        )

    def import_packages(self) -> None:
        w = self.window
        if w.workspace is None:
            return
        paths, _filter = QFileDialog.getOpenFileNames(
            w, _("Import review packages"), str(Path.home()), package_filter()
        )
        if not paths:
            return
        w.bridge.run(
            import_packages_at,
            args=(str(w.workspace.path), list(paths)),
            label=_("Merging review packages"),
            lane=WRITER,
            dialog=True,
            on_done=self._imported,
            on_error=self._import_failed,
        )

    def _imported(self, results: list[dict]) -> None:
        self.last_result = results
        new = sum(r["new"] for r in results)
        stale = sum(r["stale"] for r in results)
        self.window.statusBar().showMessage(
            _("{n} package(s) merged: {new} new decisions, {stale} on changed items").format(
                n=len(results), new=new, stale=stale
            ),
            10000,
        )
        self._refresh_panels()

    def _import_failed(self, exc: BaseException) -> None:
        self.last_result = exc
        QMessageBox.warning(self.window, _("Package not imported"), str(exc))
        self._refresh_panels()

    def open_package(self, path: str | None = None) -> QWidget | None:
        """Open a package alone (no workspace) in its own annotation window."""
        # as build_panels: the panel is imported when first needed
        from widgets.annotation.annotation_panel import AnnotationPanel

        if path is None:
            path, _filter = QFileDialog.getOpenFileName(
                self.window, _("Open a review package"), str(Path.home()), package_filter()
            )
            if not path:
                return None
        try:
            source = PackageQueue(path)
        except UserError as exc:
            QMessageBox.warning(self.window, _("Cannot open the package"), str(exc))
            return None
        panel = AnnotationPanel(source)
        panel.setWindowTitle(_("{name} — review package").format(name=source.title))
        panel.resize(1000, 640)
        panel.show()
        self.package_windows.append(panel)
        return panel
