"""What closing the main window or its workspace asks and keeps: the question about running
jobs, how long a cancelled job is waited for, leaving those that did not stop, and the
window's geometry per screen."""

from __future__ import annotations

import base64
import logging
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from PySide6.QtCore import QByteArray
from PySide6.QtWidgets import QMainWindow, QMessageBox, QWidget

from app.settings import Settings
from app.window_fit import fit_to_screen, geometry_to_restore, screen_key
from engine.i18n import _
from widgets.common.task_bridge import Task

# how long closing waits for cancelled jobs to return: enough for a cancel to reach a job
# between two items (so a writer ends its transaction before the workspace closes), short
# enough that quitting never hangs on a call that cannot be interrupted (its result is dropped)
QUIT_WAIT_S = 3.0

log = logging.getLogger(__name__)


def jobs_may_stop(parent: QWidget, running: int, *, quitting: bool) -> bool:
    """True when nothing runs, or the user agrees to cancel what does."""
    if not running:
        return True
    if quitting:
        text = _(
            "{n} job(s) are still running. Cancel them and quit? Finished items are kept; "
            "a re-run resumes where it stopped."
        )
    else:
        text = _(
            "{n} job(s) are still running in this workspace. Cancel them and close it? "
            "Finished items are kept; a re-run resumes where it stopped."
        )
    answer = QMessageBox.question(parent, _("Jobs are running"), text.format(n=running))
    return answer == QMessageBox.StandardButton.Yes


def exit_leaving(jobs: Sequence[Task], code: int) -> NoReturn:
    """End the process now, leaving ``jobs`` (cancelled, still inside a call they cannot
    leave: a server that never answers, one long generation) in their workers. A normal exit
    would join every worker thread and wait for them. What they committed stays; a write
    they were in rolls back, as after a kill (WAL)."""
    log.warning(
        "quitting without %d job(s) that did not stop when cancelled: %s",
        len(jobs),
        ", ".join(repr(job.label) for job in jobs),
    )
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def restore_geometry(window: QMainWindow, settings: Settings) -> None:
    saved = geometry_to_restore(window, settings.window_geometries, settings.window_geometry)
    if saved:
        window.restoreGeometry(QByteArray(base64.b64decode(saved)))
    fit_to_screen(window, restored=bool(saved))
    if settings.window_state:
        window.restoreState(QByteArray(base64.b64decode(settings.window_state)))


def remember_geometry(window: QMainWindow, settings: Settings) -> None:
    geometry = base64.b64encode(window.saveGeometry().data()).decode()
    settings.window_geometries[screen_key(window)] = geometry
    settings.window_geometry = geometry
    settings.window_state = base64.b64encode(window.saveState().data()).decode()
