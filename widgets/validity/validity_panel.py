"""ValidityPanel: how far to trust a judge run, per dialect (engine.validity).

- Top left: the workspace's judge runs (model, role, judgments, whether their newest card
  passed); the chosen one is checked.
- Top right: items per dialect, seed and the four bands, each starting at
  :class:`~engine.validity.api.ValidityRequest`'s default (``upabhasha validity``'s). What the
  suite would decode (items per dialect, probes, those left) is read in the background
  whenever a choice changes, before anything runs; "Estimate time" decodes a sample as every
  model step's estimate does. "Run" builds the request and runs it through the bridge on the
  judge's lane (progress with ETA, Cancel; a stopped suite resumes); "Export as batch files…"
  writes the same request for an inference engine that takes files.
- Below: the newest card of every judge run (:mod:`widgets.validity.card_table`).

The panel re-reads its judge runs and cards at the workspace watcher's notice of a new card
or run (the CLI's, another window's, its own).

``python -m widgets.validity.validity_panel [WORKSPACE]`` opens the panel alone on the sample
study.
"""

from __future__ import annotations

import dataclasses
import logging
import sys

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.errors import UserError
from engine.i18n import N_, _, digits
from engine.validity import tasks as validity_tasks
from engine.validity.api import ValidityCard, ValidityRequest, ValidityResult
from engine.workspace.api import Workspace
from widgets.common.batch_files import BatchExportButton
from widgets.common.columns import fit_columns_to_headers
from widgets.common.dialect_names import dialect_name
from widgets.common.dialog_parts import in_a_row, show_status
from widgets.common.job_estimate import EstimateJob, JobEstimateBox
from widgets.common.job_progress import JobProgressRow
from widgets.common.number_boxes import DecimalBox, NumberBox
from widgets.common.standalone import run_panel
from widgets.common.task_bridge import TaskBridge, describe_error, model_lane
from widgets.common.workspace_watcher import WorkspaceWatcher, follow
from widgets.validity.card_table import CardTable

log = logging.getLogger(__name__)

DEFAULTS = ValidityRequest()  # every choice starts at the request's default (the CLI's)
OVERVIEW_KEY = "validity-overview"  # the panel's reads of runs and cards: the newest wins
SCOPE_KEY = "validity-scope"
SCOPE_DELAY_MS = 300  # typing a number plans once, when the typing pauses
# the bands, as the request names them, with the words of their rows
BANDS = (
    ("flip_max", N_("Most flips")),
    ("retest_min", N_("Least retest agreement")),
    ("invariance_min", N_("Least invariance")),
    ("discrimination_min", N_("Least discrimination")),
)


def _percent_box(share: float) -> DecimalBox:
    """A band, typed as a percentage (the request takes a share)."""
    box = DecimalBox()
    box.setRange(0.0, 100.0)
    box.setDecimals(1)
    box.setSingleStep(1.0)
    box.setSuffix(" %")
    box.setValue(100 * share)
    return box


