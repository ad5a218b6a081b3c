"""ReviewPanel: field linguists review machine translations into dialects, keyboard first.

A questions x dialects grid (status by colour and icon) beside a detail pane. Every action
is saved at once through :mod:`engine.translation.review` (one short transaction plus a history row)
and pushed on a QUndoStack, so undo/redo are themselves recorded edits.

``python -m widgets.translation.review_panel [WORKSPACE]`` opens the panel alone on the sample data.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSplitter,
    QStackedWidget,
    QTableView,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from engine.errors import UserError
from engine.i18n import _, digits
from engine.translation import api as translation
from engine.workspace.api import Workspace
from widgets.common.fonts import bengali_font
from widgets.common.hints import for_gui
from widgets.common.standalone import run_panel
from widgets.common.task_bridge import TaskBridge
from widgets.common.undo_fallthrough import UndoFallthrough
from widgets.common.workspace_watcher import Change
from widgets.translation.review_detail import ReviewDetail
from widgets.translation.review_model import ReviewGridModel, status_icon, status_label
from widgets.translation.review_order import ReviewOrderBox

log = logging.getLogger(__name__)

QUESTION_HEADER_WIDTH = 300


class ReviewEdit(QUndoCommand):
    """One saved review action. Pushed after it is saved, so the first redo() does nothing."""

    def __init__(
        self,
        panel: ReviewPanel,
        before: translation.VariantState,
        after: translation.VariantState,
        text: str,
    ):
        super().__init__(text)
        self.panel, self.before, self.after = panel, before, after
        self._applied = True

    def redo(self) -> None:
        if self._applied:
            self._applied = False
            return
        self.panel._restore(self.after, "redo")

    def undo(self) -> None:
        self.panel._restore(self.before, "undo")


class ReviewPanel(QWidget):
    sig_reviewer_changed = Signal(str)
    sig_avro_mode_changed = Signal(bool)
    sig_status_message = Signal(str)
    sig_changed = Signal(int)  # the id of a variant this panel wrote
    sig_variant_selected = Signal(int)  # variant id, or 0 for none

    def __init__(
        self,
        workspace: Workspace,
        *,
        reviewer: str = "",
        avro_mode: bool = False,
        bridge: TaskBridge | None = None,
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        self.ws = workspace
        self.order_box = ReviewOrderBox(workspace, bridge)
        self.undo_stack = QUndoStack(self)
        self.current_variant: int | None = None

        self.reviewer = QLineEdit(reviewer)
        self.reviewer.setPlaceholderText(_("your name"))
        self.reviewer.setMaximumWidth(180)
        self.reviewer.editingFinished.connect(
            lambda: self.sig_reviewer_changed.emit(self.reviewer.text().strip())
        )
        self.set_filter = QComboBox()
        self.status_filter = QComboBox()
        self.status_filter.addItem(_("all statuses"), None)
        for status in translation.STATUSES:
            self.status_filter.addItem(status_icon(status), status_label(status), status)
        self.counts = QLabel()

        self.model = ReviewGridModel(workspace, translation.review_dialects(workspace), self)
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setFont(bengali_font())
        self.view.setProperty("columns_scroll", True)  # a column per dialect: scrolls sideways
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setWordWrap(False)
        self.view.setAlternatingRowColors(False)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.view.horizontalHeader().setDefaultSectionSize(200)
        rows = self.view.verticalHeader()
        rows.setDefaultSectionSize(30)
        rows.setFixedWidth(QUESTION_HEADER_WIDTH)
        rows.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        rows.setFont(bengali_font())
        self.view.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.view.selectionModel().currentChanged.connect(self._on_current_changed)

        self.detail = ReviewDetail()
        self.detail.set_avro_mode(avro_mode)
        self.detail.sig_avro_mode_changed.connect(self.sig_avro_mode_changed)
        self._build_actions()

        toolbar = QToolBar()
        toolbar.addAction(self.prev_action)
        toolbar.addAction(self.next_action)
        toolbar.addSeparator()
        toolbar.addAction(self.undo_action)
        toolbar.addAction(self.redo_action)
        toolbar.addSeparator()
        toolbar.addWidget(QLabel(_("Question set") + " "))
        toolbar.addWidget(self.set_filter)
        toolbar.addWidget(QLabel("  " + _("Show") + " "))
        toolbar.addWidget(self.status_filter)
        toolbar.addWidget(self.order_box)
        toolbar.addWidget(QLabel("  " + _("Reviewer") + " "))
        toolbar.addWidget(self.reviewer)
        top = QHBoxLayout()
        top.addWidget(toolbar, 1)
        top.addWidget(self.counts)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.view)
        splitter.addWidget(self.detail)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([900, 560])
        # A new workspace has nothing to review: say where the questions come from instead.
        self.empty_hint = QLabel(
            _(
                "No questions yet. Import a corpus (File → Import corpus…) and a question set "
                "(File → Import questions…), then translate them (Study → Translate questions…)."
            )
        )
        self.empty_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_hint.setWordWrap(True)
        self.empty_hint.setMargin(40)
        self.body = QStackedWidget()
        self.body.addWidget(splitter)
        self.body.addWidget(self.empty_hint)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.order_box.check_line)
        layout.addWidget(self.body, 1)

        self._fill_sets()
        self.set_filter.currentIndexChanged.connect(self.reload)
        self.status_filter.currentIndexChanged.connect(self.reload)
        self.order_box.sig_order_changed.connect(self.reload)
        self.reload()

    # -- actions ---------------------------------------------------------------------------
    def _make_action(
        self, text: str, keys: list, slot, icon_status: str | None = None, tip: str = ""
    ) -> QAction:
        action = QAction(text, self)
        action.setShortcuts([QKeySequence(k) for k in keys])
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.setToolTip(f"{tip or text} ({action.shortcut().toString()})")
        if icon_status:
            action.setIcon(status_icon(icon_status))
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        self.next_action = self._make_action(
            _("Next"), ["Alt+Down", "F8"], self.go_next, tip=_("Next question in this dialect")
        )
        self.prev_action = self._make_action(
            _("Previous"),
            ["Alt+Up", "Shift+F8"],
            self.go_previous,
            tip=_("Previous question in this dialect"),
        )
        self.accept_action = self._make_action(
            _("Accept as gold"),
            ["Ctrl+Return", "Ctrl+Enter"],
            self.accept_current,
            "gold",
            _("Accept the text as gold and go to the next"),
        )
        self.save_action = self._make_action(
            _("Save edit"),
            ["Ctrl+S"],
            self.save_current_edit,
            "reviewed",
            _("Save the edited text as reviewed"),
        )
        self.flag_action = self._make_action(
            _("Flag"),
            ["Ctrl+Shift+F"],
            self.flag_current,
            "flagged",
            _("Flag for discussion (needs a comment)"),
        )
        self.reject_action = self._make_action(
            _("Reject"),
            ["Ctrl+Shift+R"],
            self.reject_current,
            "rejected",
            _("Reject this translation"),
        )
        self.avro_action = self._make_action(
            _("Toggle Avro phonetic typing"), ["Ctrl+M"], self.detail.avro_toggle.toggle
        )
        self.undo_action = self.undo_stack.createUndoAction(self, _("Undo"))
        self.undo_action.setShortcuts([QKeySequence("Ctrl+Z")])
        self.redo_action = self.undo_stack.createRedoAction(self, _("Redo"))
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        for action in (self.undo_action, self.redo_action):
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.addAction(action)
        # from the gold and comment fields too, once their own typing is undone
        UndoFallthrough(self.undo_action, self.redo_action, self).watch(
            self.detail.editor, self.detail.comment, self.detail.phonetic
        )
        self.detail.add_action_buttons(
            [self.accept_action, self.save_action, self.flag_action, self.reject_action]
        )
        self._update_action_state()

    def _update_action_state(self) -> None:
        has = self.current_variant is not None
        for action in (self.accept_action, self.save_action, self.flag_action, self.reject_action):
            action.setEnabled(has)

    # -- loading ---------------------------------------------------------------------------
    def _fill_sets(self) -> None:
        chosen = self.set_filter.currentData()
        self.set_filter.blockSignals(True)
        self.set_filter.clear()
        self.set_filter.addItem(_("all question sets"), None)
        for s in translation.question_sets(self.ws):
            self.set_filter.addItem(f"{s['name']} ({digits(s['questions'])})", s["id"])
        self.set_filter.setCurrentIndex(max(0, self.set_filter.findData(chosen)))
        self.set_filter.blockSignals(False)

    def reload_sets(self) -> None:
        """Re-read the question sets (a new import, new counts) keeping the chosen one, then
        the grid."""
        self._fill_sets()
        self.reload()

    def reload(self) -> None:
        """Re-read the grid with the current filters, keeping the selected variant if visible
        and what the reviewer typed there and has not saved; a variant with such an edit stays
        in the detail even when it left the view (until the reviewer moves on)."""
        keep, unsaved = self.current_variant, self.detail.unsaved()
        ids = self.order_box.arrange(
            translation.review_question_ids(
                self.ws,
                set_id=self.set_filter.currentData(),
                status=self.status_filter.currentData(),
            )
        )
        dialects = translation.review_dialects(self.ws)
        if [d["code"] for d in dialects] != self.model.codes:
            self.model.dialects, self.model.codes = dialects, [d["code"] for d in dialects]
        self.model.set_question_ids(ids)
        self.body.setCurrentIndex(0 if translation.has_questions(self.ws) else 1)
        self._update_counts()
        if keep is not None and self.select_variant(keep):
            return
        self._show(keep if unsaved else None)

    def on_change(self, change: Change) -> None:
        """Variants or questions were written (a translation job, adjudication, the CLI, this
        panel): re-read them; nothing typed and not saved is lost (:meth:`reload`)."""
        if "questions" in change.topics:
            self.reload_sets()  # a new question set to filter, new rows
        else:
            self.reload()

    def _update_counts(self) -> None:
        totals: dict[str, int] = {}
        for by_status in translation.review_counts(self.ws).values():
            for status, n in by_status.items():
                totals[status] = totals.get(status, 0) + n
        self.counts.setText(
            "  ".join(f"{status_label(s)} {digits(totals.get(s, 0))}" for s in translation.STATUSES)
        )

    # -- selection and navigation ----------------------------------------------------------
    def select_variant(self, variant_id: int) -> bool:
        index = self.model.index_of_variant(variant_id)
        if not index.isValid():
            return False
        self.view.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect
        )
        self.view.scrollTo(index)
        return True

    def select_cell(self, row: int, column: int) -> None:
        self.model.ensure_loaded(row)
        index = self.model.index(row, column)
        self.view.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect
        )
        self.view.scrollTo(index)

    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        cell = self.model.variant_at(current)
        self._show(cell["id"] if cell else None)

    def _show(self, variant_id: int | None, *, afresh: bool = False) -> None:
        """Show ``variant_id`` in the detail. The variant shown already is re-read keeping an
        unsaved edit (a refresh re-selects it); ``afresh``: show its stored text (this
        panel's own write, undo)."""
        detail = None
        if variant_id is not None:
            try:
                detail = translation.variant_detail(self.ws, variant_id)
            except UserError as exc:  # deleted meanwhile
                self.sig_status_message.emit(for_gui(str(exc)))
                variant_id = None
        self.current_variant = variant_id
        if detail is None or afresh:
            self.detail.show_variant(detail)
        else:
            self.detail.refresh_variant(detail)
        self.order_box.show_check(variant_id)
        self._update_action_state()
        self.sig_variant_selected.emit(variant_id or 0)

    def _step(self, direction: int) -> bool:
        current = self.view.currentIndex()
        column = current.column() if current.isValid() else 0
        row = current.row() if current.isValid() else -1
        while True:
            row += direction
            if row < 0:
                return False
            self.model.ensure_loaded(row)
            if row >= self.model.rowCount():
                return False
            if self.model.variant_at(self.model.index(row, column)) is not None:
                self.select_cell(row, column)
                return True

    def go_next(self) -> bool:
        return self._step(+1)

    def go_previous(self) -> bool:
        return self._step(-1)

    # -- review actions --------------------------------------------------------------------
    def _actor(self) -> str | None:
        name = self.reviewer.text().strip()
        if not name:
            self.sig_status_message.emit(_("Enter your reviewer name first."))
            self.reviewer.setFocus()
            return None
        return name

    def _apply(self, label: str, write: Callable[[int, str], translation.VariantState]) -> bool:
        """Run one store write, ``write(variant_id, actor)`` on the current variant; on success
        push it for undo and refresh the view."""
        if self.current_variant is None:
            return False
        actor = self._actor()
        if actor is None:
            return False
        variant_id = self.current_variant
        try:
            before = translation.variant_state(self.ws, variant_id)
            after = write(variant_id, actor)
        except UserError as exc:
            self.sig_status_message.emit(for_gui(str(exc)))
            return False
        self.undo_stack.push(ReviewEdit(self, before, after, label))
        self._refresh(variant_id)
        self.sig_status_message.emit(_("Saved: {action}").format(action=label))
        return True

    def accept_current(self) -> bool:
        text, comment = self.detail.edited_text(), self.detail.comment.text()

        def write(variant_id: int, actor: str) -> translation.VariantState:
            if text.strip() != translation.variant_state(self.ws, variant_id).text:
                return translation.set_variant_text(
                    self.ws, variant_id, text, actor=actor, action="accept", comment=comment
                )
            return translation.set_variant_status(
                self.ws, variant_id, "gold", actor=actor, comment=comment
            )

        if self._apply(_("accept"), write):
            self.go_next()
            return True
        return False

    def save_current_edit(self) -> bool:
        text, comment = self.detail.edited_text(), self.detail.comment.text()
        return self._apply(
            _("edit"),
            lambda variant_id, actor: translation.set_variant_text(
                self.ws, variant_id, text, actor=actor, comment=comment
            ),
        )

    def flag_current(self) -> bool:
        comment = self.detail.comment.text().strip()
        if self.current_variant is not None and not comment:
            self.sig_status_message.emit(_("Write a comment saying what is wrong, then flag."))
            self.detail.comment.setFocus()
            return False
        return self._apply(
            _("flag"),
            lambda variant_id, actor: translation.set_variant_status(
                self.ws, variant_id, "flagged", actor=actor, comment=comment
            ),
        )

    def reject_current(self) -> bool:
        comment = self.detail.comment.text()
        return self._apply(
            _("reject"),
            lambda variant_id, actor: translation.set_variant_status(
                self.ws, variant_id, "rejected", actor=actor, comment=comment
            ),
        )

    def _restore(self, state: translation.VariantState, action: str) -> None:
        actor = self.reviewer.text().strip() or state.reviewer or "unknown"
        translation.restore_variant(self.ws, state, actor=actor, action=action)
        self._refresh(state.id)
        self.select_variant(state.id)

    def _refresh(self, variant_id: int) -> None:
        self.model.refresh_variant(variant_id)
        if self.current_variant == variant_id:
            self._show(variant_id, afresh=True)
        self._update_counts()
        self.sig_changed.emit(variant_id)


def main(argv: list[str] | None = None) -> int:
    def add_arguments(parser):
        parser.add_argument("--reviewer", default="", help="reviewer name")

    return run_panel(
        "python -m widgets.translation.review_panel",
        _("Review translations"),
        lambda workspace, bridge, args: ReviewPanel(
            workspace, reviewer=args.reviewer, bridge=bridge
        ),
        size=(1280, 760),
        add_arguments=add_arguments,
        argv=argv,
    )


if __name__ == "__main__":
    sys.exit(main())
