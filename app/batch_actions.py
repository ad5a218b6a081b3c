"""File → Import batch results…: result files of exported batches taken in and replayed
through the requests their batches keep (engine.steps.tasks.import_batch_at, the path of
``upabhasha batch import``). Batches exported before batches kept their request are converted
first from the command line they kept (app/cli/batch.py reads it: a parser is the CLI's).

The import runs in the bridge's SQLite writer lane on its own connection; what it wrote
reaches the panels as one change notice (``sig_imported``)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from app.cli.batch import convert_legacy_batches
from engine.i18n import _, digits
from engine.steps import tasks as steps_tasks
from engine.steps.api import BatchImport
from engine.workspace.api import Workspace
from widgets.common import file_dialogs
from widgets.common.file_dialogs import BATCHES
from widgets.common.task_bridge import WRITER, TaskBridge, describe_error

log = logging.getLogger(__name__)


def import_batch_results_at(workspace_path: str, paths: list[str | Path]) -> BatchImport:
    """Convert batches of an earlier version, then take the result files in."""
    with Workspace(workspace_path, create=False) as ws:
        convert_legacy_batches(ws)
    return steps_tasks.import_batch_at(workspace_path, paths)


def import_report_text(report: dict) -> str:
    """What an import took in and what is still missing, in the interface language."""
    lines = []
    for f in report["files"]:
        refused = ", ".join(f"{why} {digits(n)}" for why, n in f["refused"].items()) or _("none")
        line = _("{file}: {lines} lines, {accepted} accepted ({new} new), refused: {refused}")
        lines.append(
            line.format(
                file=f["file"],
                lines=digits(f["lines"]),
                accepted=digits(f["accepted"]),
                new=digits(f["new"]),
                refused=refused,
            )
        )
        if f["file_refused"]:
            lines.append(_("The file was refused whole: nothing of it was stored."))
            lines.extend(f["problems"])  # the lines that refused it, named
    if report["changed"]:
        lines.append(
            _("{n} results answer requests the step no longer sends: not used").format(
                n=digits(report["changed"])
            )
        )
    if report["missing"]:
        lines.append(
            _(
                "{n} items are still missing: export the same step as batch files again "
                "(only what is missing is written) and import its results."
            ).format(n=digits(report["missing"]))
        )
    else:
        lines.append(_("Nothing is missing: the step is complete."))
    return "\n".join(lines)


def batch_filter() -> str:
    return _("OpenAI Batch results (*.jsonl);;All files (*)")


class BatchActions(QObject):
    """Needs a parent for its dialogs, the bridge and a way to read the open workspace."""

    sig_imported = Signal(dict)  # the import's report

    def __init__(
        self, parent: QWidget, bridge: TaskBridge, workspace: Callable[[], Workspace | None]
    ):
        super().__init__(parent)
        self.parent_widget, self.bridge, self.workspace = parent, bridge, workspace

    def import_results(self) -> None:
        ws = self.workspace()
        if ws is None:
            return
        paths = file_dialogs.open_files(
            self.parent_widget, BATCHES, _("Import batch results"), batch_filter()
        )
        if paths:
            self.import_files(str(ws.path), list(paths))

    def import_files(self, workspace_path: str, paths: list[str | Path]) -> None:
        self.bridge.run(
            import_batch_results_at,
            args=(workspace_path, paths),
            label=_("Importing batch results"),
            lane=WRITER,
            dialog=True,
            on_done=self._imported,
            on_error=self._failed,
        )

    def _imported(self, report: dict) -> None:
        self.sig_imported.emit(report)
        box = QMessageBox.warning if report["missing"] else QMessageBox.information
        box(self.parent_widget, _("Batch results imported"), import_report_text(report))

    def _failed(self, exc: BaseException) -> None:
        QMessageBox.warning(
            self.parent_widget, _("Batch results not imported"), describe_error(exc)
        )
