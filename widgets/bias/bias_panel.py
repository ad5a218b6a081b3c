"""BiasPanel: the social-bias study (paper 002) — scores per category as diverging bars,
live while a probe run fills, a drill-down to probes and raw replies, and the
answer-normalisation table editor with the unmapped replies waiting.

Everything is computed in the engine through the bridge (:mod:`engine.bias.tasks`); the
panel recomputes when the workspace watcher says probes, replies or runs changed (a CLI run,
the bridge's own probe task), at once if it is shown, else when it is next shown. Exports: PNG, SVG, PDF of the
chart; CSV and LaTeX of the table.

``python -m widgets.bias.bias_panel [WORKSPACE]`` opens the panel alone (sample: a workspace with
the bundled sample probes and scripted replies).
"""

from __future__ import annotations

import collections
import logging
import sys

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from engine.bias import tasks as bias_tasks
from engine.bias.api import bias_notes, build_bias_sample, sample_bias_path
from engine.i18n import _, digits
from engine.workspace.api import Workspace
from widgets.bias.bias_chart import BiasChart
from widgets.bias.bias_export import write_export
from widgets.bias.bias_normalisation import NormalisationEditor, RowsModel, table_view
from widgets.bias.probe_run import VIEW_KEY, ProbeRunning
from widgets.bias.rule_box import RuleBox
from widgets.common import file_dialogs, hints
from widgets.common.file_dialogs import EXPORTS
from widgets.common.job_estimate import estimate_and_actual
from widgets.common.labels import label
from widgets.common.standalone import run_panel
from widgets.common.task_bridge import TaskBridge
from widgets.common.workspace_watcher import WorkspaceWatcher

log = logging.getLogger(__name__)

# what the statistics and the run options are read from
BIAS_TOPICS = frozenset({"probes", "responses", "runs", "models", "probe_runs"})


