"""AnswersPanel: side-by-side standard and dialect answers with the judge's verdict.

A table over the generated dialect answers (lazy, :mod:`widgets.judging.answers_model`),
listed before any judge has run, with the chosen judge's verdict where it has judged them;
filtered by judge, model,
dialect, domain, question type, score gap, confidence and "needs human review"; the
filter runs in a worker through the bridge (the newest filter wins). Selecting a row shows
both questions and answers with word differences highlighted, the script checks, the
:func:`engine.judging.store.add_override`. While a run writes, the workspace watcher
(:mod:`widgets.common.workspace_watcher`) says so — at most once a second, and only while the
panel is shown: new answers are appended, new verdicts fill the rows on screen.

``python -m widgets.judging.answers_panel [WORKSPACE]`` opens the panel alone on the sample study.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from engine.errors import UserError
from engine.i18n import _, digits, ngettext
from engine.judging import api as judging
from engine.judging import tasks as judge_tasks
from engine.judging.api import (
    AnswerFilter,
    Rubric,
    answer_detail,
    answer_id_array,
    answer_ids,
    answer_of_judgment,
    judges_scores,
    load_rubric,
)
from engine.workspace.api import Workspace
from widgets.common.columns import fit_columns_to_headers
from widgets.common.fonts import bengali_font
from widgets.common.hints import for_gui
from widgets.common.labels import dialect_of, label
from widgets.common.standalone import run_panel
from widgets.common.task_bridge import TaskBridge
from widgets.common.workspace_watcher import WorkspaceWatcher
from widgets.judging.answers_detail import AnswersDetail
from widgets.judging.answers_model import FETCH_BLOCK, AnswersTableModel
from widgets.judging.answers_view import AnswersTableView

log = logging.getLogger(__name__)

TYPE_NAMES = {1: "definitional", 2: "contrasting", 3: "factual", 4: "functional"}


class AnswersPanel(QWidget):
    sig_status_message = Signal(str)
    sig_changed = Signal()  # an override was written
    sig_answer_selected = Signal(int)  # judgment id, 0 for none
    sig_filtered = Signal(int)  # rows matching the filter

    def __init__(
        self,
        workspace: Workspace,
        bridge: TaskBridge,
        *,
        annotator: str = "",
        rubric: Rubric | None = None,
        watcher: WorkspaceWatcher | None = None,
        parent: QWidget | None = None,
    ):
        """``watcher``: the window's workspace watcher (a panel alone makes its own)."""
        super().__init__(parent)
        self.ws = workspace
        self.bridge = bridge
        self.rubric = rubric or load_rubric()
        self._live_pending = False  # a look-up of new rows in flight
        self._live_again = False  # more arrived meanwhile: look again when it is back
        self._stale = False  # answers or verdicts arrived while hidden
        self._partial = False  # the first rows of a filter are listed, the rest is read
        self._live_after_listing = False  # answers arrived while the rest was read
        self._reselect: int | None = None  # the answer selected before the first rows came

        self.judge, self.model_filter = QComboBox(), QComboBox()
        self.dialect, self.domain, self.qtype = QComboBox(), QComboBox(), QComboBox()
        self.min_gap = QDoubleSpinBox()
        self.min_gap.setRange(0, self.rubric.max_score)
        self.min_gap.setSingleStep(0.5)
        self.min_gap.setPrefix("≥ ")
        self.max_confidence = QSpinBox()
        self.max_confidence.setRange(0, 5)
        self.max_confidence.setSpecialValueText(_("any"))
        self.max_confidence.setPrefix("≤ ")
        self.needs_review = QCheckBox(_("needs human review"))
        self.count = QLabel()
        for combo in (self.judge, self.model_filter, self.dialect, self.domain, self.qtype):
            self._fill(combo, _("loading…"), [])
        for combo in (self.judge, self.model_filter, self.dialect, self.domain, self.qtype):
            combo.currentIndexChanged.connect(lambda _i: self.apply_filter())
            # long dialect/domain names must not make the window wider than a 1366 px screen
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            combo.setMinimumContentsLength(6)
        self.min_gap.valueChanged.connect(lambda _v: self.apply_filter())
        self.max_confidence.valueChanged.connect(lambda _v: self.apply_filter())
        self.needs_review.toggled.connect(lambda _c: self.apply_filter())

        self.model = AnswersTableModel(
            workspace,
            max_score=self.rubric.max_score,
            review_threshold=self.rubric.review_confidence_threshold,
            parent=self,
        )
        self.view = AnswersTableView()
        self.view.setModel(self.model)
        self.view.setFont(bengali_font())
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setWordWrap(False)
        self.view.verticalHeader().setDefaultSectionSize(26)
        # every column as wide as its header, the question takes the rest: all eight show in
        # the list's half of a 1366 px screen (fixed widths hid Gap, Confidence and Human)
        fit_columns_to_headers(self.view, stretch=2, at_least={0: 130, 1: 90})
        self.view.selectionModel().currentRowChanged.connect(self._on_current_changed)

        self.detail = AnswersDetail(self.rubric)
        self.detail.annotator.setText(annotator)
        self.detail.sig_override.connect(self.save_override)

        # two rows, so the panel (and the window) fits a 1366 px screen
        filters = QVBoxLayout()
        rows = (
            (
                (_("Judge"), self.judge),
                (_("Model"), self.model_filter),
                (_("Dialect"), self.dialect),
            ),
            (
                (_("Domain"), self.domain),
                (_("Type"), self.qtype),
                (_("Gap"), self.min_gap),
                (_("Confidence"), self.max_confidence),
            ),
        )
        for n, pairs in enumerate(rows):
            row = QHBoxLayout()
            for text, widget in pairs:
                row.addWidget(QLabel(text))
                row.addWidget(widget)
            if n == 1:
                row.addWidget(self.needs_review)
            row.addStretch(1)
            if n == 0:
                row.addWidget(self.count)
            filters.addLayout(row)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.view)
        splitter.addWidget(self.detail)
        splitter.setSizes([640, 640])  # the list's eight columns, the detail's four boxes
        layout = QVBoxLayout(self)
        layout.addLayout(filters)
        layout.addWidget(splitter, 1)

        self.watcher = watcher or WorkspaceWatcher(workspace.path, parent=self)
        self.watcher.sig_changed.connect(self.on_workspace_changed)
        self.refresh_options()

    # -- filtering -------------------------------------------------------------------------
    def current_filter(self) -> AnswerFilter:
        confidence = self.max_confidence.value()
        return AnswerFilter(
            judge_run=self.judge.currentData(),
            model_id=self.model_filter.currentData(),
            dialect=self.dialect.currentData(),
            domain=self.domain.currentData(),
            question_type=self.qtype.currentData(),
            min_gap=self.min_gap.value(),
            max_confidence=confidence or None,
            needs_review=self.needs_review.isChecked(),
            review_threshold=self.rubric.review_confidence_threshold,
            max_score=self.rubric.max_score,
        )

    def apply_filter(self) -> None:
        """A screenful of rows at once, then the whole list (it begins with them)."""
        self._partial = True
        path, flt = str(self.ws.path), self.current_filter()
        self.bridge.run(
            answer_id_array,
            args=(path, flt),
            kwargs={"limit": FETCH_BLOCK},
            label=_("Filter answers"),
            replace="answers-first",
            quiet=True,
            on_done=self._on_first_ids,
        )
        self.bridge.run(
            answer_id_array,
            args=(path, flt),
            label=_("Filter answers"),
            replace="answers-filter",
            quiet=True,
            on_done=self._on_ids,
        )

    def _on_first_ids(self, ids: Sequence[int]) -> None:
        if not self._partial:  # the whole list came first
            return
        self._reselect = self.current_answer()
        self.model.set_ids(ids, self.judge.currentData())
        if self._reselect is not None:
            self.select_answer(self._reselect)

    def _on_ids(self, ids: Sequence[int]) -> None:
        current = self.current_answer()
        if current is None:  # it was not among the first rows
            current = self._reselect
        self._partial, self._reselect = False, None
        if not self.model.complete_ids(ids):
            self.model.set_ids(ids, self.judge.currentData())
        self.count.setText(ngettext("{n} answer", "{n} answers", len(ids)).format(n=len(ids)))
        self.sig_filtered.emit(len(ids))
        if current is not None and not self.select_answer(current):
            self.detail.show_detail(None)
            self.sig_answer_selected.emit(0)
        if self._live_after_listing:
            self._live_after_listing = False
            self.on_answers_stored()

    def _fill_filters(self, options: dict) -> None:
        self._fill(
            self.judge,
            _("primary judge"),
            [
                (
                    _("{model} · run {run} · {role}").format(
                        model=j["model"] or "?",
                        run=j["run_id"],
                        role=label("judge_role", j["role"]),
                    ),
                    j["run_id"],
                )
                for j in options["judges"]
            ],
        )
        self._fill(
            self.model_filter, _("all models"), [(m["name"], m["id"]) for m in options["models"]]
        )
        self._fill(
            self.dialect,
            _("all dialects"),
            [(dialect_of(d, both=True, code=False), d["code"]) for d in options["dialects"]],
        )
        self._fill(
            self.domain, _("all domains"), [(label("domain", d), d) for d in options["domains"]]
        )
        self._fill(
            self.qtype,
            _("all types"),
            [(f"{digits(t)} {_(TYPE_NAMES.get(t, ''))}", t) for t in options["types"]],
        )

    @staticmethod
    def _fill(combo: QComboBox, any_label: str, items: list[tuple[str, object]]) -> None:
        current = combo.currentData()
        combo.blockSignals(True)
        combo.clear()
        combo.addItem(any_label, None)
        for text, value in items:
            combo.addItem(text, value)
        combo.setCurrentIndex(max(combo.findData(current), 0))
        combo.blockSignals(False)

    def refresh_options(self) -> None:
        """Judges, models or roles changed: filter again now, and offer them when read."""
        self.apply_filter()
        self.bridge.run(
            judge_tasks.filter_options_at,
            args=(str(self.ws.path),),
            label=_("Filter choices"),
            replace="answers-options",
            quiet=True,
            on_done=self._fill_filters,
        )

    # -- selection -------------------------------------------------------------------------
    def current_answer(self) -> int | None:
        index = self.view.currentIndex()
        return self.model.id_at(index.row()) if index.isValid() else None

    def current_judgment(self) -> int | None:
        """The chosen judge's judgment of the selected answer (``None``: none, or not judged)."""
        index = self.view.currentIndex()
        return self.model.judgment_at(index.row()) if index.isValid() else None

    def select_row(self, row: int) -> bool:
        self.model.ensure_loaded(row)
        if not 0 <= row < self.model.rowCount():
            return False
        self.view.selectionModel().setCurrentIndex(
            self.model.index(row, 0),
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.view.scrollTo(self.model.index(row, 0))
        return True

    def select_answer(self, answer_id: int) -> bool:
        row = self.model.index_of(answer_id)
        return row is not None and self.select_row(row)

    def select_judgment(self, judgment_id: int) -> bool:
        answer_id = answer_of_judgment(self.ws, judgment_id)
        return answer_id is not None and self.select_answer(answer_id)

    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        row = current.row() if current.isValid() else -1
        self._show(self.model.id_at(row))
        self.sig_answer_selected.emit(self.model.judgment_at(row) or 0)

    def _show(self, answer_id: int | None) -> None:
        self.detail.show_detail(
            answer_detail(self.ws, answer_id, self.model.judge_run) if answer_id else None
        )

    # -- overrides -------------------------------------------------------------------------
    def save_override(self, judgment_id: int, annotator: str, reason: str, scores: dict) -> bool:
        try:
            judging.add_override(
                self.ws,
                judgment_id,
                annotator=annotator,
                reason=reason,
                rubric=self.rubric,
                scores=scores,
            )
        except UserError as exc:
            self.sig_status_message.emit(for_gui(str(exc)))
            return False
        answer_id = self.current_answer()
        self.model.invalidate(answer_id)
        if self.current_judgment() == judgment_id:
            self._show(answer_id)
        self.sig_status_message.emit(_("Override saved; the judge's score is kept."))
        self.sig_changed.emit()
        return True

    # -- live updates (the workspace watcher's signals) -------------------------------------
    def on_workspace_changed(self, topics: frozenset[str]) -> None:
        if topics & {"runs", "models"}:  # a new model or judge, a role, a deleted run
            self.refresh_options()  # offered in the filters, and every row read again
        elif topics & {"responses", "judgments"}:
            verdicts = "judgments" in topics
            self.on_answers_stored(refilter=verdicts and judges_scores(self.current_filter()))
        elif "annotations" in topics:
            self.model.invalidate()  # visible rows re-read their effective score

    def on_answers_stored(self, refilter: bool = False) -> None:
        """A run stored answers or verdicts (while shown): the rows on screen read their
        verdicts again and new answers matching the filter are appended; ``refilter``: the
        filter asks about scores, so a new verdict may add any row — filter again."""
        if not self.isVisible():
            self._stale = True
            return
        self._stale = False
        self.model.invalidate()  # scores may have changed; only visible rows re-read
        if refilter:
            self.apply_filter()
            return
        if self._partial:  # looked for once the whole list is in
            self._live_after_listing = True
            return
        if self._live_pending:
            self._live_again = True
            return
        self._live_pending = True
        after = self.model.last_id
        self.bridge.run(
            answer_ids,
            args=(str(self.ws.path), self.current_filter(), after),
            label=_("New answers"),
            replace="answers-live",
            quiet=True,
            on_done=self._on_new_ids,
            on_error=self._on_live_error,
        )

    def _on_new_ids(self, ids: list[int]) -> None:
        self._live_pending = False
        self.model.append_ids(ids)  # only those above the last listed: a full filter may have won
        listed = len(self.model.ids)
        self.count.setText(ngettext("{n} answer", "{n} answers", listed).format(n=listed))
        if self._live_again:
            self._live_again = False
            self.on_answers_stored()

    def _on_live_error(self, exc: BaseException) -> None:
        self._live_pending = False
        self._live_again = False
        log.warning("live answers update failed: %s", exc)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._stale:
            self.on_answers_stored(refilter=judges_scores(self.current_filter()))


def main(argv: list[str] | None = None) -> int:
    def add_arguments(parser):
        parser.add_argument("--annotator", default="", help="your name for overrides")

    def build(workspace, bridge, args):
        panel = AnswersPanel(workspace, bridge, annotator=args.annotator)
        panel.sig_filtered.connect(lambda _n: panel.current_judgment() or panel.select_row(0))
        return panel

    return run_panel(
        "python -m widgets.judging.answers_panel",
        _("Answers"),
        build,
        sample="study",
        size=(1400, 800),
        add_arguments=add_arguments,
        argv=argv,
    )


if __name__ == "__main__":
    sys.exit(main())
