"""The Social bias panel's Run probes row: its controls, the request they make and the run.

The row builds a :class:`ProbeRequest`, the request ``upabhasha probe`` builds: its controls
start at the request's defaults, and what the row has no control for (the seed, the longest
reply, the instruction, the batch schedule) keeps them, so the panel and the CLI ask the same
probes the same way. The run goes through the bridge on the model's lane
(:func:`engine.bias.tasks.run_probes_with_view_at`); a request the engine refuses is shown in
the window's words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QPushButton

from engine.bias import tasks as bias_tasks
from engine.bias.api import ProbeRequest
from engine.errors import UserError
from engine.i18n import _
from engine.workspace.api import Workspace
from widgets.bias.rule_box import RuleBox
from widgets.common.batch_files import BatchExportButton
from widgets.common.item_limit import ItemLimitBox
from widgets.common.job_estimate import EstimateJob, JobEstimateBox
from widgets.common.job_progress import JobProgressRow
from widgets.common.task_bridge import TaskBridge, describe_error, model_lane

VIEW_KEY = "bias-view"  # the panel's reads of its view: the newest one wins
DEFAULTS = ProbeRequest()  # the probe step's defaults, the CLI's too


class ProbeRunning:
    """The probing part of :class:`widgets.bias.bias_panel.BiasPanel` (a mixin of it): the
    panel provides the attributes declared here."""

    ws: Workspace
    bridge: TaskBridge
    rule: RuleBox  # the statistics of the view the run reads when it ends
    sig_status_message: Any  # the panel's Signal(str)
    _on_probed: Callable[[dict], None]  # the run's summaries and the view read after it

    def _probe_row(self, bridge: TaskBridge) -> QHBoxLayout:
        """The row's controls (the models and sets arrive with the panel's view), its
        progress row ``job`` and its time estimate ``estimate``."""
        self.model = QComboBox()
        # room for a model's name ("gemma-3…" said nothing), bounded: a long name must not
        # push the run row past a 1366-pixel screen
        fitted = QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        self.model.setSizeAdjustPolicy(fitted)
        self.model.setMinimumContentsLength(30)
        self.probe_set = QComboBox()
        self.probe_set.setSizeAdjustPolicy(fitted)
        self.probe_set.setMinimumContentsLength(16)
        self.limit = ItemLimitBox(_("all probes"))  # a small first run, as every job dialog
        self.counterbalance = QCheckBox(_("both option orders"))
        self.counterbalance.setChecked(DEFAULTS.counterbalance)
        self.constrained = QCheckBox(_("constrained to the options"))
        self.constrained.setChecked(DEFAULTS.constrained)
        self.run_button = QPushButton(_("Run probes"))
        self.run_button.clicked.connect(self.run_probes)
        self.batch_button = BatchExportButton(self.ws, bridge, self.batch_request)
        run_row = QHBoxLayout()
        for w in (
            QLabel(_("Model")),
            self.model,
            QLabel(_("Set")),
            self.probe_set,
            QLabel(_("Limit")),
            self.limit,
            self.counterbalance,
            self.constrained,
            self.run_button,
            self.batch_button,
        ):
            run_row.addWidget(w)
        run_row.addStretch(1)
        self.job = JobProgressRow()  # the probe job's progress, ETA and Cancel
        self.estimate = JobEstimateBox(bridge, self.estimate_jobs)
        for changed in (
            self.model.currentIndexChanged,
            self.probe_set.currentIndexChanged,
            self.limit.valueChanged,
            self.counterbalance.toggled,
            self.constrained.toggled,
        ):
            changed.connect(self.estimate.mark_stale)
        return run_row

    def batch_request(self) -> ProbeRequest | str:
        """What 'Run probes' would run, for Export as batch files…"""
        chosen = self.probe_request()
        return chosen if isinstance(chosen, str) else chosen[1]

    def probe_request(self) -> tuple[int, ProbeRequest] | str:
        """The model and the request of 'Run probes' as chosen, or what to change first."""
        model_id = self.model.currentData()
        if model_id is None:
            return _("Add a model first.")
        probe_set = self.probe_set.currentData()
        try:
            return model_id, ProbeRequest(
                models=(self.model.currentText(),),
                sets=(probe_set,) if probe_set else (),
                limit=self.limit.value() or None,
                counterbalance=self.counterbalance.isChecked(),
                constrained=self.constrained.isChecked(),
            )
        except UserError as exc:
            return describe_error(exc, one_line=True)

    def estimate_jobs(self) -> list[EstimateJob] | str:
        """The time estimate of 'Run probes' with the current choices."""
        chosen = self.probe_request()
        if isinstance(chosen, str):
            return chosen
        model_id, request = chosen
        name = self.model.currentText()
        args = (str(self.ws.path), request)
        return [EstimateJob(model_id, name, bias_tasks.estimate_probes_at, args)]

    def run_probes(self) -> None:
        chosen = self.probe_request()
        if isinstance(chosen, str):
            self.sig_status_message.emit(chosen)
            return
        model_id, request = chosen
        self.run_button.setEnabled(False)
        task = self.bridge.run(
            bias_tasks.run_probes_with_view_at,
            args=(str(self.ws.path), request),
            kwargs={"settings": self.rule.settings()},
            label=_("Probe {model}").format(model=self.model.currentText()),
            lane=model_lane(model_id),
            supersedes=VIEW_KEY,  # it returns the view read after its last write
            on_done=self._on_probed,
            on_error=self._on_probe_error,
            on_progress=self.job.show_progress,
            on_cancelled=self._on_probe_cancelled,
        )
        self.job.follow(task)

    def _on_probe_error(self, exc: BaseException) -> None:
        # a refused request names a setting or a step: said in the window's words
        self._probe_stopped(describe_error(exc, one_line=True))

    def _on_probe_cancelled(self) -> None:
        self._probe_stopped(_("cancelled"))

    def _probe_stopped(self, why: str) -> None:
        self.run_button.setEnabled(True)
        self.job.finish()
        self.sig_status_message.emit(_("Probing failed: {error}").format(error=why))