class BiasPanel(ProbeRunning, QWidget):
    sig_status_message = Signal(str)
    sig_changed = Signal()  # the normalisation table was edited or a probe run finished
    sig_refreshed = Signal(dict)  # the view data shown (tests, other panels)
    sig_run_finished = Signal(list)  # a probe run's summaries, its final view shown
    sig_import_requested = Signal(str)  # "probes" / "probe-templates": the import dialog

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
        self.view: dict = {}
        self.selected_group: dict | None = None

        self.runs = QComboBox()
        self.runs.currentIndexChanged.connect(self._show_run)
        self.rule = RuleBox()
        self.rule.currentIndexChanged.connect(lambda _i: self.refresh())
        self.export_kind = QComboBox()
        for kind in ("PNG", "SVG", "PDF", "CSV", "LaTeX"):
            self.export_kind.addItem(kind)
        export = QPushButton(_("Export…"))
        export.clicked.connect(self._export_dialog)
        self.info = QLabel()
        self.info.setWordWrap(True)
        # the empty state's way out: the import dialog, opened by the window
        self.import_probes_button = QPushButton(_("Import probes…"))
        self.import_probes_button.clicked.connect(lambda: self.sig_import_requested.emit("probes"))
        self.generate_probes_button = QPushButton(_("Generate probes from templates…"))
        self.generate_probes_button.clicked.connect(
            lambda: self.sig_import_requested.emit("probe-templates")
        )
        info_row = QHBoxLayout()
        info_row.addWidget(self.info, 1)
        info_row.addWidget(self.import_probes_button)
        info_row.addWidget(self.generate_probes_button)
        top = QHBoxLayout()
        top.addWidget(QLabel(_("Run")))
        top.addWidget(self.runs, 3)
        top.addWidget(self.rule, 1)
        top.addWidget(self.export_kind)
        top.addWidget(export)

        run_row = self._probe_row(bridge)  # probe a model from here

        self.chart = BiasChart()
        self.chart.sig_group_clicked.connect(self.show_group)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.chart)

        self.replies_model = RowsModel(
            [
                ("ext_id", _("Probe")),
                ("order", _("Order")),
                ("outcome", _("Outcome")),
                ("text", _("Reply")),
                ("prompt", _("Prompt as shown")),
            ]
        )
        self.replies_view = table_view(self.replies_model)
        self.group_label = QLabel(_("Click a bar to see its probes and replies."))
        drill = QWidget()
        dl = QVBoxLayout(drill)
        dl.addWidget(self.group_label)
        dl.addWidget(self.replies_view)

        self.editor = NormalisationEditor(str(workspace.path), bridge)
        self.editor.sig_status_message.connect(self.sig_status_message)
        self.editor.sig_mapped.connect(self._on_mapped)
        self.shift_model = RowsModel(
            [
                ("run_id", _("Run")),
                ("model", _("Model")),
                ("dialect", _("Dialect")),
                ("category", _("Category")),
                ("subcategory", _("Trait")),
                ("n_probes", _("Probes")),
                ("standard_score", _("Standard")),
                ("dialect_score", _("Dialect")),
                ("shift", _("Change")),
                ("ci_low", _("CI low")),
                ("ci_high", _("CI high")),
                ("note", _("Note")),
            ]
        )
        self.shift_view = table_view(self.shift_model)

        self.tabs = QTabWidget()
        self.tabs.addTab(drill, _("Probes and replies"))
        self.tabs.addTab(self.editor, _("Normalisation table"))
        self.tabs.addTab(self.shift_view, _("Dialect change"))
        body = QSplitter(Qt.Orientation.Vertical)
        body.addWidget(scroll)
        body.addWidget(self.tabs)
        body.setSizes([520, 300])

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(run_row)
        layout.addWidget(self.job)
        layout.addWidget(self.estimate)
        layout.addLayout(info_row)
        layout.addWidget(body, 1)

        self._stale = False
        self.watcher = watcher or WorkspaceWatcher(workspace.path, parent=self)
        self.watcher.sig_changed.connect(self._on_workspace_changed)
        self.refresh()

    # -- data ------------------------------------------------------------------------------
    def refresh(self) -> None:
        self._stale = False
        self.bridge.run(
            bias_tasks.bias_view_at,
            args=(str(self.ws.path),),
            kwargs={"settings": self.rule.settings()},
            on_done=self._on_view,
            label=_("Bias statistics"),
            replace=VIEW_KEY,
            quiet=True,
        )

    def _on_workspace_changed(self, topics: frozenset[str]) -> None:
        if topics & BIAS_TOPICS:
            if self.isVisible():
                self.refresh()
            else:
                self._stale = True

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._stale:
            self.refresh()

    def _on_view(self, view: dict) -> None:
        self.view = view
        stats = view["stats"]
        current = self.runs.currentData()
        self.runs.blockSignals(True)
        self.runs.clear()
        for o in stats["overall"]:
            self.runs.addItem(
                f"{digits(o['run_id'])}: {o['model']} — {o['probe_set']} ({mode_text(o['mode'])})",
                o["run_id"],
            )
        per_set = collections.Counter(o["probe_set"] for o in stats["overall"])
        for name, n in per_set.items():
            if n > 1:
                self.runs.addItem(
                    _("{set}: all {n} runs side by side").format(set=name, n=n), f"set:{name}"
                )
        index = self.runs.findData(current)
        self.runs.setCurrentIndex(index if index >= 0 else 0)
        self.runs.blockSignals(False)
        self._fill_combo(self.model, [(m["name"], m["id"]) for m in view["models"]])
        self._fill_combo(
            self.probe_set,
            [(_("all sets"), None)] + [(s["name"], s["name"]) for s in view["sets"]],
        )
        has_sets = bool(view["sets"])
        self.run_button.setEnabled(has_sets and self.job.task is None)  # not while probing
        self.import_probes_button.setVisible(not has_sets)
        self.generate_probes_button.setVisible(not has_sets)
        self.editor.set_view(view)
        self.shift_model.set_rows(
            [
                {k: (f"{v:+.2f}" if isinstance(v, float) else v) for k, v in row.items()}
                for row in stats["dialect_shift"]
            ]
        )
        self._show_run()
        self.sig_refreshed.emit(view)

    @staticmethod
    def _fill_combo(combo: QComboBox, items: list[tuple[str, object]]) -> None:
        current = combo.currentData()
        combo.blockSignals(True)
        combo.clear()
        for text, data in items:
            combo.addItem(text, data)
        index = combo.findData(current)
        combo.setCurrentIndex(index if index >= 0 else 0)
        combo.blockSignals(False)

    def _show_set(self, name: str) -> None:
        """Every run on one probe set in one chart (models and modes side by side)."""
        stats = self.view["stats"]
        runs = [o for o in stats["overall"] if o["probe_set"] == name]
        ids = {o["run_id"] for o in runs}
        groups = [{**g, "compare": True} for g in stats["groups"] if g["run_id"] in ids]
        o = runs[0]
        title = _("{set}, {n} runs: bias score tanh(ln Cx/Cy), + = {x}, − = {y}").format(
            set=name, n=len(runs), x=label("group", o["group_x"]), y=label("group", o["group_y"])
        )
        self.chart.set_data(title, groups, (o["group_x"], o["group_y"]))
        self.info.setText(
            "; ".join(
                _("run {id}: {model} ({mode}), {n} replies, refusal {r}, unparseable {u}").format(
                    id=r["run_id"],
                    model=r["model"],
                    mode=mode_text(r["mode"]),
                    n=r["n"],
                    r=_pct(r["refusal_rate"]),
                    u=_pct(r["unparseable_rate"]),
                )
                for r in runs
            )
            + ". {rule}; {ci}".format(**bias_notes(stats))
        )
        self._show_replies(None)

    def _show_run(self) -> None:
        stats = self.view.get("stats") or {}
        run_id = self.runs.currentData()
        if isinstance(run_id, str) and run_id.startswith("set:"):
            self._show_set(run_id.removeprefix("set:"))
            return
        overall = [o for o in stats.get("overall", []) if o["run_id"] == run_id]
        if not overall:
            self.chart.set_data(_("No probe replies yet"), [], ("x", "y"))
            self.info.setText(
                _("Choose a model and a probe set, then Run probes.")
                if self.view.get("sets")
                else _("No probe sets yet: import probes or generate them from templates.")
            )
            return
        o = overall[0]
        groups = [g for g in stats["groups"] if g["run_id"] == run_id]
        title = _("{model} — {set}: bias score tanh(ln Cx/Cy), + = {x}, − = {y}").format(
            model=o["model"],
            set=o["probe_set"],
            x=label("group", o["group_x"]),
            y=label("group", o["group_y"]),
        )
        self.chart.set_data(title, groups, (o["group_x"], o["group_y"]))
        pos = next((p for p in stats["position"] if p["run_id"] == run_id), None)
        share = (
            "—"
            if not pos or pos["first_option_share"] is None
            else digits(f"{pos['first_option_share']:.2f} (n = {pos['n']})")
        )
        self.info.setText(
            _(
                "{n} replies ({mode}); refusal {r}, unparseable {u}; first-option share {share} "
                "(0.5 = no position bias). {rule}; {ci}; {bands}. * = zero-count rule applied."
            ).format(
                n=o["n"],
                mode=mode_text(o["mode"]),
                r=_pct(o["refusal_rate"]),
                u=_pct(o["unparseable_rate"]),
                share=share,
                **bias_notes(stats),
            )
        )
        if self.selected_group and self.selected_group.get("run_id") == run_id:
            self.show_group(self.selected_group)
        else:
            self._show_replies(None)

    def show_group(self, group: dict) -> None:
        self.selected_group = group
        self._show_replies(group)
        self.tabs.setCurrentIndex(0)

    def _show_replies(self, group: dict | None) -> None:
        run_id = group["run_id"] if group else self.runs.currentData()
        rows = [r for r in self.view.get("replies", []) if r["run_id"] == run_id]
        if group is not None:
            rows = [
                r
                for r in rows
                if r["category"] == group["category"]
                and r["subcategory"] == group["subcategory"]
                and bool(r["occupation_mixed"]) == group["occupation_mixed"]
            ]
            self.group_label.setText(
                _("{cat} / {sub}: {n} replies").format(
                    cat=group["category"] or "—", sub=group["subcategory"] or "—", n=len(rows)
                )
            )
        self.replies_model.set_rows(rows)

    def _on_mapped(self, _result: dict) -> None:
        self.sig_changed.emit()
        self.refresh()

    # -- probing (the row, its request and the run: widgets.bias.probe_run) ----------------
    def _on_probed(self, result: dict) -> None:
        summaries = result["summaries"]
        self.run_button.setEnabled(True)
        self.job.finish()
        done = sum(s["done_now"] for s in summaries)
        message = _("Probing finished: {n} new replies").format(n=done)
        timing = estimate_and_actual(*summaries)
        failed = hints.load_failure(summaries, _("Probing failed: {error}"))
        self.sig_status_message.emit(failed or (f"{message} · {timing}" if timing else message))
        # the view read after the run's last write (reads started before it are dropped),
        # unless the zero-count rule was changed meanwhile: then a read with the new one
        if result["view"]["rule"] == self.rule.settings().zero_rule:
            self._on_view(result["view"])
        else:
            self.refresh()
        self.sig_changed.emit()
        self.sig_run_finished.emit(summaries)

    # -- exports ----------------------------------------------------------------------------
    def _export_dialog(self) -> None:
        kind = self.export_kind.currentText().lower()
        suffix = {"latex": "tex"}.get(kind, kind)
        path = file_dialogs.save_file(
            self, EXPORTS, _("Export"), f"bias.{suffix}", f"{kind.upper()} (*.{suffix})"
        )
        if path:
            self.export(path)

    def export(self, path: str) -> None:
        if write_export(path, self.chart, self.view.get("stats")):
            self.sig_status_message.emit(_("Exported {path}").format(path=path))
        else:
            self.sig_status_message.emit(_("Nothing to export yet."))


def mode_text(mode: str) -> str:
    """A run's mode ("free, order seed 0, instruction 566fc824") in the interface language."""
    parts = []
    for part in (p.strip() for p in mode.split(",")):
        seed = part.removeprefix("order seed ")
        if seed != part and seed.isdigit():
            parts.append(_("order seed {seed}").format(seed=int(seed)))
        elif part.startswith("instruction "):
            parts.append(_("instruction {sha}").format(sha=part.removeprefix("instruction ")))
        elif part:
            parts.append(label("probe_mode", part))
    return ", ".join(parts)


def _pct(v) -> str:
    return "—" if v is None else digits(f"{100 * v:.0f}%")


def main(argv: list[str] | None = None) -> int:

    def add_arguments(parser) -> None:
        parser.add_argument("workspace", nargs="?", help="default: a sample bias workspace")

    def build(_ws, bridge, args):
        path = args.workspace or build_bias_sample(sample_bias_path())
        return BiasPanel(Workspace(path, create=False), bridge)

    return run_panel(
        "python -m widgets.bias.bias_panel",
        _("Social bias"),
        build,
        sample=None,
        add_arguments=add_arguments,
        argv=argv,
    )


if __name__ == "__main__":
    sys.exit(main())
