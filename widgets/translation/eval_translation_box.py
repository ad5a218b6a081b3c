"""EvalTranslationBox: translation quality on held-out corpus pairs, with the fidelity judge.

Fills an :class:`EvalTranslationRequest` (the request ``upabhasha eval-translation`` builds:
its defaults are the box's) and runs it with
:func:`engine.translation.tasks.evaluate_translations_at` through the bridge on the
translation model's lane. The table shows per dialect the system's BLEU, chrF++, WER and
judge mean beside the copy-input baseline (the standard sentence unchanged: a system below it
has not translated). The metrics panel holds it; the job monitor shows progress and cancel.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.errors import UserError
from engine.i18n import _
from engine.text.textnorm import NORMALIZATIONS
from engine.translation.api import EvalTranslationRequest, EvalTranslationResult, corpus_names
from engine.translation.tasks import evaluate_translations_at
from engine.workspace.api import Workspace, study_choices
from widgets.common.dialect_names import dialect_name
from widgets.common.dialog_parts import checkable_list, checked_data, show_status
from widgets.common.hints import for_gui
from widgets.common.item_limit import ItemLimitBox
from widgets.common.labels import dialect_of, label
from widgets.common.task_bridge import Task, TaskBridge, describe_error, model_lane
from widgets.translation.index_fields import IndexFields
from widgets.translation.table_parts import fill_table, fmt, read_only_table
from widgets.translation.translate_dialog import model_combo

log = logging.getLogger(__name__)

OFFERED_SPLITS = ("validation", "test", "train")


class EvalTranslationBox(QWidget):
    sig_status_message = Signal(str)
    sig_finished = Signal(object)  # EvalTranslationResult

    def __init__(self, workspace: Workspace, bridge: TaskBridge, parent: QWidget | None = None):
        super().__init__(parent)
        self.ws, self.bridge = workspace, bridge
        self.task: Task | None = None
        self.last_result: EvalTranslationResult | None = None
        choices = study_choices(workspace)
        self.model_names = {m["id"]: m["name"] for m in choices["models"]}

        self.dialects = checkable_list(
            [(dialect_of(d, both=True), d["code"], False) for d in choices["dialects"]]
        )
        self.dialects.setMaximumHeight(110)
        self.model = model_combo(choices["models"])
        self.judge = model_combo(choices["models"])
        self.judge.insertItem(0, _("no judge"), None)
        self.judge.setCurrentIndex(0 if EvalTranslationRequest.judge is None else 1)  # none
        self.limit = ItemLimitBox(_("every held-out item"), _(" per dialect"))
        self.seed = QSpinBox()
        self.seed.setRange(0, 2_000_000_000)
        self.seed.setValue(EvalTranslationRequest.seed)
        self.split = QComboBox()
        self.split.addItem(_("the validation split"), EvalTranslationRequest.split)
        for value in OFFERED_SPLITS:
            self.split.addItem(label("split", value), value)
        self.normalize = QComboBox()
        self.normalize.addItem(_("as the texts were imported"), EvalTranslationRequest.normalize)
        for mode in NORMALIZATIONS:
            self.normalize.addItem(label("normalisation", mode), mode)
        self.index = IndexFields(corpus_names(workspace))
        self.evaluate_button = QPushButton(_("Evaluate translation"))
        self.evaluate_button.clicked.connect(self.start)
        self.evaluate_button.setEnabled(bool(choices["models"]))

        form = QFormLayout()
        form.addRow(_("Dialects"), self.dialects)
        form.addRow(_("Model"), self.model)
        form.addRow(_("Judge model"), self.judge)
        form.addRow(_("At most"), self.limit)
        form.addRow(_("Seed"), self.seed)
        form.addRow(_("Split"), self.split)
        form.addRow(_("Normalisation"), self.normalize)
        column = QWidget()
        controls = QVBoxLayout(column)
        controls.addLayout(form)
        controls.addWidget(self.index)
        controls.addWidget(self.evaluate_button)
        controls.addStretch(1)
        # the controls scroll on a low screen rather than make the window taller than it
        scroll = QScrollArea()
        scroll.setWidget(column)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setFixedWidth(column.sizeHint().width() + 20)

        self.status = QLabel(
            _(
                "Translates held-out corpus pairs as the questions are translated and scores "
                "them against the people's dialect text; the held-out pairs are never indexed."
            )
        )
        self.status.setWordWrap(True)
        self.scores = read_only_table(
            [_("Dialect"), _("System"), _("n"), "BLEU", "chrF++", "WER", _("Judge (0-10)")]
        )
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.notes.setStyleSheet("color: #555")
        results = QVBoxLayout()
        results.addWidget(self.status)
        results.addWidget(self.scores, 1)
        results.addWidget(self.notes)
        layout = QHBoxLayout(self)
        layout.addWidget(scroll)
        layout.addLayout(results, 1)
        if not choices["models"]:
            self._show(_("Add a model first (the Models panel)."), error=True)

    def job_request(self) -> EvalTranslationRequest | str:
        """The request the fields say, or why they do not make one."""
        try:
            return EvalTranslationRequest(
                dialects=tuple(checked_data(self.dialects)),
                model=self.model_names.get(self.model.currentData()),
                judge=self.model_names.get(self.judge.currentData()),
                limit=self.limit.value() or None,
                seed=self.seed.value(),
                split=self.split.currentData(),
                normalize=self.normalize.currentData(),
                **self.index.values(),
            )
        except UserError as exc:
            return describe_error(exc, one_line=True)

    def start(self) -> Task | None:
        if self.task is not None:
            return self.task
        request = self.job_request()
        if isinstance(request, str):
            self._show(request, error=True)
            return None
        self._show(_("Running: progress, ETA and cancel are in the Jobs panel."))
        self.evaluate_button.setEnabled(False)
        task = self.bridge.run(
            evaluate_translations_at,
            args=(str(self.ws.path), request),
            lane=model_lane(self.model.currentData()),
            label=_("Evaluating translation into {dialects}").format(
                dialects=", ".join(
                    dialect_name(self.ws.dialect_names(), d) for d in request.dialects
                )
            ),
            on_done=self._done,
            on_error=self._failed,
            on_cancelled=self._cancelled,
        )
        if task.running:
            self.task = task
        return task

    def _done(self, result: EvalTranslationResult) -> None:
        self.task = None
        self.evaluate_button.setEnabled(True)
        self.last_result = result
        report = result.report
        text = _("Split {split}: {translated} of {pairs} held-out pairs translated.").format(
            split=report["split"], translated=report["translated"], pairs=report["pairs"]
        )
        missing = self._missing(report)
        self._show(" ".join([text, *missing]), error=bool(missing))
        rows = []
        systems = {"system": _("system"), "copy_baseline": _("copy baseline")}
        for dialect, entry in report["per_dialect"].items():
            for key, name in systems.items():
                m, judge = entry[key], entry.get("judge") if key == "system" else None
                rows.append(
                    [
                        dialect,
                        name,
                        str(m["n"]),
                        fmt(m["bleu"], 1),
                        fmt(m["chrf++"], 1),
                        fmt(m["wer"], 2),
                        self._judge_cell(judge, m["n"]),
                    ]
                )
        fill_table(self.scores, rows)
        checks = [
            _("dialect check {dialect}: {flagged} of {n} flagged").format(
                dialect=dialect, flagged=c["flagged"], n=c["n"]
            )
            for dialect, entry in report["per_dialect"].items()
            if (c := entry["dialect_check"])["n"]
        ]
        signatures = report["signatures"]
        self.notes.setText(
            for_gui(
                "\n".join(
                    [
                        *checks,
                        *(f"{k}: {v}" for k, v in signatures.items()),
                        *report.get("notes", ()),
                    ]
                )
            )
        )
        self.sig_status_message.emit(_("Translation evaluated on held-out pairs"))
        self.sig_finished.emit(result)

    @staticmethod
    def _missing(report: dict) -> list[str]:
        """What the run left undone (run it again to resume)."""
        out = []
        if report["missing"]:
            out.append(
                _("{n} of {pairs} held-out pairs not translated{why}.").format(
                    n=report["missing"],
                    pairs=report["pairs"],
                    why=_because(report["load_error"] or report.get("last_error")),
                )
            )
        if report["judge_missing"]:
            out.append(
                _("{n} of {translated} translations not judged{why}.").format(
                    n=report["judge_missing"],
                    translated=report["translated"],
                    why=_because(report["judge_load_error"] or report.get("judge_last_error")),
                )
            )
        if out:
            out.append(_("Run it again to resume."))
        return out

    @staticmethod
    def _judge_cell(judge: dict | None, n: int) -> str:
        if not judge:
            return ""
        return _("{mean} ({valid} of {n} valid)").format(
            mean=fmt(judge["mean"], 2), valid=judge["n_valid"], n=n
        )

    def _cancelled(self) -> None:
        self.task = None
        self.evaluate_button.setEnabled(True)
        self._show(_("Cancelled: run again to resume."))

    def _failed(self, exc: BaseException) -> None:
        self.task = None
        self.evaluate_button.setEnabled(True)
        self._show(
            _("Evaluation failed: {error}").format(error=describe_error(exc, one_line=True)),
            error=True,
        )

    def _show(self, text: str, *, error: bool = False) -> None:
        show_status(self.status, text, error=error)


def _because(cause: str | None) -> str:
    return " ({})".format(" ".join(for_gui(cause).split())) if cause else ""
