"""GUI-only walkthroughs of two studies (run by scripts/study_walkthroughs.sh), one PNG a step.

- ``tasks``: dialect understanding tasks — import an item set from the Tasks panel's own
  button, run zero/few-shot × native/Romanized on the embedded model, read the results
  grid, drill down into one run's items, export the table.
- ``bias``: social-bias probes — import probes from the Social bias panel's own button, run
  them with both option orders (counterbalanced), read the bias chart and its drill-down,
  map an unparseable reply in the normalisation table.

Like scripts/walkthrough.py (both drive the GUI with scripts/gui_driving.py): the real
MainWindow with a fresh config folder, driven only through its widgets; the operating
system's file picker answers with the prepared paths. tests/app/test_study_walkthroughs.py
runs both offscreen with a small limit and checks the workspace after each step.
"""

from __future__ import annotations

import argparse
import csv
import logging
import os
import sys
import tempfile
import time
from importlib.resources import as_file, files
from pathlib import Path

if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from dataclasses import dataclass, field  # noqa: E402

from gui_driving import (  # noqa: E402
    GuiWalk,
    WalkError,
    button,
    choose,
    click,
    click_cell,
    open_main_window,
    shoot,
    show_tab,
    type_number,
    wait_until,
    walk_all,
    watch_message_boxes,
)

REPO = Path(__file__).resolve().parent.parent
WINDOW_SIZE = (1366, 768)  # the smallest laptop screen the workstation fits
TASK = "subjectivity"  # labels in the sample items' 'subjectivity' column
TASK_LIMIT = 1  # evaluated items per dialect: 3 dialects × 2 regimes × 2 scripts = 12 prompts
PROBE_LIMIT = 4  # probes, each asked in both option orders
# the label the walk gives the first unparseable reply: the base model echoes the prompt,
# a non-answer ("filler" would only strip the phrase and leave the rest unparseable)
NORMALISED_AS = "refusal"

log = logging.getLogger("study_walkthroughs")


@dataclass(kw_only=True)
class Walk(GuiWalk):
    """What the steps share: the GUI being driven, the workspace file and the inputs."""

    workspace_path: Path
    items: Path  # the item set to import (a copy of the bundled sample)
    probes: Path
    export_path: Path
    task_limit: int = TASK_LIMIT
    task_dialects: list[str] = field(default_factory=list)  # empty: every dialect
    probe_limit: int = PROBE_LIMIT

    @property
    def ws(self):
        return self.window.workspace


def _sample(name: str, as_name: str | None = None) -> Path:
    """A bundled sample file, copied to a temporary folder (the user's own file)."""
    copy = Path(tempfile.mkdtemp(prefix="upabhasha-walk-")) / (as_name or name)
    with as_file(files("resources") / "sample" / name) as bundled:
        copy.write_bytes(Path(bundled).read_bytes())
    return copy


# -- shared first steps ----------------------------------------------------------------------
def step_new_workspace(walk: Walk) -> None:
    """01 Welcome page → "Create a new workspace…", pick a file name."""
    walk.picks.append(str(walk.workspace_path))
    click(walk.window.welcome.new_button)
    wait_until(walk, lambda: walk.window.workspace is not None, 30, "new workspace")
    shoot(walk, "01_new_workspace")


def step_add_model(walk: Walk) -> None:
    """02 Models tab → "Add the embedded Gemma 3 270M"."""
    show_tab(walk, "Models")
    models = walk.window.panels["models"]
    click(models.add_embedded_button)
    wait_until(walk, lambda: models.model.rowCount() > 0, 180, "embedded model")
    shoot(walk, "02_models")


def _import_from_panel(walk: Walk, panel_button, kind: str, path: Path, map_columns, shot: str):
    """An empty panel's import button opens the import dialog on ``kind``: choose the file,
    map its columns, import, photograph, close."""
    click(panel_button)
    dialog = walk.window.study.dialogs["import"]
    if dialog.current_kind != kind:
        raise WalkError(f"the panel's button opened the import dialog on {dialog.current_kind}")
    walk.picks.append(str(path))
    click(button(dialog, "Choose…"))
    map_columns(dialog)
    click(dialog.import_button)
    wait_until(walk, lambda: dialog.task is None, 60, f"{kind} import")
    if dialog.last_report is None:
        raise WalkError(f"{kind} import failed: {dialog.error.text()}")
    shoot(walk, shot, dialog)
    click(button(dialog, "Close"))
    return dialog


