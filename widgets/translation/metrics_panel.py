"""MetricsPanel: metric-vs-human evaluation of an imported scored-translation set, and
translation quality on held-out corpus pairs (``eval-translation``, its own tab:
:mod:`widgets.translation.eval_translation_box`).

Choose a scored set (``upabhasha import scored-translations``), evaluate it in the
background (:func:`engine.translation.tasks.evaluate_scored_at`) and read the
per-system corpus scores with their sacrebleu signatures and the segment- and system-level
correlation tables (Pearson, Spearman, Kendall, CCC with bootstrap CIs; "unavailable" with
its reason instead of a number). A form records one person's score of a segment on the
set's declared scale, or of a translate-eval response on 0-10. Numbers are rounded only here, for display.

``python -m widgets.translation.metrics_panel [WORKSPACE]`` opens it alone.
"""

from __future__ import annotations

import logging
import sys

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from engine.errors import UserError
from engine.i18n import _
from engine.importing.tasks import record_segment_score_at
from engine.text.textnorm import NORMALIZATIONS
from engine.translation.api import TRANSLATION_SCORE_SCALE, scored_sets
from engine.translation.tasks import (
    copy_baselines_at,
    evaluate_scored_at,
    record_translation_score_at,
)
from engine.workspace.api import Workspace
from widgets.common.fonts import bengali_font
from widgets.common.hints import for_gui
from widgets.common.labels import label
from widgets.common.standalone import run_panel
from widgets.common.task_bridge import WRITER, Task, TaskBridge
from widgets.translation.eval_translation_box import EvalTranslationBox
from widgets.translation.table_parts import fill_table, fmt, read_only_table

log = logging.getLogger(__name__)

CORRELATIONS = ("pearson", "spearman", "kendall", "ccc")
SYSTEM_METRICS = ("bleu", "chrf++", "wer", "cosine", "bertscore_f1")


def _interval_note(boot: dict) -> str:
    """What the bracketed intervals of the correlation table are."""
    if not boot.get("resamples"):
        return _("No intervals (0 bootstrap resamples).")
    return _(
        "Intervals: {level:.0%} percentile bootstrap over segments (segment level) and "
        "systems (system level), {resamples} resamples, seed {seed}."
    ).format(level=boot.get("level", 0.95), resamples=boot["resamples"], seed=boot["seed"])


