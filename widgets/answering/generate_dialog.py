"""GenerateDialog: every chosen model answers the standard question and each dialect variant.

Fills one :class:`GenerateRequest` per model (the request ``upabhasha generate`` builds) and
runs it with :func:`engine.answering.tasks.generate_answers_at` through the bridge, one task
per model on that model's lane, so a model is
never loaded twice at once. Gold variants by default; drafts or reviewed ones on request.
The job monitor shows progress, ETA and cancel; ``sig_finished`` carries each model's
summary (the main window refreshes the answers, judge and charts panels).

``python -m widgets.answering.generate_dialog [WORKSPACE]`` opens the dialog alone.
"""

from __future__ import annotations

import dataclasses
import logging
import sys
from functools import partial

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QListWidgetItem,
    QMessageBox,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.answering import tasks as answering_tasks
from engine.answering.api import GenerateRequest, GenerateResult, answer_scope
from engine.errors import UserError
from engine.i18n import _
from engine.workspace.api import Workspace, study_choices
from widgets.common.batch_files import BatchExportButton
from widgets.common.dialog_parts import (
    checkable_item,
    checkable_list,
    checked_data,
    show_status,
)
from widgets.common.hints import load_failure
from widgets.common.item_limit import ItemLimitBox, ask_before_large_job, is_large, scope_text
from widgets.common.job_estimate import (
    EstimateJob,
    JobEstimateBox,
    about_duration,
    estimate_and_actual,
)
from widgets.common.labels import dialect_of, label
from widgets.common.standalone import run_panel
from widgets.common.task_bridge import Task, TaskBridge, describe_error, model_lane

log = logging.getLogger(__name__)

OFFERED_STATUSES = ("gold", "reviewed", "draft")
DEFAULTS = GenerateRequest()


