"""AgreementPanel: inter-annotator agreement per dialect, a chart, and each annotator's progress.

The numbers come from :func:`engine.annotation.tasks.agreement_at`, computed in the
bridge's pool (the bootstrap takes seconds on a large study) with ``upabhasha agreement``'s
settings (engine.annotation.api.AgreementSettings; PPI: PPISettings). Every value shows its
bootstrap interval and the number of items it rests on; undefined values show as "—".

``python -m widgets.annotation.agreement_panel [WORKSPACE]`` opens it alone.
"""

from __future__ import annotations

import logging
import sys

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.annotation.api import (
    AGREEMENT,
    PPI,
    AgreementSettings,
    PPISettings,
    inputs_stamp,
)
from engine.annotation.tasks import agreement_at, ppi_study_at
from engine.i18n import N_, _, digits
from engine.workspace.api import Workspace
from widgets.annotation.setup import AnnotationSetup, SetupPrompt
from widgets.common.columns import fit_columns_to_headers
from widgets.common.dialect_names import dialect_name
from widgets.common.hints import for_gui
from widgets.common.standalone import run_panel
from widgets.common.task_bridge import TaskBridge

log = logging.getLogger(__name__)


def _fmt(est: dict | None) -> str:
    if not est or est.get("value") is None:
        return "—"
    ci = "" if est.get("low") is None else f" [{est['low']:.2f}, {est['high']:.2f}]"
    # few items: the note (engine.annotation.agreement) is the cell's tooltip, marked here
    n = _("n={n}").format(n=est["n"])
    return digits(f"{est['value']:.3f}{ci} ") + n + (" *" if est.get("note") else "")


def _estimate(e: dict | None) -> str:
    if not e or e.get("estimate") is None:
        return "—"
    n = " " + _("n={n}").format(n=e["n"]) if "n" in e else ""
    return digits(f"{e['estimate']:.2f} [{e['low']:.2f}, {e['high']:.2f}]") + n


def group_name(names: dict[str, dict], group: str) -> str:
    """A row of the report: every dialect together, or one dialect by its name."""
    return _("all dialects") if group == "all" else dialect_name(names, group)


# why a cell's labels for the width have no number (engine.annotation.ppi)
_LABELS_NEEDED = {"undefined": N_("undefined"), "unreachable": N_("not reachable")}
_LABELS_NEEDED_WHY = {
    "undefined": N_("Fewer than 2 human labels in this cell: no variance to size it from."),
    "unreachable": N_(
        "The judge's variance over the unlabelled answers alone is wider than the width: "
        "more human labels cannot reach it."
    ),
}


def _labels_needed(need: tuple | None) -> str:
    """The labels a cell needs for the target width, or why it has no number."""
    if need is None:  # a gap row
        return "—"
    value, state = need
    if value is not None:
        return f"{value:.0f}"
    return _(_LABELS_NEEDED[state]) if state in _LABELS_NEEDED else "—"


