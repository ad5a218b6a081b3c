"""TasksPanel: run understanding tasks (paper 001) and read their results.

- Left: task, item source, models, regimes, scripts (with the Romanization scheme),
  dialects, evaluated split, k (or a k sweep), seed, limit per dialect and constrained
  decoding, each starting at :class:`~engine.understanding.request.RunTaskRequest`'s default
  (``upabhasha run-task``'s) but the limit; "Run" builds that request and starts
  :func:`engine.understanding.tasks.run_task_with_report_at` through the bridge (progress,
  ETA, cancel); runs resume; it ends with the report read after its last write.
- Right: the results grid, one row per run (model × regime × script), laid out like the
  paper's tables: macro metrics over dialects with their scale, the copy-input baseline, the
  failure rates; below it the native−Romanized gaps (with 95 % CI) and the zero→few flips.
- Drill-down: selecting a run lists its items — the input as shown (native or Romanized),
  the native text, the output, the references and the demonstrations used.

``python -m widgets.understanding.tasks_panel [WORKSPACE]`` opens the panel alone on the sample workspace.
"""

# Stays whole: a run's report supersedes the results reads (RESULTS_KEY), so the run form and
# the results grid share one bridge key and one report; the form may leave as a widget of its
# own once the results are read through a change notice instead.

from __future__ import annotations

import dataclasses
import logging
import re
import sys
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.errors import UserError
from engine.i18n import _, digits, ngettext

# the panel runs a task on the workspace's models: the one read it needs of the llm stage
from engine.llm.api import all_models
from engine.text.text_rules import visible
from engine.understanding import api as task_api
from engine.understanding import tasks as task_jobs
from engine.understanding.api import REGIMES, SCHEMES, all_tasks, item_sets, write_csv, write_latex
from engine.workspace.api import Workspace
from widgets.common import file_dialogs
from widgets.common.batch_files import BatchExportButton
from widgets.common.columns import fit_columns_to_headers
from widgets.common.dialog_parts import in_a_row
from widgets.common.file_dialogs import EXPORTS
from widgets.common.fonts import bengali_font, register_qt_fonts
from widgets.common.hints import for_gui, load_failure
from widgets.common.item_limit import ItemLimitBox
from widgets.common.job_estimate import EstimateJob, JobEstimateBox, estimate_and_actual
from widgets.common.job_progress import progress_text
from widgets.common.labels import label
from widgets.common.number_boxes import ascii_digits
from widgets.common.standalone import run_panel
from widgets.common.task_bridge import Task, TaskBridge, describe_error
from widgets.common.workspace_watcher import WorkspaceWatcher, follow
from widgets.understanding.failure_bars import FailureBars
from widgets.understanding.result_rows import number_text, result_rows
from widgets.understanding.run_breakdown import RunBreakdown, detail_tabs, result_table

log = logging.getLogger(__name__)

RESULTS_KEY = "task-results"  # the panel's reads of the results: the newest one wins

# drill-down columns: dialect, input, native text, output, references (demonstrations stretch)
ITEM_COLUMN_WIDTHS = {0: 80, 1: 190, 2: 190, 3: 150, 4: 150}

# every choice starts at the request's default (the CLI's)
DEFAULTS = task_api.RunTaskRequest()
# but the limit: the desktop's first run is small (the request's default is every item)
FIRST_RUN_LIMIT = 5