class GenerateDialog(QDialog):
    sig_started = Signal(object)  # Task
    sig_finished = Signal(dict)  # one model's run summary

    def __init__(self, workspace: Workspace, bridge: TaskBridge, *, parent: QWidget | None = None):
        super().__init__(parent)
        self.ws = workspace
        self.bridge = bridge
        self.tasks: dict[int, Task] = {}
        self.summaries: dict[str, dict] = {}
        self.setWindowTitle(_("Generate answers"))
        self.setMinimumWidth(520)
        choices = study_choices(workspace)
        counts = choices["variant_counts"]
        self.model_names = {m["id"]: m["name"] for m in choices["models"]}

        self.models = checkable_list([])
        for m in choices["models"]:
            self.models.addItem(self._model_item(m, bool(m["is_default"])))
        self.models.setMaximumHeight(120)
        self.statuses = checkable_list(
            [
                (
                    _("{status} ({n} dialect variants)").format(
                        status=label("status", s), n=counts.get(s, 0)
                    ),
                    s,
                    s in self.first_statuses(counts),
                )
                for s in OFFERED_STATUSES
            ]
        )
        self.statuses.setMaximumHeight(80)
        self.statuses_note = QLabel()
        self.statuses_note.setWordWrap(True)
        self.statuses_note.setStyleSheet("color: #8a5a00")
        fell_back = self.first_statuses(counts) != DEFAULTS.statuses
        self.statuses_note.setVisible(fell_back)
        if fell_back:
            self.statuses_note.setText(
                _(
                    "No {default} dialect variants yet: {chosen} ticked instead, so the first "
                    "run answers something. Untick it to wait for adjudicated variants."
                ).format(
                    default=", ".join(label("status", s) for s in DEFAULTS.statuses),
                    chosen=", ".join(label("status", s) for s in self.first_statuses(counts)),
                )
            )
        self.dialects = checkable_list(
            [(dialect_of(d, both=True), d["code"], False) for d in choices["dialects"]]
        )
        self.dialects.setMaximumHeight(130)
        self.question_set = QComboBox()
        self.question_set.addItem(_("every question set"), None)
        for s in choices["question_sets"]:
            self.question_set.addItem(s["name"], s["name"])
        self.max_tokens = QSpinBox()
        self.max_tokens.setRange(8, 8192)
        self.max_tokens.setValue(DEFAULTS.max_tokens)
        self.max_tokens.setSuffix(_(" tokens"))
        self.limit = ItemLimitBox(_("every question"), _(" questions"))
        self.scope = QLabel()
        self.confirmation: QMessageBox | None = None
        form = QFormLayout()
        form.addRow(_("Models"), self.models)
        form.addRow(_("Variant statuses"), self.statuses)
        form.addRow("", self.statuses_note)
        form.addRow(_("Only dialects\n(none ticked: all)"), self.dialects)
        form.addRow(_("Question set"), self.question_set)
        form.addRow(_("Only the first"), self.limit)
        form.addRow(_("Longest answer"), self.max_tokens)
        form.addRow(_("Scope"), self.scope)
        note = QLabel(
            _(
                "Each model answers the standard question and each chosen dialect "
                "variant, in standard Bengali. Runs resume where they stopped; "
                "editing a prompt or a setting makes a new run."
            )
        )
        note.setWordWrap(True)
        self.estimate = JobEstimateBox(bridge, self.estimate_jobs)
        for changed in (
            self.models.itemChanged,
            self.statuses.itemChanged,
            self.dialects.itemChanged,
            self.question_set.currentIndexChanged,
            self.max_tokens.valueChanged,
            self.limit.valueChanged,
        ):
            changed.connect(self.estimate.mark_stale)
            changed.connect(self._show_scope)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.buttons = QDialogButtonBox()
        self.start_button = self.buttons.addButton(
            _("Generate"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.batch_button = BatchExportButton(workspace, bridge, self.batch_request)
        self.buttons.addButton(self.batch_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.start_button.clicked.connect(self.start)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(self.estimate)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        self._show_scope()
        if not choices["models"]:
            self._offer_models([])

    def refresh_models(self) -> None:
        """A model was added or removed elsewhere (the Models panel, the CLI): the list
        follows at once, the ticks kept."""
        models = study_choices(self.ws)["models"]
        ticked = set(checked_data(self.models))
        known = set(self.model_names)
        self.models.blockSignals(True)  # one estimate and scope update below, not one a model
        self.models.clear()
        for m in models:
            tick = m["id"] in ticked or (m["id"] not in known and bool(m["is_default"]))
            self.models.addItem(self._model_item(m, tick))
        self.models.blockSignals(False)
        self.model_names = {m["id"]: m["name"] for m in models}
        self.estimate.mark_stale()
        self._show_scope()
        if not known or not models:
            self._offer_models(models)

    @staticmethod
    def _model_item(m: dict, ticked: bool) -> QListWidgetItem:
        return checkable_item(f"{m['name']} · {label('model_kind', m['kind'])}", m["id"], ticked)

    def _offer_models(self, models: list[dict]) -> None:
        if self.tasks:
            return
        self.start_button.setEnabled(bool(models))
        self._show("" if models else _("Add a model first (Models panel)."), error=not models)

    @staticmethod
    def first_statuses(counts: dict[str, int]) -> tuple[str, ...]:
        """The statuses ticked when the dialog opens: ``generate``'s default where it has
        dialect variants, else the first offered status that has some (a first run that
        answers nothing helps no one), else the default."""
        if any(counts.get(s) for s in DEFAULTS.statuses):
            return DEFAULTS.statuses
        having = [s for s in OFFERED_STATUSES if counts.get(s)]
        return (having[0],) if having else DEFAULTS.statuses

    def scope_counts(self) -> tuple[int, int, int]:
        """(answers, questions, dialects) per model that a start would run."""
        return answer_scope(
            self.ws,
            checked_data(self.statuses),
            checked_data(self.dialects) or None,
            self.question_set.currentData(),
            self.limit.value() or None,
        )

    def _show_scope(self, *_changed) -> None:
        self.scope.setText(scope_text(*self.scope_counts(), unit=_("answers")))

    def job_requests(self) -> dict[int, GenerateRequest] | str:
        """One request per chosen model, or what to tick or change first."""
        model_ids = checked_data(self.models)
        statuses = checked_data(self.statuses)
        if not model_ids or not statuses:
            return _("Tick at least one model and one status.")
        try:
            return {
                m: GenerateRequest(
                    models=(self.model_names[m],),
                    statuses=tuple(statuses),
                    dialects=tuple(checked_data(self.dialects)),
                    question_set=self.question_set.currentData(),
                    limit=self.limit.value() or None,
                    max_tokens=self.max_tokens.value(),
                )
                for m in model_ids
            }
        except UserError as exc:
            return describe_error(exc, one_line=True)

    def batch_request(self) -> GenerateRequest | str:
        """What Generate would run, as one request of every chosen model (one batch)."""
        requests = self.job_requests()
        if isinstance(requests, str):
            return requests
        first = next(iter(requests.values()))
        return dataclasses.replace(first, models=tuple(r.models[0] for r in requests.values()))

    def estimate_jobs(self) -> list[EstimateJob] | str:
        requests = self.job_requests()
        if isinstance(requests, str):
            return requests
        return [
            EstimateJob(
                m,
                self.model_names[m],
                answering_tasks.estimate_answers_at,
                (str(self.ws.path), request),
            )
            for m, request in requests.items()
        ]

    def start(self) -> list[Task]:
        """Start one job per model, or ask first when they are large (they start on Yes)."""
        requests = self.job_requests()
        if isinstance(requests, str):
            self._show(requests, error=True)
            return []
        counts = self.scope_counts()
        seconds = self.estimate.shown_seconds()
        if is_large(counts[0] * len(requests), seconds):
            scope = self.scope.text()
            if seconds is not None:
                scope = _("{scope}, about {duration}").format(
                    scope=scope, duration=about_duration(seconds)
                )
            self.confirmation = ask_before_large_job(self, scope, self.start_now)
            return []
        return self.start_now()

    def start_now(self) -> list[Task]:
        self.confirmation = None
        requests = self.job_requests()
        if isinstance(requests, str):
            self._show(requests, error=True)
            return []
        started = []
        for model_id, request in requests.items():
            if model_id in self.tasks:
                continue  # still running: a second copy would only wait for it
            name = self.model_names[model_id]
            task = self.bridge.run(
                answering_tasks.generate_answers_at,
                args=(str(self.ws.path), request),
                lane=model_lane(model_id),
                label=_("Answers of {model}").format(model=name),
                on_done=partial(self._done, model_id, name),
                on_error=partial(self._failed, model_id, name),
                on_cancelled=partial(self._cancelled, model_id, name),
            )
            if task.running:
                self.tasks[model_id] = task
                self.sig_started.emit(task)
            started.append(task)
        if self.tasks:
            self._show(
                _(
                    "Running: progress, ETA and cancel are in the Jobs panel. You may "
                    "close this dialog."
                )
            )
        return started

    def _done(self, model_id: int, name: str, result: GenerateResult) -> None:
        self.tasks.pop(model_id, None)
        if not result.runs:  # cancelled before the model's run opened
            self._cancelled(model_id, name)
            return
        summary = dict(result.runs[0])
        self.summaries[name] = summary
        self._show_summaries()
        self.sig_finished.emit(summary)

    def _failed(self, model_id: int, name: str, exc: BaseException) -> None:
        self.tasks.pop(model_id, None)
        self.summaries[name] = {"error": describe_error(exc, one_line=True)}
        self._show_summaries()

    def _cancelled(self, model_id: int, name: str) -> None:
        self.tasks.pop(model_id, None)
        self.summaries[name] = {"error": _("Cancelled: run again to resume.")}
        self._show_summaries()

    def _show_summaries(self) -> None:
        lines, failed = [], False
        for name, s in self.summaries.items():
            # a model that did not load is reported in its summary, not raised: not "done"
            error = s.get("error") or load_failure([s], "{error}")
            if error:
                failed = True
                lines.append(_("{model}: failed: {error}").format(model=name, error=error))
                continue
            state = "" if s["complete"] else _(" — incomplete, run again to resume")
            timing = estimate_and_actual(s)
            state += f" · {timing}" if timing else ""
            lines.append(
                _(
                    "{model}: run {run_id}, {done}/{items} answers ({done_now} new, "
                    "{cached} from cache, {errors} errors){state}"
                ).format(
                    model=name,
                    run_id=s["run_id"],
                    done=s["done_before"] + s["done_now"],
                    items=s["items"],
                    done_now=s["done_now"],
                    cached=s["cached"],
                    errors=s["errors"],
                    state=state,
                )
            )
        self._show("\n".join(lines), error=failed)

    def _show(self, text: str, *, error: bool = False) -> None:
        show_status(self.status, text, error=error)


def main(argv: list[str] | None = None) -> int:
    return run_panel(
        "widgets.answering.generate_dialog",
        "GenerateDialog",
        lambda workspace, bridge, args: GenerateDialog(workspace, bridge),
        size=(560, 600),
        argv=argv,
    )


if __name__ == "__main__":
    sys.exit(main())