class AlphaChart(QWidget):
    """Krippendorff's α (nominal, decision) per dialect: a dot and its interval."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.rows: list[tuple[str, dict]] = []
        self.level = AGREEMENT.level  # the intervals' (the report's settings)
        self.setMinimumHeight(160)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def set_rows(self, rows: list[tuple[str, dict]], level: float) -> None:
        self.rows, self.level = rows, level
        self.update()

    def paintEvent(self, _event) -> None:  # noqa: N802 - Qt's name
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), self.palette().base())
        left, right, top = 120.0, 20.0, 24.0
        width = max(10.0, self.width() - left - right)
        lo = min([-0.2] + [r["low"] for _n, r in self.rows if r.get("low") is not None])

        def x(v: float) -> float:
            return left + (v - lo) / (1 - lo) * width

        p.setPen(self.palette().text().color())
        p.drawText(
            QRectF(left, 2, width, 18),
            Qt.AlignmentFlag.AlignCenter,
            _("Krippendorff's alpha (decision, nominal) with {level}% CI").format(
                level=round(100 * self.level)
            ),
        )
        grid = QPen(QColor("#bbbbbb"))
        for tick in (lo, 0.0, 0.67, 0.8, 1.0):
            p.setPen(grid)
            p.drawLine(int(x(tick)), int(top), int(x(tick)), self.height() - 18)
            p.setPen(self.palette().text().color())
            p.drawText(
                QRectF(x(tick) - 20, self.height() - 16, 40, 14),
                Qt.AlignmentFlag.AlignCenter,
                digits(f"{tick:.2f}"),
            )
        step = (self.height() - top - 24) / max(1, len(self.rows))
        for i, (name, est) in enumerate(self.rows):
            y = top + step * (i + 0.5)
            p.setPen(self.palette().text().color())
            p.drawText(QRectF(4, y - 8, left - 10, 16), Qt.AlignmentFlag.AlignRight, name)
            if est.get("value") is None:
                continue
            p.setPen(QPen(QColor("#1f77b4"), 2))
            if est.get("low") is not None:
                p.drawLine(int(x(est["low"])), int(y), int(x(est["high"])), int(y))
            p.setBrush(QColor("#1f77b4"))
            p.drawEllipse(QRectF(x(est["value"]) - 4, y - 4, 8, 8))
        p.end()


class AgreementPanel(QWidget):
    sig_status_message = Signal(str)

    COLUMNS = (
        "items",
        "alpha_nominal",
        "fleiss",
        "cohen",
        "alpha_ordinal",
        "alpha_interval",
        "chrf",
        "rouge",
    )

    def __init__(
        self,
        ws: Workspace,
        bridge: TaskBridge,
        parent: QWidget | None = None,
        *,
        setup: AnnotationSetup | None = None,
    ):
        super().__init__(parent)
        self.ws, self.bridge = ws, bridge
        self.setup = setup or AnnotationSetup(ws, self, bridge=bridge)
        self.prompt = SetupPrompt(self.setup, "decided")
        self.report: dict | None = None
        self.ppi_study: dict | None = None
        self.status = QLabel(_("Press Compute to measure agreement."))
        self.compute_button = QPushButton(_("&Compute"))
        self.compute_button.clicked.connect(self.compute)
        top = QHBoxLayout()
        top.addWidget(self.status, 1)
        top.addWidget(self.compute_button)
        self.table = QTableWidget(0, len(self.COLUMNS))
        self.table.setHorizontalHeaderLabels(
            [
                _("Items"),
                _("α decision (nominal)"),
                _("Fleiss κ"),
                _("Cohen κ (pairs)"),
                _("α score (ordinal)"),
                _("α score (interval)"),
                _("chrF of edits (0–100)"),
                _("ROUGE-L F1 of edits (0–1)"),
            ]
        )
        self.chart = AlphaChart()
        self.progress = QTableWidget(0, 4)
        self.progress.verticalHeader().setVisible(False)  # one row per annotator, named
        self.progress.setHorizontalHeaderLabels(
            [_("Annotator"), _("Assigned"), _("Decided"), _("Median seconds per item")]
        )
        self.ppi_label = QLabel()
        self.ppi_label.setWordWrap(True)
        self.ppi = QTableWidget(0, 6)
        self.ppi.setHorizontalHeaderLabels(
            [
                _("Model"),
                _("Dialect"),
                _("PPI (judge corrected by humans)"),
                _("Judge only"),
                _("Human only"),
                _("Human labels for the target width"),
            ]
        )
        for table in (self.table, self.progress, self.ppi):
            fit_columns_to_headers(table)
            # results, not inputs: a stray keystroke must not change a figure
            table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        ppi_box = QWidget()
        ppi_layout = QVBoxLayout(ppi_box)
        ppi_layout.setContentsMargins(0, 0, 0, 0)
        self.draw_button = QPushButton(_("&Draw answers for human scoring…"))
        self.draw_button.clicked.connect(
            lambda _checked=False: self.setup.draw_for_scoring(self.window())
        )
        self.draw_button.setVisible(False)
        ppi_top = QHBoxLayout()
        ppi_top.addWidget(self.ppi_label, 1)
        ppi_top.addWidget(self.draw_button)
        ppi_layout.addLayout(ppi_top)
        ppi_layout.addWidget(self.ppi, 1)
        lower = QSplitter()
        lower.addWidget(self.chart)
        lower.addWidget(self.progress)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.table)
        splitter.addWidget(lower)
        splitter.addWidget(ppi_box)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.prompt)
        layout.addWidget(splitter, 1)
        self.prompt.refresh()

    def mark_stale(self) -> None:
        """Decisions or assignments changed (a merged package, another annotator): the setup
        line follows at once; the shown figures are out of date when what agreement reads
        changed (a merge that added nothing leaves them current). While the panel is shown,
        recomputing (a bootstrap) waits for Compute; the next time it is opened it computes."""
        self.prompt.refresh()
        if self.report is not None and self._stale():
            self.status.setText(
                _("Out of date: decisions changed since this was computed. Press Compute.")
            )

    def _stale(self) -> bool:
        return self.report is None or self.report.get("inputs_stamp") != inputs_stamp(self.ws)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        """Opened: current figures, computed now when decisions exist and none are shown or
        what agreement reads changed since."""
        super().showEvent(event)
        if not self.prompt.refresh() and self.compute_button.isEnabled() and self._stale():
            self.compute()

    def agreement_settings(self) -> AgreementSettings:
        """How agreement is computed: ``upabhasha agreement``'s defaults."""
        return AGREEMENT

    def ppi_settings(self) -> PPISettings:
        """How the prediction-powered estimates are computed: ``upabhasha ppi``'s defaults."""
        return PPI

    def compute(self) -> None:
        self.prompt.refresh()
        self.compute_button.setEnabled(False)
        self.status.setText(_("Computing agreement (bootstrap)…"))
        self.bridge.run(
            agreement_at,
            args=(str(self.ws.path),),
            kwargs={"settings": self.agreement_settings()},
            on_done=self.show_report,
            on_error=self._failed,
            label=_("Agreement"),
            replace="agreement",
        )
        self.bridge.run(
            ppi_study_at,
            args=(str(self.ws.path),),
            kwargs={"settings": self.ppi_settings()},
            on_done=self.show_ppi,
            on_error=self._failed,
            label=_("Prediction-powered estimates"),
            replace="ppi",
        )

    def show_ppi(self, study: dict | None) -> None:
        self.ppi_study = study
        self.draw_button.setVisible(study is None)
        if study is None:
            can_draw = self.setup.can_draw_for_scoring()
            self.draw_button.setEnabled(can_draw)
            self.draw_button.setToolTip("" if can_draw else _("Judge some answers first"))
            self.ppi_label.setText(
                _(
                    "No random subset of judged answers drawn for human scoring yet: the "
                    "judge-corrected estimates appear here once one is drawn and scored."
                )
            )
            self.ppi.setRowCount(0)
            return
        self.ppi_label.setText(
            _(
                "Human labels correct the judge (prediction-powered inference): score scale "
                "{scale}, random subset seed {seed}; {intervals}."
            ).format(
                scale=study["scale"],
                seed=study["seed"],
                intervals=PPISettings.of(study).interval_note(),
            )
        )
        rows = [
            (
                c["model"],
                c["dialect"],
                c["ppi"],
                c["judge_only"],
                c["human_only"],
                (c["labels_for_width"], c.get("labels_for_width_state")),
            )
            for c in study["cells"]
        ] + [
            (
                g["model"],
                _("gap {dialect} − standard").format(dialect=g["dialect"]),
                dict(g, estimate=g["gap"]),
                None,
                None,
                None,
            )
            for g in study["gaps"]
        ]
        # below 30 labels a cell's Student-t interval stands beside PPI's, with why
        small = {(c["model"], c["dialect"]): c["ppi_t"] for c in study["cells"] if c.get("ppi_t")}
        self.ppi.setRowCount(len(rows))
        for row, (model, dialect, ppi, judge, human, need) in enumerate(rows):
            t = small.get((model, dialect))
            cells = [
                model,
                dialect,
                _estimate(ppi)
                + ("" if t is None else "  " + _("t: [{low:.2f}, {high:.2f}]").format(**t)),
                _estimate(judge),
                _estimate(human),
                _labels_needed(need),
            ]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if col == 2 and t is not None:
                    item.setToolTip(t["note"])
                if col == 5 and need is not None and need[1]:
                    item.setToolTip(_(_LABELS_NEEDED_WHY[need[1]]))
                self.ppi.setItem(row, col, item)
        self.ppi.resizeColumnsToContents()

    def _failed(self, exc: BaseException) -> None:
        self.compute_button.setEnabled(True)
        self.status.setText(for_gui(str(exc)))
        self.sig_status_message.emit(for_gui(str(exc)))

    def show_report(self, report: dict) -> None:
        self.report = report
        self.compute_button.setEnabled(True)
        groups = report["by_dialect"]
        self.table.setRowCount(len(groups))
        names = self.ws.dialect_names()
        self.table.setVerticalHeaderLabels([group_name(names, g) for g in groups])
        for row, fields in enumerate(groups.values()):
            dec, score, edits = fields["decision"], fields["score"], fields["edits"]
            cohen = "\n".join(
                f"{c['pair'][0]}/{c['pair'][1]}: {_fmt(c)}" for c in dec["cohen_kappa"]
            )
            cells = [
                digits(str(dec["items"])),
                _fmt(dec["alpha_nominal"]),
                _fmt(dec["fleiss_kappa"]),
                cohen or "—",
                _fmt(score["alpha_ordinal"]),
                _fmt(score["alpha_interval"]),
                "—" if edits["chrf"] is None else digits(f"{edits['chrf']:.1f} ({edits['pairs']})"),
                "—" if edits["rouge_l_f1"] is None else digits(f"{edits['rouge_l_f1']:.3f}"),
            ]
            noted = {
                1: dec["alpha_nominal"],
                2: dec["fleiss_kappa"],
                4: score["alpha_ordinal"],
                5: score["alpha_interval"],
            }
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                est = noted.get(col) or {}
                if est.get("note"):
                    item.setToolTip(
                        _(
                            "* Only {n} items: a bootstrap over so few items is coarse, and "
                            "the interval may not contain the estimate."
                        ).format(n=est["n"])
                    )
                self.table.setItem(row, col, item)
        self.table.resizeColumnsToContents()
        self.table.resizeRowsToContents()
        settings = AgreementSettings.of(report)
        self.chart.set_rows(
            [(group_name(names, n), f["decision"]["alpha_nominal"]) for n, f in groups.items()],
            settings.level,
        )
        self.progress.setRowCount(len(report["progress"]))
        for row, r in enumerate(report["progress"]):
            secs = r["median_seconds"]
            for col, text in enumerate(
                [
                    r["annotator"],
                    digits(str(r["assigned"])),
                    digits(str(r["decided"] or 0)),
                    "—" if secs is None else digits(f"{secs:.0f}"),
                ]
            ):
                self.progress.setItem(row, col, QTableWidgetItem(text))
        self.progress.resizeColumnsToContents()
        items = groups.get("all", {}).get("decision", {}).get("items", 0)
        self.status.setText(
            _("{items} items with two or more annotators; {intervals}").format(
                items=items, intervals=settings.interval_note()
            )
        )


def main(argv: list[str] | None = None) -> int:
    def after_show(panel, bridge, args, workspace):
        panel.compute()

    return run_panel(
        "python -m widgets.annotation.agreement_panel",
        _("Agreement"),
        lambda workspace, bridge, args: AgreementPanel(workspace, bridge),
        sample="annotation",
        size=(1200, 720),
        after_show=after_show,
        argv=argv,
    )


if __name__ == "__main__":
    sys.exit(main())