class TasksPanel(QWidget):
    sig_status_message = Signal(str)
    sig_run_finished = Signal(list)  # run summaries
    sig_results = Signal(dict)  # the task-stats report shown
    sig_import_requested = Signal(str)  # "items": the window opens the import dialog

    def __init__(
        self,
        workspace: Workspace,
        bridge: TaskBridge,
        *,
        user_dir: str | None = None,
        watcher: WorkspaceWatcher | None = None,
        parent: QWidget | None = None,
    ):
        """``watcher``: the window's workspace watcher (a panel alone makes its own);
        ``user_dir``: the user's task files (default: the folder ``upabhasha`` reads)."""
        super().__init__(parent)
        self.ws, self.bridge = workspace, bridge
        self.user_dir = str(task_api.user_task_dir()) if user_dir is None else user_dir
        self.report: dict = {"runs": []}
        self._task: Task | None = None

        self.task_box = QComboBox()
        for name, spec in all_tasks(self.user_dir).items():
            self.task_box.addItem(f"{label('task', name)} — {label('task_kind', spec.kind)}", name)
        self.task_box.setCurrentIndex(max(self.task_box.findData(DEFAULTS.task), 0))
        self.source_box = QComboBox()
        self.import_items_button = QPushButton(_("Import items…"))
        self.import_items_button.setToolTip(_("Import an item set for tasks from a file"))
        self.import_items_button.clicked.connect(lambda: self.sig_import_requested.emit("items"))
        self.models = QListWidget()
        self.models.setMaximumHeight(90)
        self.regimes = {r: QCheckBox(label("regime", r)) for r in REGIMES}
        self.scripts = {s: QCheckBox(label("script", s)) for s in task_api.RunTaskRequest.SCRIPTS}
        for name, box in (*self.regimes.items(), *self.scripts.items()):
            box.setChecked(name in DEFAULTS.regimes or name in DEFAULTS.scripts)
        self.scheme = QComboBox()
        self.scheme.setToolTip(_("Romanization scheme"))
        for scheme in SCHEMES:
            self.scheme.addItem(label("scheme", scheme), scheme)
        self.scheme.setCurrentIndex(self.scheme.findData(DEFAULTS.scheme))
        self.dialects = QLineEdit()
        self.dialects.setPlaceholderText(_("all (or e.g. sylhet,chittagong)"))
        self.split = QComboBox()
        for split in task_api.RunTaskRequest.SPLITS:
            self.split.addItem(label("split", split), split)
        self.split.setCurrentIndex(self.split.findData(DEFAULTS.split))
        self.k = QSpinBox()
        self.k.setRange(0, task_api.RunTaskRequest.MAX_K)
        self.k.setValue(DEFAULTS.k)
        self.k_sweep = QLineEdit()
        self.k_sweep.setPlaceholderText(_("none (or e.g. 0,1,2,4,6)"))
        self.k_sweep.setToolTip(
            _("One run per k: 0 zero-shot, else few-shot; replaces the regimes and k above")
        )
        self.seed = QSpinBox()  # the sample's and the demonstrations'
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setValue(DEFAULTS.seed)
        self.limit = ItemLimitBox(_("all"), default=FIRST_RUN_LIMIT)  # per dialect
        self.constrained = QCheckBox(_("constrained decoding (JSON schema)"))
        self.constrained.setChecked(DEFAULTS.constrained)
        self.run_button = QPushButton(_("Run"))
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton(_("Cancel"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.progress = QProgressBar()
        self.progress_note = QLabel()
        self.progress_note.setWordWrap(True)

        form_box = QGroupBox(_("Run a task"))
        form = QFormLayout(form_box)
        form.addRow(_("Task"), self.task_box)
        form.addRow(_("Items"), self.source_box)
        form.addRow("", in_a_row(self.import_items_button))  # its own row: the form is narrow
        form.addRow(_("Models"), self.models)
        form.addRow(_("Regimes"), in_a_row(*self.regimes.values()))
        form.addRow(_("Scripts"), in_a_row(*self.scripts.values(), self.scheme))
        form.addRow(_("Dialects"), self.dialects)
        # two settings a row: the panel fits a 1366x768 screen with the Bengali font
        form.addRow(_("Split"), in_a_row(self.split, QLabel(_("Seed")), self.seed))
        form.addRow(_("k per dialect"), in_a_row(self.k, QLabel(_("k sweep")), self.k_sweep))
        # a set with no train split: demonstrations drawn from the evaluated split (seeded)
        self.draw_train = ItemLimitBox(_("(none)"), default=DEFAULTS.draw_train or 0)
        form.addRow(_("Train draw"), self.draw_train)  # items per dialect
        form.addRow(_("Limit per dialect"), self.limit)
        form.addRow(self.constrained)
        self.batch_button = BatchExportButton(workspace, bridge, self.job_request)
        form.addRow(in_a_row(self.run_button, self.cancel_button, self.batch_button))
        self.estimate = JobEstimateBox(bridge, self.estimate_jobs)
        form.addRow(self.estimate)
        for changed in (
            self.task_box.currentIndexChanged,
            self.source_box.currentIndexChanged,
            self.models.itemChanged,
            *(box.toggled for box in (*self.regimes.values(), *self.scripts.values())),
            self.scheme.currentIndexChanged,
            self.dialects.textChanged,
            self.split.currentIndexChanged,
            self.k.valueChanged,
            self.k_sweep.textChanged,
            self.seed.valueChanged,
            self.limit.valueChanged,
            self.draw_train.valueChanged,
            self.constrained.toggled,
        ):
            changed.connect(self.estimate.mark_stale)
        self.source_box.currentIndexChanged.connect(lambda _i: self._split_the_source_has())
        form.addRow(self.progress)
        form.addRow(self.progress_note)

        self.results = result_table()
        # a header and four runs stay visible however long the comparisons below grow
        rows = self.results.verticalHeader().defaultSectionSize()
        self.results.setMinimumHeight(
            self.results.horizontalHeader().sizeHint().height() + 5 * rows
        )
        self.results.itemSelectionChanged.connect(self.show_items)
        self.comparisons = QLabel()
        self.comparisons.setWordWrap(True)
        self.comparisons.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.failure_bars = FailureBars()
        self.items = result_table()
        register_qt_fonts()
        self.items.setFont(bengali_font())
        self.items.setColumnCount(6)
        self.items.setHorizontalHeaderLabels(
            [_("Dialect"), _("Input as shown"), _("Native text"), _("Output"),
             _("References"), _("Demonstrations")]
        )  # fmt: skip
        fit_columns_to_headers(self.items, at_least=ITEM_COLUMN_WIDTHS)
        self.refresh_button = QPushButton(_("Refresh results"))
        self.refresh_button.clicked.connect(self.refresh_results)
        self.export_button = QPushButton(_("Export table…"))
        self.export_button.clicked.connect(self.choose_export)

        right = QSplitter(Qt.Orientation.Vertical)
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(QLabel(_("Results")))  # each run's cell says what its macro is over
        top_layout.addWidget(self.results, 1)
        top_layout.addWidget(self.comparisons)
        top_layout.addWidget(QLabel(_("Failure modes")))
        top_layout.addWidget(self.failure_bars)
        top_layout.addWidget(in_a_row(self.export_button, self.refresh_button))
        right.addWidget(top)
        self.breakdown = RunBreakdown()
        right.addWidget(detail_tabs(self.items, self.breakdown))
        panes = QSplitter(Qt.Orientation.Horizontal)
        panes.addWidget(form_box)
        panes.addWidget(right)
        panes.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(panes)
        self.refresh_options()
        self.refresh_results()
        # a model added in the Models panel or by the CLI, a task run started elsewhere
        self.watcher = watcher or WorkspaceWatcher(workspace.path, parent=self)
        follow(self, self.refresh_options, self.watcher, "models", "task_runs")
        follow(self, self.refresh_results, self.watcher, "task_runs")

    # -- options -----------------------------------------------------------------------------
    def refresh_options(self) -> None:
        """Item sources and models as the workspace has them; the user's choices are kept."""
        source = self.source_box.currentData()
        shown = {
            self.models.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.models.count())
        }
        checked = set(self.model_ids())
        self.source_box.clear()
        self.source_box.addItem(_("sentence pairs"), "pairs")
        for s in item_sets(self.ws):
            self.source_box.addItem(f"{s['name']} ({s['items']})", f"items:{s['name']}")
        self.source_box.setCurrentIndex(max(self.source_box.findData(source or DEFAULTS.source), 0))
        self.models.clear()
        for m in all_models(self.ws):
            entry = QListWidgetItem(m["name"])
            entry.setData(Qt.ItemDataRole.UserRole, m["id"])
            entry.setFlags(entry.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            on = m["id"] in checked if m["id"] in shown else bool(m["is_default"])
            entry.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
            self.models.addItem(entry)

    def _split_the_source_has(self) -> None:
        """A source without items in the chosen split (a set with only a test split): the
        first evaluated split it has is chosen instead."""
        source = self.source_box.currentData()
        if source is None:
            return
        counts = task_api.split_counts(self.ws, source)
        if counts.get(self.split.currentData()):
            return
        having = [s for s in task_api.RunTaskRequest.SPLITS if counts.get(s)]
        if having:
            self.split.setCurrentIndex(self.split.findData(having[0]))

    def checked_models(self) -> dict[int, str]:
        """The ticked models: id -> name."""
        return {
            self.models.item(i).data(Qt.ItemDataRole.UserRole): self.models.item(i).text()
            for i in range(self.models.count())
            if self.models.item(i).checkState() == Qt.CheckState.Checked
        }

    def model_ids(self) -> list[int]:
        return list(self.checked_models())

    def job_request(self) -> task_api.RunTaskRequest | str:
        """The request 'Run' runs (``upabhasha run-task``'s), or what to change first (said
        here, not as a failed job)."""
        models = self.checked_models()
        if not models:
            return _("Choose at least one model.")
        # typed numbers as numbers; anything else (Any: the request checks each value) for the
        # request to refuse by name
        k_sweep: tuple[Any, ...] = tuple(
            int(ascii_digits(p)) if re.fullmatch(r"-?\d+", ascii_digits(p)) else p
            for p in _parts(self.k_sweep.text())
        )
        try:
            return task_api.RunTaskRequest(
                task=self.task_box.currentData(),
                models=tuple(models.values()),
                source=self.source_box.currentData() or DEFAULTS.source,
                regimes=tuple(r for r, box in self.regimes.items() if box.isChecked()),
                scripts=tuple(s for s, box in self.scripts.items() if box.isChecked()),
                scheme=self.scheme.currentData(),
                dialects=_parts(self.dialects.text()),
                split=self.split.currentData(),
                k=self.k.value(),
                k_sweep=k_sweep,
                seed=self.seed.value(),
                limit=self.limit.value() or None,
                draw_train=self.draw_train.value() or None,
                constrained=self.constrained.isChecked(),
            )
        except UserError as exc:
            return describe_error(exc, one_line=True)

    # -- running -----------------------------------------------------------------------------
    def job_label(self, request: task_api.RunTaskRequest) -> str:
        """What the job runs, for the job monitor: task, models, regimes, scripts."""
        scripts = [f"{s} ({request.scheme})" if s == "roman" else s for s in request.scripts]
        regimes = (
            [_("k sweep {ks}").format(ks=",".join(map(str, request.k_sweep)))]
            if request.k_sweep
            else request.regimes
        )
        return _("Task {name} · {models} · {regimes} · {scripts}").format(
            name=request.task,
            models=", ".join(request.models),
            regimes=", ".join(regimes),
            scripts=", ".join(scripts),
        )

    def estimate_jobs(self) -> list[EstimateJob] | str:
        """The time estimate of 'Run' with the current choices, one task per model."""
        request = self.job_request()
        if isinstance(request, str):
            return request
        return [
            EstimateJob(
                m,
                name,
                task_jobs.estimate_task_at,
                (str(self.ws.path), dataclasses.replace(request, models=(name,)), self.user_dir),
            )
            for m, name in self.checked_models().items()
        ]

    def run(self) -> None:
        request = self.job_request()
        if isinstance(request, str):
            self.progress_note.setText(request)
            self.sig_status_message.emit(request)
            return
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setFormat("%p%")
        self.progress.setRange(0, 0)
        self._task = self.bridge.run(
            task_jobs.run_task_with_report_at,
            args=(str(self.ws.path), request, self.user_dir),
            label=self.job_label(request),
            supersedes=RESULTS_KEY,  # it returns the report read after its last write
            on_done=self._on_run_done,
            on_error=self._on_run_error,
            on_cancelled=self._on_run_cancelled,
            on_progress=self._on_progress,
        )

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def _on_progress(self, done: int, total: int, note: str) -> None:
        self.progress.setRange(0, total if total > 0 else 0)  # busy while nothing is counted
        if total > 0:
            self.progress.setValue(min(done, total))
        self.progress_note.setText(progress_text(self._task, done, total, note))

    def _finish(self) -> None:
        self._task = None
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def _on_run_done(self, result: dict) -> None:
        summaries = result["summaries"]
        cancelled = (self._task is not None and self._task.is_cancelled()) or any(
            s.get("cancelled") for s in summaries
        )
        self._finish()
        done = sum(s["done_now"] for s in summaries)
        failed = load_failure(summaries, _("The task run failed: {error}"))
        if failed:  # a model that did not load is reported, not raised: not "finished"
            self.progress.setFormat(_("failed at %p%"))
            self.progress_note.setText(failed)
            self.sig_status_message.emit(failed)
            self.show_results(result["report"])
            self.sig_run_finished.emit(summaries)
            return
        if cancelled:  # the bar stays where the job stopped
            self.progress.setFormat(_("cancelled at %p%"))
            message = _("Cancelled: {runs} runs, {done} new outputs")
        else:
            self.progress.setRange(0, 1)
            self.progress.setValue(1)
            message = _("{runs} runs, {done} new outputs")
        message = message.format(runs=len(summaries), done=done)
        timing = estimate_and_actual(*summaries)
        self.sig_status_message.emit(f"{message} · {timing}" if timing else message)
        # the report read after the run's last write (reads started before it are dropped)
        self.show_results(result["report"])
        self.sig_run_finished.emit(summaries)

    def _on_run_cancelled(self) -> None:
        self._finish()
        self.progress.setFormat(_("cancelled at %p%"))
        self.sig_status_message.emit(_("Cancelled: run again to resume."))
        self.refresh_results()

    def _on_run_error(self, exc: BaseException) -> None:
        self._finish()
        self.progress.setRange(0, 1)
        self.progress_note.setText(for_gui(str(exc)))
        self.sig_status_message.emit(for_gui(str(exc)))

    # -- results -----------------------------------------------------------------------------
    def refresh_results(self) -> None:
        self.bridge.run(
            task_jobs.task_stats_at,
            args=(str(self.ws.path), None, self.user_dir),  # task-stats's settings
            label=_("Task results"),
            replace=RESULTS_KEY,
            quiet=True,
            on_done=self.show_results,
        )

    def show_results(self, report: dict) -> None:
        self.report = report
        header, rows = result_rows(report, labelled=True)
        self.results.clear()
        self.results.setColumnCount(len(header))
        self.results.setHorizontalHeaderLabels(header)
        self.results.setRowCount(len(rows))
        for i, row in enumerate(rows):
            for j, text in enumerate(row):
                self.results.setItem(i, j, QTableWidgetItem(text))
        self.results.resizeColumnsToContents()
        lines = [
            _("Warning, run {run} ({task}, {model}): {warning}").format(
                run=r["run_id"],
                task=label("task", r["task"]),
                model=r["model"] or "",
                warning=for_gui(w),
            )
            for r in report.get("runs", [])
            for w in r.get("warnings", [])
        ]
        for g in report.get("script_gap", []):
            gap = g["gap"]
            lines.append(
                _("native − Romanized ({scheme}), {task}, {model}, {regime}: {mean} "
                  "[{low}, {high}] over {n} items").format(
                    scheme=label("scheme", g["scheme"]), task=label("task", g["task"]), model=g["model"],
                    regime=label("regime", g["regime"]), mean=digits(number_text(gap["mean"])),
                    low=digits(number_text(gap["low"])), high=digits(number_text(gap["high"])),
                    n=g["items"])
            )  # fmt: skip
        for f in report.get("flips", []):
            lines.append(
                _("zero→few flips, {task}, {model}, {script}: {flips}/{n} ({rate})").format(
                    task=label("task", f["task"]), model=f["model"], script=label("script", f["script"]),
                    flips=f["flips"], n=f["items"], rate=digits(number_text(f["flip_rate"], 3)))
            )  # fmt: skip
        self.comparisons.setText("\n".join(lines) or _("No native/Romanized or zero/few pairs."))
        self.failure_bars.set_runs(report.get("runs", []))
        self.sig_results.emit(report)

    def choose_export(self) -> None:
        path = file_dialogs.save_file(
            self, EXPORTS, _("Export results"), "task-results.csv", _("CSV (*.csv);;LaTeX (*.tex)")
        )
        if path:
            self.export_to(path)

    def export_to(self, path: str) -> int:
        """The results table as CSV, or LaTeX when the name ends in .tex."""
        write = write_latex if path.lower().endswith(".tex") else write_csv
        rows = write(self.report, path)
        self.sig_status_message.emit(
            ngettext("{rows} row written to {path}", "{rows} rows written to {path}", rows).format(
                rows=rows, path=path
            )
        )
        return rows

    def selected_run_id(self) -> int | None:
        rows = {i.row() for i in self.results.selectedIndexes()}
        runs = self.report.get("runs", [])
        if len(rows) != 1 or min(rows) >= len(runs):
            return None
        return runs[min(rows)]["run_id"]

    def show_items(self) -> None:
        run_id = self.selected_run_id()
        self.breakdown.dialect_names = self.ws.dialect_names()
        self.breakdown.show_run(
            next((r for r in self.report.get("runs", []) if r["run_id"] == run_id), None),
            self.report.get("settings"),
        )
        if run_id is None:
            return
        self.bridge.run(
            task_jobs.item_details_at,
            args=(str(self.ws.path), run_id),
            label=_("Task items"),
            replace="task-items",
            quiet=True,
            on_done=self._fill_items,
        )

    def _fill_items(self, rows: list[dict]) -> None:
        self.items.setRowCount(len(rows))
        for i, r in enumerate(rows):
            cells = [r["dialect"], r["input_text"], r["native_text"], visible(r["output"] or ""),
                     " | ".join(r["refs"]), " | ".join(r["demos"])]  # fmt: skip
            for j, text in enumerate(cells):
                self.items.setItem(i, j, QTableWidgetItem(text))
        # long cells elide; their tooltips show them whole
        fit_columns_to_headers(self.items, at_least=ITEM_COLUMN_WIDTHS)


def _parts(text: str) -> tuple[str, ...]:
    """A field's comma-separated values."""
    return tuple(part.strip() for part in text.split(",") if part.strip())


def main(argv: list[str] | None = None) -> int:
    return run_panel(
        "python -m widgets.understanding.tasks_panel",
        _("Tasks"),
        lambda ws, bridge, args: TasksPanel(ws, bridge),
        argv=argv,
    )


if __name__ == "__main__":
    sys.exit(main())