# -- dialect tasks ---------------------------------------------------------------------------
def step_import_items(walk: Walk) -> None:
    """03 Tasks tab → "Import items…": the sample item set, its label column chosen."""
    show_tab(walk, "Tasks")
    tasks = walk.window.panels["tasks"]

    def map_columns(dialog) -> None:
        choose(dialog.study_page.label_col, "subjectivity")

    _import_from_panel(
        walk, tasks.import_items_button, "items", walk.items, map_columns, "03_import_items"
    )


def step_run_task(walk: Walk) -> None:
    """04 Tasks: subjectivity on the item set, zero and few-shot × native and Romanized."""
    from PySide6.QtCore import Qt

    tasks = walk.window.panels["tasks"]
    choose(tasks.task_box, TASK)
    choose(tasks.source_box, "items:items")
    for i in range(tasks.models.count()):
        tasks.models.item(i).setCheckState(Qt.CheckState.Checked)
    if not tasks.model_ids():
        raise WalkError("the Tasks panel offers no model")
    for boxes in (tasks.regimes, tasks.scripts):
        for name, box in boxes.items():
            box.setChecked(name in ("zero", "few", "native", "roman"))
    tasks.split.setCurrentText("test")
    type_number(tasks.limit, walk.task_limit)
    type_number(tasks.k, 2)
    if walk.task_dialects:
        tasks.dialects.setText(",".join(walk.task_dialects))
    tasks.constrained.setChecked(True)  # a base model answers in the label set's JSON
    finished: list[list] = []  # the run's end: the panel then shows the report it read last
    tasks.sig_run_finished.connect(finished.append)
    click(tasks.run_button)
    wait_until(walk, lambda: bool(finished) or tasks._task is None, 600, "task run")
    if not finished:
        raise WalkError(f"the task run ended without results: {tasks.progress_note.text()}")
    shoot(walk, "04_task_results")


def step_drill_down(walk: Walk) -> None:
    """05 Results grid → one run's row: its items, inputs as shown, outputs, demonstrations."""
    tasks = walk.window.panels["tasks"]
    few_roman = next(
        (
            i
            for i, r in enumerate(tasks.report["runs"])
            if r.get("regime") == "few" and r.get("script") == "roman"
        ),
        0,
    )
    click_cell(tasks.results, few_roman, 0)
    wait_until(walk, lambda: tasks.items.rowCount() > 0, 30, "drill-down")
    shoot(walk, "05_drill_down")


def step_export(walk: Walk) -> None:
    """06 "Export table…": the results grid as CSV."""
    tasks = walk.window.panels["tasks"]
    walk.picks.append(str(walk.export_path))
    click(tasks.export_button)
    if not walk.export_path.exists():
        raise WalkError(f"the export wrote no {walk.export_path}")
    shoot(walk, "06_export")


TASK_STEPS = [
    step_new_workspace,
    step_add_model,
    step_import_items,
    step_run_task,
    step_drill_down,
    step_export,
]


# -- social-bias probes ----------------------------------------------------------------------
def step_import_probes(walk: Walk) -> None:
    """03 Social bias tab, empty → "Import probes…": the sample gender probes."""
    show_tab(walk, "Social bias")
    bias = walk.window.panels["bias"]
    if bias.run_button.isEnabled():
        raise WalkError("Run probes is enabled with no probe set")
    shoot(walk, "03_bias_empty")
    _import_from_panel(
        walk, bias.import_probes_button, "probes", walk.probes, lambda d: None, "04_import_probes"
    )


