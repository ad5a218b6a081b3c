"""The annotation study's setup actions, shared by its three panels, and the empty-state
prompt each panel shows until there is something to see.

:class:`AnnotationSetup` opens the annotators and assignment dialogs on one workspace and
announces a change (``sig_changed``); merging review packages needs the task bridge and a
file dialog, so it only asks for it (``sig_import_requested``; the main window's
annotation actions answer). :class:`SetupPrompt` reads how far the study is set up and
offers the one action that moves it on, as a button.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QPushButton, QWidget

from engine.annotation import api as annotation
from engine.i18n import _
from engine.workspace.api import Workspace
from widgets.annotation.setup_dialogs import (
    AnnotatorsDialog,
    AssignDialog,
    DrawSubsetDialog,
    assignment_message,
)
from widgets.common.task_bridge import TaskBridge

log = logging.getLogger(__name__)


class AnnotationSetup(QObject):
    sig_changed = Signal()  # annotators or assignments changed
    sig_import_requested = Signal()
    sig_status_message = Signal(str)

    def __init__(
        self, ws: Workspace, parent: QObject | None = None, *, bridge: TaskBridge | None = None
    ):
        super().__init__(parent)
        self.ws = ws
        self.bridge = bridge  # batch writes run on its writer lane (setup_dialogs)
        self.can_import = False  # True once someone answers sig_import_requested
        self.dialog: QDialog | None = None  # the one open (for tests)

    def answer_imports(self, slot) -> None:
        """``slot`` merges review packages when the prompt asks (the main window's actions)."""
        self.sig_import_requested.connect(slot)
        self.can_import = True

    def state(self) -> dict[str, int]:
        return annotation.setup_state(self.ws)

    def edit_annotators(self, parent: QWidget | None = None) -> AnnotatorsDialog:
        dialog = self.dialog = AnnotatorsDialog(self.ws, parent)
        dialog.sig_changed.connect(self.sig_changed)
        dialog.open()
        return dialog

    def assign_items(self, parent: QWidget | None = None) -> AssignDialog:
        dialog = self.dialog = AssignDialog(self.ws, parent, self.bridge)
        dialog.sig_changed.connect(lambda: self._assigned(dialog))
        dialog.open()
        return dialog

    def draw_for_scoring(self, parent: QWidget | None = None) -> DrawSubsetDialog:
        dialog = self.dialog = DrawSubsetDialog(self.ws, parent, self.bridge)
        dialog.sig_changed.connect(lambda: self._assigned(dialog))
        dialog.open()
        return dialog

    def can_draw_for_scoring(self) -> bool:
        return bool(annotation.scored_judge_runs(self.ws))

    def _assigned(self, dialog: AssignDialog | DrawSubsetDialog) -> None:
        if dialog.result_summary is not None:
            self.sig_status_message.emit(assignment_message(dialog.result_summary))
        self.sig_changed.emit()


class SetupPrompt(QWidget):
    """One line saying what is missing and a button for the action that fills it; hidden
    when nothing is. ``need`` is how far the panel needs the study to be: ``assigned``
    (the annotation panel) or ``decided`` (adjudication and agreement)."""

    def __init__(self, setup: AnnotationSetup, need: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setup, self.need = setup, need
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.button = QPushButton()  # no mnemonic: it stands in for the panel's own buttons
        self.button.clicked.connect(lambda _checked=False: self._act())
        self.step = ""
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 4, 0, 4)
        row.addWidget(self.message, 1)
        row.addWidget(self.button)
        setup.sig_changed.connect(self.refresh)

    def refresh(self) -> str:
        """Show the next step (and return its name: annotators, assign, decide or ''). Call
        it once the prompt is in its panel's layout (shown alone it would open a window)."""
        state = self.setup.state()
        if not state["annotators"]:
            self.step = "annotators"
            text = _("No annotators yet: add the people who will annotate, with their dialects.")
            button = _("Add annotators…")
        elif not state["assigned"]:
            self.step = "assign"
            text = _("No items assigned yet: assign a batch of items to the annotators.")
            button = _("Assign items…")
        elif self.need == "decided" and not state["decided"]:
            self.step = "decide"
            text = _(
                "No decisions yet: annotators decide in the Annotation tab, or merge the "
                "review packages they send back."
            )
            button = _("Import review packages…")
        else:
            self.step = ""
            text = button = ""
        self.message.setText(text)
        self.button.setText(button)
        self.button.setVisible(bool(button) and (self.step != "decide" or self.setup.can_import))
        self.setVisible(bool(self.step))
        return self.step

    def _act(self) -> None:
        if self.step == "annotators":
            self.setup.edit_annotators(self.window())
        elif self.step == "assign":
            self.setup.assign_items(self.window())
        elif self.step == "decide":
            self.setup.sig_import_requested.emit()