class MetricsPanel(QWidget):
    sig_status_message = Signal(str)
    sig_changed = Signal()  # a human score was recorded
    sig_import_requested = Signal(str)  # "scored": the window opens the import dialog

    def __init__(self, workspace: Workspace, bridge: TaskBridge, parent: QWidget | None = None):
        super().__init__(parent)
        self.ws, self.bridge = workspace, bridge
        self.task: Task | None = None
        self.last_report: dict | None = None

        self.sets = QComboBox()
        self.sets.currentIndexChanged.connect(self._set_changed)
        self.bootstrap = QSpinBox()
        self.bootstrap.setRange(0, 100_000)
        self.bootstrap.setValue(1000)
        self.bootstrap.setSuffix(_(" resamples"))
        self.evaluate_button = QPushButton(_("Evaluate"))
        self.evaluate_button.clicked.connect(self.evaluate)
        refresh = QPushButton(_("Refresh"))
        refresh.clicked.connect(self.refresh)
        self.import_button = QPushButton(_("Import scored translations…"))
        self.import_button.clicked.connect(lambda: self.sig_import_requested.emit("scored"))
        top = QHBoxLayout()
        top.addWidget(QLabel(_("Scored set")))
        top.addWidget(self.sets, 1)
        top.addWidget(QLabel(_("Bootstrap")))
        top.addWidget(self.bootstrap)
        top.addWidget(self.evaluate_button)
        top.addWidget(refresh)
        top.addWidget(self.import_button)

        self.summary = QLabel(_("Import scored translations to evaluate metrics against people."))
        self.summary.setWordWrap(True)
        self.systems = read_only_table(
            [_("System"), _("n"), "BLEU", "chrF++", "WER", _("Human mean")]
        )
        self.signatures = QLabel()
        self.signatures.setWordWrap(True)
        self.signatures.setStyleSheet("color: #555")
        self.correlations = read_only_table(
            [_("Level"), _("Metric"), _("n"), "Pearson", "Spearman", "Kendall τ", "CCC", _("Note")]
        )

        self.target = QComboBox()
        self.target.addItem(_("a segment of this scored set (its scale)"), "segment")
        self.target.addItem(_("a translate-eval response (0-10)"), "response")
        self.target.currentIndexChanged.connect(self._set_changed)
        self.segment = QSpinBox()
        self.segment.setRange(1, 2_000_000_000)
        self.annotator = QLineEdit()
        self.annotator.setPlaceholderText(_("your name"))
        self.score = QDoubleSpinBox()
        self.score.setDecimals(3)
        self.record_button = QPushButton(_("Record score"))
        self.record_button.clicked.connect(self.record_score)
        self.record_note = QLabel()
        form_box = QGroupBox(_("Record a human score of a translation"))
        # two rows under both tabs: the scored sets' segments and eval-translation's responses
        form = QGridLayout(form_box)
        for column, (text, control) in enumerate(
            ((_("Translation"), self.target), (_("Id"), self.segment))
        ):
            form.addWidget(QLabel(text), 0, 2 * column)
            form.addWidget(control, 0, 2 * column + 1)
        for column, (text, control) in enumerate(
            ((_("Annotator"), self.annotator), (_("Score"), self.score))
        ):
            form.addWidget(QLabel(text), 1, 2 * column)
            form.addWidget(control, 1, 2 * column + 1)
        form.addWidget(self.record_button, 0, 4)
        form.addWidget(self.record_note, 1, 4, 1, 2)
        form.setColumnStretch(5, 1)

        # the copy-input baseline of the workspace's corpora (upabhasha baseline)
        self.baseline_split = QComboBox()
        self.baseline_split.addItem(_("all splits"), None)
        for value in ("train", "test", "validation"):
            self.baseline_split.addItem(label("split", value), value)
        self.baseline_normalize = QComboBox()
        for mode in NORMALIZATIONS:
            self.baseline_normalize.addItem(label("normalisation", mode), mode)
        self.baseline_button = QPushButton(_("Copy baseline"))
        self.baseline_button.clicked.connect(self.compute_baseline)
        self.baseline = read_only_table(
            [_("Dialect"), _("Direction"), _("Script"), _("n"), "BLEU", "chrF++", _("Note")]
        )
        self.baseline_note = QLabel()
        self.baseline_note.setWordWrap(True)
        self.baseline_note.setStyleSheet("color: #555")
        baseline_box = QGroupBox(_("Copy-input baseline of the corpora (input returned unchanged)"))
        baseline_layout = QVBoxLayout(baseline_box)
        baseline_row = QHBoxLayout()
        baseline_row.addWidget(QLabel(_("Split")))
        baseline_row.addWidget(self.baseline_split)
        baseline_row.addWidget(QLabel(_("Normalisation")))
        baseline_row.addWidget(self.baseline_normalize)
        baseline_row.addWidget(self.baseline_button)
        baseline_row.addStretch(1)
        baseline_layout.addLayout(baseline_row)
        baseline_layout.addWidget(self.baseline, 1)
        baseline_layout.addWidget(self.baseline_note)

        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020")
        self.error.setVisible(False)
        scored = QWidget()
        layout = QVBoxLayout(scored)
        layout.setContentsMargins(0, 0, 0, 0)  # the tab's own frame is margin enough
        layout.addLayout(top)
        layout.addWidget(self.summary)
        layout.addWidget(self.error)
        layout.addWidget(self.systems, 1)
        layout.addWidget(self.signatures)
        layout.addWidget(self.correlations, 2)
        layout.addWidget(baseline_box, 1)
        # eval-translation: the held-out pairs a translate-eval response score is about
        self.heldout = EvalTranslationBox(workspace, bridge)
        self.heldout.sig_status_message.connect(self.sig_status_message)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(scored, _("Scored sets"))
        self.tabs.addTab(self.heldout, _("Held-out pairs"))
        outer = QVBoxLayout(self)
        outer.addWidget(self.tabs, 1)
        outer.addWidget(form_box)
        self.setFont(bengali_font())
        self.refresh()

    # -- sets ------------------------------------------------------------------------------
    def refresh(self) -> None:
        current = self.sets.currentData()
        self.sets.blockSignals(True)
        self.sets.clear()
        for s in scored_sets(self.ws):
            label = _(
                "{name} — {segments} segments, {systems} systems, scale {lo:g}-{hi:g}"
            ).format(
                name=s["name"],
                segments=s["segments"],
                systems=s["systems"],
                lo=s["scale_min"],
                hi=s["scale_max"],
            )
            self.sets.addItem(label, s)
        self.sets.blockSignals(False)
        names = [self.sets.itemData(i)["name"] for i in range(self.sets.count())]
        if current and current["name"] in names:
            self.sets.setCurrentIndex(names.index(current["name"]))
        self._set_changed()

    def _set_changed(self) -> None:
        info = self.sets.currentData()
        self.evaluate_button.setEnabled(info is not None and self.task is None)
        response = self.target.currentData() == "response"
        self.record_button.setEnabled(info is not None or response)
        if response:
            self.score.setRange(*TRANSLATION_SCORE_SCALE)
        elif info:
            self.score.setRange(info["scale_min"], info["scale_max"])

    # -- evaluation ------------------------------------------------------------------------
    def evaluate(self) -> Task | None:
        info = self.sets.currentData()
        if info is None or self.task is not None:
            return self.task
        self._show_error("")
        self.evaluate_button.setEnabled(False)
        task = self.bridge.run(
            evaluate_scored_at,
            args=(str(self.ws.path), info["name"], self.bootstrap.value()),
            label=_("Evaluating metrics of {name}").format(name=info["name"]),
            on_done=self._done,
            on_error=self._failed,
        )
        if task.running:
            self.task = task
        return task

    def _done(self, report: dict) -> None:
        self.task = None
        self._set_changed()
        self.last_report = report
        lo, hi = report["human_scale"]
        seen = report.get("observed_range") or [None, None]
        self.summary.setText(
            _(
                "{name}: {segments} segments, {scored} with human scores ({annotations} scores "
                "on {lo:g}-{hi:g}, observed {seen}; {averaged} averaged over annotators); "
                "texts scored: {normalize}"
            ).format(
                name=report["set"],
                segments=report["segments"],
                scored=report["segments_scored_by_humans"],
                annotations=report["annotations"],
                lo=lo,
                hi=hi,
                seen="—" if seen[0] is None else f"{seen[0]:g}-{seen[1]:g}",
                averaged=report.get("segments_averaged", 0),
                normalize=report.get("normalize", "nfc"),
            )
        )
        fill_table(
            self.systems,
            [
                [
                    name,
                    str(row["n"]),
                    fmt(row["bleu"], 2),
                    fmt(row["chrf++"], 2),
                    fmt(row["wer"], 4),
                    fmt(row["human_mean"]),
                ]
                for name, row in report["systems"].items()
            ],
        )
        self.signatures.setText(
            "  ".join(f"{k}: {v}" for k, v in report["signatures"].items())
            + "\n"
            + _("sentence level (segment correlations): ")
            + "  ".join(f"{k}: {v}" for k, v in report.get("sentence_signatures", {}).items())
            + "\n"
            + _interval_note(report.get("bootstrap") or {})
        )
        rows = []
        for level, title in (("segment_level", _("segment")), ("system_level", _("system"))):
            for r in report[level]:
                cells = []
                for key in CORRELATIONS:
                    ci = (r.get("ci") or {}).get(key)
                    cells.append(fmt(r[key]) + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else ""))
                excluded = r["excluded"]["human_missing"] + r["excluded"]["metric_missing"]
                note = (
                    _("unavailable: {reason}").format(reason=r["unavailable"])
                    if r["unavailable"]
                    else (_("{n} excluded (missing)").format(n=excluded) if excluded else "")
                )
                rows.append([title, r["metric"], str(r["n"]), *cells, note])
        fill_table(self.correlations, rows)
        self.sig_status_message.emit(_("Metrics evaluated: {name}").format(name=report["set"]))

    def compute_baseline(self) -> Task:
        self._show_error("")
        self.baseline_button.setEnabled(False)
        return self.bridge.run(
            copy_baselines_at,
            args=(
                str(self.ws.path),
                "pairs",
                self.baseline_split.currentData(),
                self.baseline_normalize.currentData(),
            ),
            label=_("Copy baseline"),
            on_done=self._show_baseline,
            on_error=self._baseline_failed,
        )

    def _show_baseline(self, report: dict) -> None:
        self.baseline_button.setEnabled(True)
        fill_table(
            self.baseline,
            [
                [
                    r["dialect"],
                    r["direction"],
                    r["script"],
                    str(r["n"]),
                    fmt(r.get("bleu"), 2),
                    fmt(r.get("chrf++"), 2),
                    r.get("not_applicable", ""),
                ]
                for r in report["rows"]
            ],
        )
        signatures = dict.fromkeys(
            f"{k}: {v}" for r in report["rows"] for k, v in r.get("signatures", {}).items()
        )
        self.baseline_note.setText(for_gui("  ".join([*signatures, *report["notes"]])))

    def _baseline_failed(self, exc: BaseException) -> None:
        self.baseline_button.setEnabled(True)
        self._show_error(" ".join(for_gui(str(exc)).split()))

    def _failed(self, exc: BaseException) -> None:
        self.task = None
        self._set_changed()
        self._show_error(
            " ".join(for_gui(str(exc)).split())
            if isinstance(exc, UserError)
            else _("Evaluation failed: {error}").format(error=exc)
        )

    # -- human scores ----------------------------------------------------------------------
    def record_score(self) -> Task | None:
        self._show_error("")
        fn = (
            record_translation_score_at
            if self.target.currentData() == "response"
            else record_segment_score_at
        )
        return self.bridge.run(
            fn,
            args=(
                str(self.ws.path),
                self.segment.value(),
                self.annotator.text(),
                self.score.value(),
            ),
            lane=WRITER,
            label=_("Recording a human score"),
            on_done=self._recorded,
            on_error=self._failed,
        )

    def _recorded(self, row: dict) -> None:
        lo, hi = row["scale"]
        what = (
            _("segment {id}").format(id=row["segment_id"])
            if "segment_id" in row
            else _("response {id}").format(id=row["response_id"])
        )
        self.record_note.setText(
            _("{what}: {who} {score:g} ({lo:g}-{hi:g})").format(
                what=what, who=row["annotator"], score=row["score"], lo=lo, hi=hi
            )
        )
        self.sig_changed.emit()
        self.refresh()

    def _show_error(self, message: str) -> None:
        self.error.setText(message)
        self.error.setVisible(bool(message))


def main(argv: list[str] | None = None) -> int:
    return run_panel(
        "widgets.translation.metrics_panel",
        "Metrics vs human scores",
        lambda workspace, bridge, args: MetricsPanel(workspace, bridge),
        size=(1100, 760),
        argv=argv,
    )


if __name__ == "__main__":
    sys.exit(main())
