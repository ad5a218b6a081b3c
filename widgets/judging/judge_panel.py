"""JudgePanel: configure the judge before a full run.

- Judges: the workspace's judge runs (local GGUF or endpoint), one primary (a label in the
  run card; changing it never re-judges), with self-preference warnings.
- Rubric editor (:mod:`widgets.judging.rubric_editor`), validated on every change and versioned by
  content hash: "Save version" writes ``rubrics/<name>@<hash>.json`` beside the workspace.
- Live prompt preview on a real answer pair of the workspace: exactly the system and user
  text the judge receives (:func:`engine.judging.prompt.build_judge_prompt`); only the
  random fence marker differs per call.
- Calibration: the chosen model judges the human-scored items through the bridge (on the
  model's lane) and the panel shows CCC, MAE and the confusion table
  (:mod:`widgets.judging.calibration_view`); "Run judge" scores every answer pair with the
  same settings, its progress, ETA and Cancel below it (one run at a time from the panel).
  Both build the request ``upabhasha judge`` / ``calibrate`` build (the chosen model's name,
  the edited rubric as data) and run it through :mod:`engine.judging.tasks`.

What the panel shows of the workspace — judge runs with their counts, self-preference
warnings, the preview's answer pairs, the human-scored count — is read in one background
task (:func:`engine.judging.tasks.judge_overview_at`): each of those reads grows with the
study (seconds at ten times the paper's), so the GUI thread never waits for them.

``python -m widgets.judging.judge_panel [WORKSPACE]`` opens the panel alone on the sample study.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Mapping
from typing import Any, TypeVar

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.errors import UserError
from engine.i18n import _, digits
from engine.judging import api as judging
from engine.judging import tasks as judge_tasks
from engine.judging.api import (
    CalibrateRequest,
    JudgeRequest,
    Rubric,
    build_judge_prompt,
    default_rubric_path,
)
from engine.workspace.api import Workspace
from widgets.common.columns import fit_columns_to_headers
from widgets.common.fonts import bengali_font
from widgets.common.hints import for_gui
from widgets.common.job_estimate import EstimateJob, JobEstimateBox
from widgets.common.job_progress import JobProgressRow
from widgets.common.labels import dialect_of
from widgets.common.standalone import run_panel
from widgets.common.task_bridge import TaskBridge, describe_error, model_lane
from widgets.judging.calibration_view import CalibrationView
from widgets.judging.rubric_editor import RubricEditor
from widgets.judging.rubric_files import RubricFiles

log = logging.getLogger(__name__)

PREVIEW_DELAY_MS = 250
OVERVIEW_KEY = "judge-overview"  # the panel's reads of its overview: the newest one wins
# the panel has no control for the template, the answers judged or the schedule: its runs take
# the step's defaults, as ``upabhasha judge`` without those options
DEFAULTS = JudgeRequest()
# the requests the panel builds from its judge and rubric
Judged = TypeVar("Judged", JudgeRequest, CalibrateRequest)


class JudgePanel(RubricFiles, QWidget):
    sig_status_message = Signal(str)
    sig_changed = Signal()  # primary judge changed or a judge run finished
    sig_calibrated = Signal(dict)
    sig_judged = Signal(object)  # a finished judge run's JudgeResult
    sig_preview_updated = Signal(str)  # the full prompt text shown

    def __init__(self, workspace: Workspace, bridge: TaskBridge, *, parent: QWidget | None = None):
        super().__init__(parent)
        self.ws = workspace
        self.bridge = bridge
        self.template = DEFAULTS.judge_template  # the one the panel's runs send
        self.model_names: dict[int, str] = {}
        self.rubric_folder = workspace.path.with_name("rubrics")
        self.pairs: list[dict] = []  # the preview's answer pairs (judge_overview_at)
        self.human_scored = 0
        self.has_answers = False  # any answer pair to judge (judge_overview_at)

        # judges
        self.judges = QTableWidget(0, 4)
        self.judges.setHorizontalHeaderLabels(
            [_("Run"), _("Judge model"), _("Role"), _("Judgments")]
        )
        self.judges.verticalHeader().setVisible(False)
        self.judges.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.judges.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.judges.horizontalHeader().setStretchLastSection(True)
        self.primary_button = QPushButton(_("Make primary"))
        self.primary_button.clicked.connect(self.make_selected_primary)
        self.warnings = QLabel()
        self.warnings.setWordWrap(True)
        self.warnings.setStyleSheet("color: #b35900")
        judges_box = QGroupBox(_("Judges"))
        judges_layout = QVBoxLayout(judges_box)
        judges_layout.addWidget(self.judges)
        judges_layout.addWidget(self.primary_button, 0, Qt.AlignmentFlag.AlignRight)
        judges_layout.addWidget(self.warnings)

        # calibration and runs
        self.judge_model = QComboBox()
        self.human_count = QLabel()
        self.calibrate_button = QPushButton(_("Calibrate on human-scored items"))
        self.calibrate_button.clicked.connect(self.calibrate)
        self.run_button = QPushButton(_("Run judge on all answers"))
        self.run_button.clicked.connect(self.run_judge_at)
        self.calibration = CalibrationView()
        self.figures, self.confusion = self.calibration.figures, self.calibration.confusion
        calib_box = QGroupBox(_("Calibration (before a full run)"))
        calib_layout = QVBoxLayout(calib_box)
        row = QHBoxLayout()
        row.addWidget(QLabel(_("Judge model")))
        row.addWidget(self.judge_model, 1)
        calib_layout.addLayout(row)
        calib_layout.addWidget(self.human_count)
        buttons = QHBoxLayout()
        buttons.addWidget(self.calibrate_button)
        buttons.addWidget(self.run_button)
        calib_layout.addLayout(buttons)
        self.job = JobProgressRow()  # the judge run's progress, ETA and Cancel
        bridge.sig_task_finished.connect(self._on_task_finished)
        calib_layout.addWidget(self.job)
        self.estimate = JobEstimateBox(bridge, self.estimate_jobs)
        self.judge_model.currentIndexChanged.connect(self.estimate.mark_stale)
        calib_layout.addWidget(self.estimate)
        calib_layout.addWidget(self.calibration, 1)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.addWidget(judges_box, 2)
        left_layout.addWidget(calib_box, 3)

        # rubric
        self.editor = RubricEditor(json.loads(default_rubric_path().read_text(encoding="utf-8")))
        self.editor.sig_changed.connect(self._on_rubric_changed)
        self.versions = QComboBox()
        self.versions.activated.connect(self._load_version)
        self.load_button = QPushButton(_("Open…"))
        self.load_button.clicked.connect(self.open_rubric_dialog)
        self.save_button = QPushButton(_("Save version"))
        self.save_button.clicked.connect(self.save_version)
        self.default_button = QPushButton(_("Default"))
        self.default_button.clicked.connect(self.load_default)
        rubric_box = QGroupBox(_("Rubric"))
        rubric_layout = QVBoxLayout(rubric_box)
        bar = QHBoxLayout()
        bar.addWidget(self.versions, 1)
        bar.addWidget(self.load_button)
        bar.addWidget(self.default_button)
        bar.addWidget(self.save_button)
        rubric_layout.addLayout(bar)
        rubric_layout.addWidget(self.editor, 1)

        # prompt preview
        self.item = QComboBox()
        self._fill_items()
        self.item.currentIndexChanged.connect(lambda _i: self.update_preview())
        self.preview = QPlainTextEdit()
        self.preview.setReadOnly(True)
        self.preview.setProperty("shows_data", True)  # the judge's prompt: not interface text
        self.preview.setFont(bengali_font(10))
        self.preview.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.preview_info = QLabel()
        self.preview_info.setWordWrap(True)
        preview_box = QGroupBox(_("Prompt preview (exactly what the judge receives)"))
        preview_layout = QVBoxLayout(preview_box)
        preview_layout.addWidget(self.item)
        preview_layout.addWidget(self.preview, 1)
        preview_layout.addWidget(self.preview_info)
        self._preview_timer = QTimer(self)
        self._preview_timer.setSingleShot(True)
        self._preview_timer.setInterval(PREVIEW_DELAY_MS)
        self._preview_timer.timeout.connect(self.update_preview)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        for widget in (left, rubric_box, preview_box):
            splitter.addWidget(widget)
        splitter.setSizes([400, 560, 480])
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)
        self.refresh()
        self.update_preview()

    def _fill_items(self) -> None:
        self.item.blockSignals(True)
        self.item.clear()
        for i, pair in enumerate(self.pairs):
            dialect = {
                "code": pair["dialect"],
                "name_en": pair["dialect_name"],
                "name_bn": pair.get("dialect_name_bn"),
            }
            name = dialect_of(dialect, code=False)
            self.item.addItem(f"{pair['ext_id'] or digits(i + 1)} · {name} · {pair['model']}", i)
        self.item.blockSignals(False)

    def _refresh_pairs(self, pairs: list[dict]) -> None:
        """Answers generated since the panel was built join the preview (choice kept)."""
        key = [p["dialect_response_id"] for p in pairs]
        if key == [p["dialect_response_id"] for p in self.pairs]:
            return
        chosen = (
            self.pairs[self.item.currentIndex()]["dialect_response_id"]
            if self.pairs and self.item.currentIndex() >= 0
            else None
        )
        self.pairs = pairs
        self._fill_items()
        self.item.setCurrentIndex(key.index(chosen) if chosen in key else 0)
        self.update_preview()

    # -- judges ----------------------------------------------------------------------------
    @property
    def rubric(self) -> Rubric | None:
        return self.editor.rubric

    def refresh(self, overview: Mapping[str, Any] | None = None) -> None:
        """Re-read the judge models now and the rest (``judge_tasks.judge_overview_at``) in the
        pool, or show ``overview``: a judge run's, read after its last write."""
        current = self.judge_model.currentData()
        self.judge_model.clear()
        self.model_names.clear()
        for model in judge_tasks.judge_models(self.ws):
            self.model_names[model["id"]] = model["name"]
            kind = _("local GGUF") if model["kind"] == "gguf" else _("endpoint")
            self.judge_model.addItem(f"{model['name']} ({kind})", model["id"])
            if current is None and model["is_default"]:
                current = model["id"]
        self.judge_model.setCurrentIndex(max(self.judge_model.findData(current), 0))
        self._update_buttons()
        self._fill_versions()
        if overview is not None:
            self._show_overview(overview)
            return
        self.bridge.run(
            judge_tasks.judge_overview_at,
            args=(str(self.ws.path),),
            label=_("Judge runs"),
            replace=OVERVIEW_KEY,
            quiet=True,
            on_done=self._show_overview,
            on_error=lambda exc: log.warning("judge overview failed: %s", exc),
        )

    def _show_overview(self, overview: Mapping[str, Any]) -> None:
        runs = overview["runs"]
        self.judges.setRowCount(len(runs))
        for row, run in enumerate(runs):
            role = {"primary": _("primary"), "secondary": _("secondary")}.get(
                run["role"], run["role"]
            )
            values = (run["run_id"], run["model"] or "?", role, run["judgments"])
            for col, value in enumerate(values):
                item = QTableWidgetItem(digits(value) if isinstance(value, int) else str(value))
                item.setData(Qt.ItemDataRole.UserRole, run["run_id"])
                if run["role"] == "primary":
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                self.judges.setItem(row, col, item)
        self.judges.resizeColumnsToContents()
        # the model's name takes what run, role and count leave (it elides, with a tooltip)
        fit_columns_to_headers(self.judges, stretch=1, grow_only=True)
        self.warnings.setText(for_gui("\n".join(overview["warnings"])))
        self.human_scored = overview["human_count"]
        self.has_answers = bool(overview["pairs"])
        self.human_count.setText(
            _("{n} human-scored items (overrides in the answers panel)").format(n=self.human_scored)
        )
        self._update_buttons()
        self._refresh_pairs(overview["pairs"])

    def make_selected_primary(self) -> bool:
        items = self.judges.selectedItems()
        if not items:
            self.sig_status_message.emit(_("Select a judge run first."))
            return False
        return self.make_primary(items[0].data(Qt.ItemDataRole.UserRole))

    def make_primary(self, run_id: int) -> bool:
        try:
            judging.set_primary_judge(self.ws, run_id)
        except UserError as exc:
            self.sig_status_message.emit(for_gui(str(exc)))
            return False
        self.refresh()
        self.sig_status_message.emit(_("Run {run} is now the primary judge.").format(run=run_id))
        self.sig_changed.emit()
        return True

    def _update_buttons(self) -> None:
        has_model = self.judge_model.count() > 0
        valid = self.rubric is not None
        running = self.job.task is not None  # one judge run at a time from this panel
        self.run_button.setEnabled(has_model and valid and self.has_answers and not running)
        self.run_button.setToolTip(
            "" if self.has_answers else _("No answers to judge yet: generate answers first.")
        )
        self.calibrate_button.setEnabled(has_model and valid and self.human_scored > 0)

    # -- rubric ----------------------------------------------------------------------------
    def _on_rubric_changed(self, rubric, error: str) -> None:
        self.estimate.mark_stale()  # the prompts (and the verdict budget) changed
        self._update_buttons()
        self.save_button.setEnabled(rubric is not None)
        self._preview_timer.start()

    # -- preview ---------------------------------------------------------------------------
    def update_preview(self) -> None:
        if not self.pairs:
            self.preview.setPlainText(
                _("No answers yet: generate answers first, then the preview shows a real item.")
            )
            return
        if self.rubric is None:
            self.preview_info.setText(_("Fix the rubric to see the prompt."))
            return
        pair = self.pairs[max(self.item.currentIndex(), 0)]
        prompt = build_judge_prompt(
            self.template,
            self.rubric,
            standard_question=pair["standard_question"],
            standard_answer=pair["standard_answer"],
            dialect_question=pair["dialect_question"],
            dialect_answer=pair["dialect_answer"],
            dialect_name=pair["dialect_name"],
        )
        text = f"━━ system ━━\n{prompt.system}\n\n━━ user ━━\n{prompt.user}"
        self.preview.setPlainText(text)
        self.preview_info.setText(
            _(
                "Template {t} · rubric {r} · {n} characters · the fence "
                "marker {m} is drawn anew for every call"
            ).format(
                t=self.template.version,
                r=self.rubric.version,
                n=len(prompt.system) + len(prompt.user),
                m=prompt.nonce,
            )
        )
        self.sig_preview_updated.emit(text)

    # -- calibration and runs --------------------------------------------------------------
    def judge_request(self, kind: type[Judged], **fields) -> Judged | str:
        """The request of ``kind`` (a judge run's, a calibration's) with the chosen judge and
        the edited rubric (``fields``: any other), or why there is none."""
        model_id = self.judge_model.currentData()
        if model_id is None or self.rubric is None:
            return _("Choose a judge model and a valid rubric first.")
        try:
            return kind(judge=self.model_names[model_id], rubric=self.editor.to_dict(), **fields)
        except UserError as exc:
            return describe_error(exc, one_line=True)

    def calibrate(self, **fields) -> None:
        request = self.judge_request(CalibrateRequest, **fields)
        if isinstance(request, str):
            self.sig_status_message.emit(request)
            return
        self.calibrate_button.setEnabled(False)
        self.calibration.show_busy()
        self.bridge.run(
            judge_tasks.calibrate_judge_at,
            args=(str(self.ws.path), request),
            label=_("Calibrate judge {name}").format(name=self.judge_model.currentText()),
            lane=model_lane(self.judge_model.currentData()),
            dialog=True,
            on_done=self.show_calibration,
            on_error=self._on_calibration_error,
        )

    def show_calibration(self, result) -> None:
        shown = result.as_dict()
        self._update_buttons()
        self.calibration.show_result(shown)
        self.refresh()
        self.sig_calibrated.emit(shown)

    def _on_calibration_error(self, exc: BaseException) -> None:
        self._update_buttons()
        self.calibration.show_error(exc)
        self.sig_status_message.emit(describe_error(exc).splitlines()[0])

    def estimate_jobs(self) -> list[EstimateJob] | str:
        """The time estimate of 'Run judge on all answers' with the chosen judge and rubric."""
        request = self.judge_request(JudgeRequest)
        if isinstance(request, str):
            return request
        model_id, name = self.judge_model.currentData(), self.judge_model.currentText()
        return [
            EstimateJob(model_id, name, judge_tasks.estimate_judge_at, (str(self.ws.path), request))
        ]

    def run_judge_at(self) -> None:
        request = self.judge_request(JudgeRequest)
        if isinstance(request, str):
            self.sig_status_message.emit(request)
            return
        model_id = self.judge_model.currentData()
        self.run_button.setEnabled(False)
        task = self.bridge.run(
            judge_tasks.run_judge_at,
            args=(str(self.ws.path), request),
            label=_("Judge answers with {name}").format(name=self.judge_model.currentText()),
            lane=model_lane(model_id),
            supersedes=OVERVIEW_KEY,  # its result holds the overview read after its last write
            on_done=self._on_judged,
            on_progress=self.job.show_progress,
        )
        self.job.follow(task)

    def _on_task_finished(self, task) -> None:
        """The judge run ended, however (a failure is shown by the bridge): Run again."""
        if task is self.job.task:
            self.job.finish()
            self._update_buttons()

    def _on_judged(self, done: judge_tasks.JudgeRunDone) -> None:
        self.refresh(done.overview)
        s = done.result.summary
        counts = {"run": s.run_id, "n": s.judged_now + s.gated, "f": s.failed}
        if s.cancelled:
            message = _("Judge run {run} cancelled after {n} judged: run it again to resume.")
        else:
            message = _("Judge run {run}: {n} judged, {f} failed")
        self.sig_status_message.emit(message.format(**counts))
        self.sig_judged.emit(done.result)
        self.sig_changed.emit()


def main(argv: list[str] | None = None) -> int:
    return run_panel(
        "python -m widgets.judging.judge_panel",
        _("Judge"),
        lambda workspace, bridge, args: JudgePanel(workspace, bridge),
        sample="study",
        size=(1440, 820),
        argv=argv,
    )


if __name__ == "__main__":
    sys.exit(main())
