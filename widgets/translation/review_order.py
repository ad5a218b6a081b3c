"""ReviewOrderBox: the review grid's order — by question, or by need (the dialect check) —
and the check of the draft in view, in one line.

By need, questions come with their neediest machine draft first: a flagged draft (a copy of
the standard question, or likely another dialect at the model's flag confidence), then the
least likely in its target dialect (engine.translation.draft_checks); the tooltip says what
the flag was measured to do. Drafts not checked yet (an older workspace, an
edited text) are checked through the task bridge, off the GUI thread, before the grid
is ordered.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from engine.i18n import _
from engine.translation import api as translation
from engine.translation import tasks as translation_tasks
from engine.workspace.api import Workspace
from widgets.common.task_bridge import WRITER, TaskBridge

log = logging.getLogger(__name__)

ORDERS = ("question", "need", "flagged")


class ReviewOrderBox(QWidget):
    sig_order_changed = Signal()  # the grid should be read again in the new order

    def __init__(
        self, workspace: Workspace, bridge: TaskBridge | None = None, parent: QWidget | None = None
    ):
        super().__init__(parent)
        self.ws, self.bridge = workspace, bridge
        self.order = QComboBox()
        self.order.addItem(_("question order"), "question")
        self.order.addItem(_("by need: flagged drafts first"), "need")
        self.order.addItem(_("flagged drafts only"), "flagged")
        self.order.setToolTip(
            _(
                "By need: drafts the dialect check flagged (copies of the standard question, "
                "or likely another dialect) first, then the least likely in their "
                "target dialect"
            )
            + "\n"
            + translation.figures_line()
        )
        self.check_line = QLabel()  # the check of the draft in view
        self.check_line.setWordWrap(True)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("  " + _("Order") + " "))
        layout.addWidget(self.order)
        self.order.currentIndexChanged.connect(self._on_order_chosen)

    def current(self) -> str:
        return self.order.currentData()

    def arrange(self, question_ids: list[int]) -> list[int]:
        """``question_ids`` in the chosen order (and only the flagged ones when asked)."""
        if self.current() == "question":
            return question_ids
        return translation.questions_by_need(
            self.ws, question_ids, flagged=self.current() == "flagged"
        )

    def show_check(self, variant_id: int | None) -> None:
        check = (
            None
            if variant_id is None
            else translation.draft_checks(self.ws, [variant_id]).get(variant_id)
        )
        if check is None:
            self.check_line.setText("")
            return
        p = check["target_probability"]
        mark = _("⚑ flagged") if check["flag"] else _("dialect check")
        chance = "" if p is None else _("target dialect {p:.0%}").format(p=p) + " · "
        self.check_line.setText(f"{mark} · {chance}{check['explanation']}")

    def _on_order_chosen(self) -> None:
        if self.current() == "question" or self.bridge is None:
            self.sig_order_changed.emit()
            return
        self.bridge.run(
            translation_tasks.check_drafts_at,
            args=(str(self.ws.path),),
            on_done=lambda _result: self.sig_order_changed.emit(),
            label=_("Dialect check of the drafts"),
            lane=WRITER,
            replace="review-dialect-check",
        )
