"""What a study stage's widgets declare for the main window and the import dialog.

Each ``widgets/<stage>/__init__.py`` lists its ``PANELS``, ``IMPORT_PAGES`` and
``STUDY_ENTRIES`` (each optional); the window (app/main_window.py) and the import dialog take
them from the stage list (app/cli/registry.py) and never name a stage's panel, dialog or
menu entry themselves. A declaration is small: where it sits among the
others (``place``: tabs, Ctrl+number shortcuts and the dialog's list follow it), its title,
and a ``build`` that imports the stage's widgets only when it runs — when a workspace opens,
or when the import dialog is first shown — so start-up pays for none of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtWidgets import QWidget

from engine.workspace.api import Workspace
from widgets.common.task_bridge import TaskBridge
from widgets.common.workspace_watcher import WorkspaceWatcher


@dataclass(frozen=True)
class PanelContext:
    """What a panel may use: the narrowest things the window has (house style 8-9)."""

    workspace: Workspace
    bridge: TaskBridge
    watcher: WorkspaceWatcher
    settings: Any  # the window's remembered settings (app.settings.Settings)
    save_settings: Callable[[], None]
    reviewer_changed: Callable[[str], None]  # the person's name was edited in a panel
    status: Callable[[str, int], None]  # a status-bar message and its milliseconds
    open_import: Callable[[str], None]  # the import dialog, on a page (an empty state's button)
    # announces finished study dialogs: sig_imported, sig_translated, sig_generated
    study: Any
    # the window's annotation actions: review-package imports and their announcements
    annotation: Any

    def status_message(self, text: str, ms: int = 4000) -> None:
        """A panel's status message, shown for ``ms`` milliseconds."""
        self.status(text, ms)

    @staticmethod
    def while_alive(panel: QWidget, signal: Any, slot: Callable[..., object]) -> None:
        """Connect a window-long ``signal`` (the study actions') to ``slot`` for as long as
        ``panel`` lives. A Python callable is no Qt receiver, so Qt would go on calling it
        after a workspace closed and deleted the panel's widgets."""
        signal.connect(slot)

        def gone(*_args: object) -> None:
            try:
                signal.disconnect(slot)
            except (RuntimeError, TypeError):  # the window (the sender) went first
                pass

        panel.destroyed.connect(gone)


@dataclass(frozen=True)
class Panels:
    """One or more tabs that are built together (they share parts): ``build`` returns
    ``(key, title, widget)`` for each, in tab order, from ``place`` on."""

    place: int
    build: Callable[[PanelContext], list[tuple[str, str, QWidget]]]


@dataclass(frozen=True)
class ImportPage:
    """One kind of import: ``kind`` (``upabhasha import KIND``), its titles in the dialog's
    list and the File menu, and ``build(dialects)`` making a
    :class:`widgets.common.import_page.StudyPage`."""

    place: int
    kind: str
    title: Callable[[], str]
    menu_text: Callable[[], str]
    build: Callable[[list[Any]], Any]  # a StudyPage, given the workspace's dialects


@dataclass(frozen=True)
class StudyEntry:
    """One entry of the Study menu: its text, and ``open(study, show_panel)`` run when it is
    chosen (a workspace is open): ``study`` is the window's study dialogs
    (app.study_actions.StudyActions: ``open_dialog(key, build)``, ``workspace``, ``bridge``,
    ``dialog_parent``), ``show_panel(name)`` brings a panel to the front."""

    place: int
    text: Callable[[], str]
    open: Callable[[Any, Callable[[str], None]], Any]
