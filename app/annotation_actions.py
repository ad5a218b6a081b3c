"""The main window's annotation work: the review-package menu actions. The three panels are
declared by widgets/annotation/__init__.py; they answer the setup's package imports here, and
follow a merge through the workspace watcher's change notice (``sig_merged``), never re-read
from here.

Export and import run in the bridge's SQLite writer lane on their own connection; a refused
package (foreign, tampered, truncated) is reported as the engine's one-line message and
merges nothing. Opening a package needs no workspace: it shows the annotation panel on the
package in its own window (the field laptop's whole workflow).

Every menu action and button connects to a slot without arguments (``QAction.triggered``
passes ``checked``, which a slot with an optional path would take as the path).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QInputDialog, QMessageBox, QWidget

from engine.annotation.api import PACKAGE_SUFFIX, PackageQueue, list_annotators
from engine.annotation.tasks import export_package_at, import_packages_at
from engine.errors import UserError
from engine.i18n import _, digits, ngettext
from engine.workspace.api import Workspace
from widgets.common import file_dialogs
from widgets.common.file_dialogs import PACKAGES
from widgets.common.hints import for_gui
from widgets.common.task_bridge import WRITER, TaskBridge

log = logging.getLogger(__name__)


def merged_text(packages: int, new: int, stale: int) -> str:
    """What a merge of ``packages`` did, each count with its own plural."""
    return _("{packages}: {decisions}, {stale}").format(
        packages=ngettext("{n} package merged", "{n} packages merged", packages).format(
            n=digits(packages)
        ),
        decisions=ngettext("{n} new decision", "{n} new decisions", new).format(n=digits(new)),
        stale=ngettext("{n} on a changed item", "{n} on changed items", stale).format(
            n=digits(stale)
        ),
    )


def package_filter() -> str:
    return _("Upabhasha review package (*{suffix});;All files (*)").format(suffix=PACKAGE_SUFFIX)


class AnnotationActions(QObject):
    """Needs only a parent for its dialogs, the task bridge and a way to read the open
    workspace (None when there is none); says what happened through its signals."""

    sig_status_message = Signal(str, int)  # text, milliseconds shown
    sig_changed = Signal()  # decisions, annotators or assignments changed
    sig_merged = Signal()  # a package merge ended: decisions may have been written

    def __init__(
        self,
        parent: QWidget,
        bridge: TaskBridge,
        workspace: Callable[[], Workspace | None],
    ):
        super().__init__(parent)
        self.parent_widget = parent
        self.bridge = bridge
        self.workspace = workspace
        self.package_windows: list[QWidget] = []
        self.last_result: object = None

    def _merged(self) -> None:
        self.sig_merged.emit()
        self.sig_changed.emit()

    # -- File menu -------------------------------------------------------------------------
    def export_package(self) -> None:
        ws, parent = self.workspace(), self.parent_widget
        if ws is None:
            return
        names = [a["name"] for a in list_annotators(ws)]
        if not names:
            QMessageBox.information(
                parent,
                _("Export review package"),
                _("No annotators yet: add them in the Annotation tab (Annotators…) first."),
            )
            return
        name, ok = QInputDialog.getItem(
            parent, _("Export review package"), _("Annotator:"), names, 0, False
        )
        if not ok:
            return
        out = file_dialogs.save_file(
            parent,
            PACKAGES,
            _("Export review package"),
            f"{name}{PACKAGE_SUFFIX}",
            package_filter(),
        )
        if not out:
            return
        self.bridge.run(
            export_package_at,
            args=(str(ws.path), name, out),
            label=_("Exporting a review package"),
            lane=WRITER,
            dialog=True,
            on_done=self._exported,
        )

    def _exported(self, result: dict) -> None:
        self.last_result = result
        text = ngettext(
            "{path}: {items} item for the annotator",
            "{path}: {items} items for the annotator",
            result["items"],
        )
        self.sig_status_message.emit(
            text.format(path=result["path"], items=digits(result["items"])), 8000
        )

    def import_packages(self) -> None:
        ws = self.workspace()
        if ws is None:
            return
        paths = file_dialogs.open_files(
            self.parent_widget, PACKAGES, _("Import review packages"), package_filter()
        )
        if not paths:
            return
        self.bridge.run(
            import_packages_at,
            args=(str(ws.path), list(paths)),
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
        self.sig_status_message.emit(merged_text(len(results), new, stale), 10000)
        self._merged()

    def _import_failed(self, exc: BaseException) -> None:
        self.last_result = exc
        QMessageBox.warning(self.parent_widget, _("Package not imported"), for_gui(str(exc)))
        self._merged()

    def open_package(self) -> QWidget | None:
        """Ask for a package and open it alone (no workspace) in its own annotation window."""
        path = file_dialogs.open_file(
            self.parent_widget, PACKAGES, _("Open a review package"), package_filter()
        )
        return self.open_package_file(path) if path else None

    def open_package_file(self, path: str) -> QWidget | None:
        # as the window's panels: imported when first needed
        from widgets.annotation.annotation_panel import AnnotationPanel

        try:
            source = PackageQueue(path)
        except UserError as exc:
            QMessageBox.warning(self.parent_widget, _("Cannot open the package"), for_gui(str(exc)))
            return None
        panel = AnnotationPanel(source)
        panel.add_window_shortcuts()
        panel.setWindowTitle(_("{name} — review package").format(name=source.title))
        panel.resize(1000, 640)
        panel.show()
        self.package_windows.append(panel)
        self.last_result = panel
        return panel