class ValidityPanel(QWidget):
    sig_status_message = Signal(str)
    sig_checked = Signal(object)  # a finished suite's ValidityResult

    def __init__(
        self,
        workspace: Workspace,
        bridge: TaskBridge,
        *,
        watcher: WorkspaceWatcher | None = None,
        parent: QWidget | None = None,
    ):
        """``watcher``: the window's workspace watcher (a panel alone makes its own)."""
        super().__init__(parent)
        self.ws, self.bridge = workspace, bridge
        self.runs: list[validity_tasks.JudgeRunRow] = []
        self.cards: list[ValidityCard] = []
        self.chosen: int | None = None  # the judge run checked (kept across re-reads)
        # judge runs judged with a rubric saved beside the workspace: the rubric they send
        self.rubrics: dict[int, dict] = {}

        self.judges = QTableWidget(0, 5)
        self.judges.setHorizontalHeaderLabels(
            [_("Run"), _("Judge model"), _("Role"), _("Judgments"), _("Newest card")]
        )
        self.judges.verticalHeader().setVisible(False)
        self.judges.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.judges.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.judges.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        fit_columns_to_headers(self.judges, stretch=1)
        self.judges.itemSelectionChanged.connect(self._on_judge_chosen)
        judges_box = QGroupBox(_("Judge runs"))
        QVBoxLayout(judges_box).addWidget(self.judges)

        self.per_dialect = NumberBox()
        self.per_dialect.setRange(1, 100_000)
        self.per_dialect.setValue(DEFAULTS.per_dialect)
        self.per_dialect.setToolTip(_("Judged answers drawn from each dialect (seeded)"))
        self.seed = NumberBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setValue(DEFAULTS.seed)
        self.bands = {name: _percent_box(getattr(DEFAULTS, name)) for name, _words in BANDS}
        self.run_button = QPushButton(_("&Run"))
        self.run_button.clicked.connect(self.run)
        self.export_button = BatchExportButton(workspace, bridge, self.job_request)
        self.job = JobProgressRow()  # the suite's progress, ETA and Cancel
        bridge.sig_task_finished.connect(self._on_task_finished)
        self.scope = QLabel()  # what a run would decode, planned at every change
        self.scope.setWordWrap(True)
        self.outcome = QLabel()  # how the last run from this panel ended
        self.outcome.setWordWrap(True)
        self.estimate = JobEstimateBox(bridge, self.estimate_jobs)
        settings_box = QGroupBox(_("Check the chosen judge run"))
        form = QFormLayout(settings_box)
        form.addRow(
            _("Items per dialect"), in_a_row(self.per_dialect, QLabel(_("Seed")), self.seed)
        )
        first, second = BANDS[:2], BANDS[2:]
        for pair in (first, second):
            (a, a_words), (b, b_words) = pair
            form.addRow(_(a_words), in_a_row(self.bands[a], QLabel(_(b_words)), self.bands[b]))
        form.addRow(self.scope)
        form.addRow(in_a_row(self.run_button, self.export_button))
        form.addRow(self.job)
        form.addRow(self.outcome)
        form.addRow(self.estimate)
        for whole in (self.per_dialect, self.seed):
            whole.valueChanged.connect(self.choices_changed)
        for band in self.bands.values():
            band.valueChanged.connect(self.choices_changed)

        self.card = CardTable()
        card_box = QGroupBox(_("Validity cards: each judge's newest, per dialect and check"))
        QVBoxLayout(card_box).addWidget(self.card)
        top = QHBoxLayout()
        top.addWidget(judges_box, 1)
        top.addWidget(settings_box, 1)
        upper = QWidget()
        upper.setLayout(top)
        top.setContentsMargins(0, 0, 0, 0)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(upper)
        splitter.addWidget(card_box)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([220, 480])  # the card gets the room; the runs list scrolls
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)

        self._scope_timer = QTimer(self)
        self._scope_timer.setSingleShot(True)
        self._scope_timer.setInterval(SCOPE_DELAY_MS)
        self._scope_timer.timeout.connect(self.plan_scope)
        self._update_buttons()  # until the judge runs are read
        self.refresh()
        # a new card or judge run (this panel's, the CLI's, another window's)
        self.watcher = watcher or WorkspaceWatcher(workspace.path, parent=self)
        follow(self, self.refresh, self.watcher, "validity_cards", "runs", "models")

    # -- judge runs and cards ----------------------------------------------------------------
    def refresh(self) -> None:
        """Re-read the judge runs and the newest cards in the pool."""
        self.bridge.run(
            validity_tasks.validity_overview_at,
            args=(str(self.ws.path),),
            label=_("Judge validity"),
            replace=OVERVIEW_KEY,
            quiet=True,
            on_done=self.show_overview,
            on_error=lambda exc: log.warning("validity overview failed: %s", exc),
        )

    def dialect_names(self) -> dict[str, str]:
        names = self.ws.dialect_names()
        return {code: dialect_name(names, code) for code in names}

    def show_overview(self, overview: validity_tasks.ValidityOverview) -> None:
        chosen = self.chosen
        self.runs = list(overview["judge_runs"])
        self.cards = list(overview["cards"])
        self.rubrics = dict(overview["rubrics"])
        newest = {card.judge_run_id: card for card in self.cards}
        self.judges.blockSignals(True)
        self.judges.setRowCount(len(self.runs))
        for row, run in enumerate(self.runs):
            card = newest.get(run["run_id"])
            verdict = (
                "—"
                if card is None
                else (_("within its bands") if card.passed else _("outside a band"))
            )
            role = {"primary": _("primary"), "secondary": _("secondary")}.get(run["role"], "")
            values = (digits(run["run_id"]), run["model"] or "?", role, digits(run["judgments"]))
            for col, text in enumerate((*values, verdict)):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, run["run_id"])
                self.judges.setItem(row, col, item)
        ids = [run["run_id"] for run in self.runs]
        if chosen not in ids:  # the primary judge first
            chosen = overview["primary"] if overview["primary"] in ids else next(iter(ids), None)
        self.chosen = chosen
        if chosen is not None:
            self.judges.selectRow(ids.index(chosen))
        self.judges.blockSignals(False)
        self.judges.resizeColumnsToContents()
        fit_columns_to_headers(self.judges, stretch=1, grow_only=True)
        self.card.show_cards(self.cards)
        self._update_buttons()
        self.choices_changed()

    def _on_judge_chosen(self) -> None:
        rows = {i.row() for i in self.judges.selectedItems()}
        item = self.judges.item(min(rows), 0) if len(rows) == 1 else None
        if item is not None:
            self.chosen = item.data(Qt.ItemDataRole.UserRole)
            self.choices_changed()

    def judge_run(self) -> int | None:
        """The judge run the request checks (the primary one until another is chosen)."""
        return self.chosen

    def judge_model_id(self) -> int | None:
        run_id = self.judge_run()
        return next((r["model_id"] for r in self.runs if r["run_id"] == run_id), None)

    # -- the request -------------------------------------------------------------------------
    def job_request(self) -> ValidityRequest | str:
        """The request 'Run' runs (``upabhasha validity``'s), or what to change first."""
        run_id = self.judge_run()
        if run_id is None:
            return _("Choose a judge run first: judge the answers in the Judge panel.")
        try:
            request = ValidityRequest(
                judge_run=run_id,
                per_dialect=self.per_dialect.value(),
                seed=self.seed.value(),
                flip_max=self.share("flip_max"),
                retest_min=self.share("retest_min"),
                invariance_min=self.share("invariance_min"),
                discrimination_min=self.share("discrimination_min"),
            )
            if run_id in self.rubrics:  # the judge run's own rubric, not the bundled default
                request = dataclasses.replace(request, rubric=self.rubrics[run_id])
            return request
        except UserError as exc:
            return describe_error(exc, one_line=True)

    def share(self, band: str) -> float:
        """A band's percentage as the share the request takes."""
        return round(self.bands[band].value() / 100, 4)

    def choices_changed(self, *_args) -> None:
        """A choice changed: the estimate shown is withdrawn, the scope planned again."""
        self.estimate.mark_stale()
        self._scope_timer.start()

    def plan_scope(self) -> None:
        request = self.job_request()
        if isinstance(request, str):
            show_status(self.scope, request)
            return
        self.bridge.run(
            validity_tasks.plan_validity_at,
            args=(str(self.ws.path), request),
            label=_("Judge validity"),
            replace=SCOPE_KEY,
            quiet=True,
            on_done=self.show_scope,
            on_error=lambda exc: show_status(
                self.scope, describe_error(exc, one_line=True), error=True
            ),
        )

    def show_scope(self, scope: validity_tasks.ValidityScope) -> None:
        names = self.dialect_names()
        per = ", ".join(
            f"{names.get(code, code)} {digits(n)}" for code, n in sorted(scope["items"].items())
        )
        show_status(
            self.scope,
            _(
                "{items} items ({per}) · {probes} changed prompts for {model}, "
                "{left} not decoded yet"
            ).format(
                items=digits(sum(scope["items"].values())),
                per=per,
                probes=digits(scope["probes"]),
                model=scope["model"],
                left=digits(scope["left"]),
            ),
        )

    def estimate_jobs(self) -> list[EstimateJob] | str:
        """The time estimate of 'Run' with the current choices (the judge's model)."""
        request = self.job_request()
        if isinstance(request, str):
            return request
        model_id = self.judge_model_id()
        name = next((r["model"] for r in self.runs if r["run_id"] == request.judge_run), "")
        if model_id is None:
            return _("The judge run's model was removed: it cannot be asked again.")
        return [
            EstimateJob(
                model_id,
                name or "?",
                validity_tasks.estimate_validity_at,
                (str(self.ws.path), request),
            )
        ]

    # -- running -----------------------------------------------------------------------------
    def _update_buttons(self) -> None:
        running = self.job.task is not None  # one suite at a time from this panel
        self.run_button.setEnabled(bool(self.runs) and not running)
        self.run_button.setToolTip(
            "" if self.runs else _("No judge runs yet: judge the answers first.")
        )

    def run(self) -> None:
        request = self.job_request()
        model_id = self.judge_model_id()
        if isinstance(request, str) or model_id is None:
            message = (
                request
                if isinstance(request, str)
                else _("The judge run's model was removed: it cannot be asked again.")
            )
            show_status(self.outcome, message, error=True)
            self.sig_status_message.emit(message)
            return
        self.run_button.setEnabled(False)
        task = self.bridge.run(
            validity_tasks.run_validity_at,
            args=(str(self.ws.path), request),
            label=_("Judge validity of run {run}").format(run=digits(request.judge_run)),
            lane=model_lane(model_id),
            supersedes=OVERVIEW_KEY,
            on_done=self._on_checked,
            on_progress=self.job.show_progress,
        )
        self.job.follow(task)
        if not task.running:  # a bridge that ran it at once (it finished before it was followed)
            self.job.finish()
            self._update_buttons()

    def cancel(self) -> None:
        self.job.cancel()

    def _on_task_finished(self, task) -> None:
        """The suite ended, however (a failure is shown by the bridge): Run again."""
        if task is self.job.task:
            self.job.finish()
            self._update_buttons()

    def _on_checked(self, result: ValidityResult) -> None:
        cancelled = any(s.get("cancelled") for s in result.runs)
        if result.card is not None:
            message = _("Judge run {run} checked: {verdict}").format(
                run=digits(result.card.judge_run_id),
                verdict=_("within its bands")
                if result.card.passed
                else _("outside a band (see the card)"),
            )
        elif cancelled:
            message = _("Validity check cancelled: run it again to resume.")
        else:
            message = _("Validity check incomplete: some prompts were not decoded; run it again.")
        self.sig_status_message.emit(message)
        show_status(self.outcome, message)
        self.sig_checked.emit(result)
        self.refresh()  # the card through the stage's one query, as every reader reads it


def main(argv: list[str] | None = None) -> int:
    return run_panel(
        "python -m widgets.validity.validity_panel",
        _("Judge validity"),
        lambda workspace, bridge, args: ValidityPanel(workspace, bridge),
        sample="study",
        size=(1280, 760),
        argv=argv,
    )


if __name__ == "__main__":
    sys.exit(main())