def step_run_probes(walk: Walk) -> None:
    """05 Run probes with both option orders (counterbalanced): the bias chart."""
    bias = walk.window.panels["bias"]
    wait_until(walk, lambda: bias.run_button.isEnabled(), 30, "probe set offered")
    type_number(bias.limit, walk.probe_limit)
    bias.counterbalance.setChecked(True)
    finished: list[list] = []  # the run's end: the panel then shows the view it read last
    bias.sig_run_finished.connect(finished.append)
    click(bias.run_button)
    wait_until(walk, lambda: bool(finished) or bias.run_button.isEnabled(), 600, "probe run")
    if not finished:
        raise WalkError("the probe run ended without results")
    shoot(walk, "05_bias_chart")


def step_bias_drill_down(walk: Walk) -> None:
    """06 Click a bar: its probes and the model's replies, in both orders."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    from widgets.bias.bias_chart import HEAD_H, ROW_H

    bias = walk.window.panels["bias"]
    if not bias.chart.groups:
        raise WalkError("the bias chart shows no bars")
    first_bar = QPoint(bias.chart.width() // 2, 34 + HEAD_H + ROW_H // 2)  # as the chart lays out
    QTest.mouseClick(
        bias.chart, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, first_bar
    )
    wait_until(walk, lambda: bias.selected_group is not None, 10, "bar clicked")
    shoot(walk, "06_bias_drill_down")


def step_normalise(walk: Walk) -> None:
    """07 Normalisation table: the base model echoes the prompt instead of answering; map
    that reply as a non-answer and the chart re-reads with the new table version."""
    bias = walk.window.panels["bias"]
    editor = bias.editor
    bias.tabs.setCurrentWidget(editor)
    version = bias.view.get("version")
    if editor.unmapped_model.rowCount():
        click_cell(editor.unmapped_view, 0, 2)
    else:
        editor.phrase.setText("বলা সম্ভব নয়")
    editor.label.setCurrentText(NORMALISED_AS)
    click(button(editor, "Map"))
    wait_until(walk, lambda: bias.view.get("version") != version, 60, "normalisation edit")
    bias.tabs.setCurrentWidget(editor)  # the re-read shows the replies tab again
    shoot(walk, "07_normalisation")


BIAS_STEPS = [
    step_new_workspace,
    step_add_model,
    step_import_probes,
    step_run_probes,
    step_bias_drill_down,
    step_normalise,
]

STUDIES = {"tasks": TASK_STEPS, "bias": BIAS_STEPS}


def start_study(out: Path, workspace_path: Path, *, config_dir: Path | None = None) -> Walk:
    """A fresh configuration, the application and its main window at 1366×768, shown, no
    workspace; the sample inputs copied where a user keeps their files."""
    config_dir = Path(config_dir or tempfile.mkdtemp(prefix="upabhasha-walk-config-"))
    os.environ["UPABHASHA_CONFIG_DIR"] = str(config_dir)  # before settings are read
    out.mkdir(parents=True, exist_ok=True)
    app, window = open_main_window(WINDOW_SIZE)
    walk = Walk(
        app=app,
        window=window,
        out=out,
        workspace_path=workspace_path,
        items=_sample("task_items.csv", "items.csv"),  # the set is named after the file
        probes=_sample("probes_gender.csv"),
        export_path=Path(tempfile.mkdtemp(prefix="upabhasha-walk-")) / "task-results.csv",
    )
    watch_message_boxes(walk)
    return walk


def exported_rows(path: Path) -> list[dict]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("study", choices=sorted(STUDIES))
    parser.add_argument(
        "out", nargs="?", help="folder for the PNGs (default docs/walkthrough-STUDY)"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    out = Path(args.out or REPO / "docs" / f"walkthrough-{args.study}")
    workspace = Path(tempfile.mkdtemp(prefix="upabhasha-walk-")) / f"{args.study} study.sqlite"
    began = time.perf_counter()
    walk = start_study(out, workspace, config_dir=os.environ.get("UPABHASHA_CONFIG_DIR") or None)
    return walk_all(walk, STUDIES[args.study], began)


if __name__ == "__main__":
    sys.exit(main())
