"""The GUI-only walkthrough of a first study (run by scripts/walkthrough.sh), one PNG a step.

Starts the real MainWindow with a fresh config folder and no workspace, then acts as a new
user would, only through the window's widgets: it clicks buttons, fills fields and combos,
triggers the QActions of the menus, and presses the review panel's keyboard shortcuts.
The one thing replaced is the operating system's file picker (QFileDialog's static
functions return the path the user would pick). Background jobs are awaited by
processing events, never by sleeping on the GUI thread.

The steps are module-level functions over a :class:`Walk`, shared with
tests/app/test_walkthrough.py, which runs the same walk offscreen and checks the
workspace after each step. Model work is kept tiny (the embedded Gemma 3 270M): three
questions, two dialects, short answers. The user's hands (clicks, typing, the file picker,
the pictures) are in scripts/gui_driving.py.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from importlib.resources import as_file, files
from pathlib import Path

# Run as a script (PYTHONPATH=. python scripts/walkthrough.py) or loaded by file path from
# tests/app/test_walkthrough.py: either way, gui_driving sits beside this file.
if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from gui_driving import (  # noqa: E402
    GuiWalk,
    WalkError,
    activate,
    button,
    choose,
    click,
    click_cell,
    open_main_window,
    settle,
    shoot,
    show_tab,
    tick,
    trigger,
    type_into,
    type_number,
    wait_until,
    walk_all,
    watch_message_boxes,
)

REPO = Path(__file__).resolve().parent.parent
VASHANTOR = REPO.parent / "shared" / "data" / "vashantor" / "vashantor_multiway.csv"
WINDOW_SIZE = (1400, 900)
DIALECTS = ["chittagong", "sylhet"]
QUESTIONS_TO_TRANSLATE = 3
ACCEPTED_PER_DIALECT = 2  # accepted with Ctrl+Return in each dialect
ANSWER_TOKENS = 48  # "Longest answer" in the generate dialog
REVIEWER = "রহিম (walkthrough)"

log = logging.getLogger("walkthrough")


@dataclass(kw_only=True)
class Walk(GuiWalk):
    """What the steps share: the GUI being driven, the workspace file and the inputs."""

    workspace_path: Path
    corpus: Path
    questions: Path

    @property
    def ws(self):
        return self.window.workspace

    def count(self, sql: str, params: tuple = ()) -> int:
        return self.ws.scalar(sql, params) or 0


# -- the steps -----------------------------------------------------------------------------
def step_welcome(walk: Walk) -> None:
    """01 The first launch: no workspace, the welcome page."""
    if (
        walk.window.workspace is not None
        or walk.window.stack.currentWidget() is not walk.window.welcome
    ):
        raise WalkError("the first launch does not show the welcome page")
    shoot(walk, "01_welcome")


def step_new_workspace(walk: Walk) -> None:
    """02 Welcome page → "Create a new workspace…", pick a file name."""
    walk.picks.append(str(walk.workspace_path))
    click(walk.window.welcome.new_button)
    wait_until(walk, lambda: walk.window.workspace is not None, 30, "new workspace")
    shoot(walk, "02_new_workspace")


def _import_file(
    walk: Walk, kind: str, path: Path, map_columns, name: str, seconds: float, shot: str
):
    """File → Import <kind>…: choose ``path``, map its columns, name it, import, photograph."""
    trigger(walk.window, "File", f"Import {kind}…")
    dialog = walk.window.study.dialogs["import"]
    if dialog.current_kind != kind:
        raise WalkError(f"the import dialog did not switch to {kind}")
    walk.picks.append(str(path))
    click(button(dialog, "Choose…"))
    map_columns(dialog)
    type_into(dialog.name, name)
    click(dialog.import_button)
    wait_until(walk, lambda: dialog.task is None, seconds, f"{kind} import")
    if dialog.last_report is None:
        raise WalkError(f"{kind} import failed: {dialog.error.text()}")
    shoot(walk, shot, dialog)
    return dialog


def _map_vashantor(dialog) -> None:
    """The Vashantor file is wide: one column a dialect, beside the standard sentence."""
    choose(dialog.fmt, "wide")
    choose(dialog.standard_col, "bangla_speech")
    choose(dialog.split_col, "vashantor_split")
    for code in ("barishal", "chittagong", "mymensingh", "noakhali", "sylhet"):
        choose(dialog.wide_cols[code], code)


def _map_questions(dialog) -> None:
    for combo, column in (
        (dialog.text_col, "question"),
        (dialog.id_col, "id"),
        (dialog.type_col, "question_type"),
        (dialog.domain_col, "domain"),
        (dialog.gloss_col, "gloss_en"),
    ):
        choose(combo, column)


def step_import_corpus(walk: Walk) -> None:
    """03 File → Import corpus…: choose the Vashantor file, map its wide columns, import."""
    _import_file(walk, "corpus", walk.corpus, _map_vashantor, "Vashantor", 240, "03_import_corpus")


def step_import_questions(walk: Walk) -> None:
    """04 File → Import questions…: a CSV of standard Bengali questions."""
    dialog = _import_file(
        walk,
        "questions",
        walk.questions,
        _map_questions,
        "sample questions",
        60,
        "04_import_questions",
    )
    click(button(dialog, "Close"))


def step_add_model(walk: Walk) -> None:
    """05 Models tab → "Add the embedded Gemma 3 270M"."""
    show_tab(walk, "Models")
    models = walk.window.panels["models"]
    click(models.add_embedded_button)
    wait_until(walk, lambda: models.model.rowCount() > 0, 180, "embedded model")
    wait_until(
        walk,
        lambda: models.gpu_report is not None or "Could not" in models.gpu_label.text(),
        60,
        "GPU check",
    )
    click_cell(models.view, 0, 0)
    shoot(walk, "05_models")


def step_translate(walk: Walk) -> None:
    """06 Study → Translate questions…: 3 questions into Chittagong and Sylhet."""
    trigger(walk.window, "Study", "Translate questions…")
    dialog = walk.window.study.dialogs["translate"]
    tick(dialog.dialects, DIALECTS)
    type_number(dialog.limit, QUESTIONS_TO_TRANSLATE)
    click(dialog.start_button)
    if dialog.task is None:
        raise WalkError(f"translation did not start: {dialog.status.text()}")
    wait_until(walk, lambda: dialog.task is None, 600, "translation")
    if dialog.last_summary is None:
        raise WalkError(f"translation failed: {dialog.status.text()}")
    trigger(walk.window, "View", "Show jobs")  # the View menu's one jobs item (Ctrl+J)
    settle(walk.app)
    monitor = walk.window.job_monitor
    click_cell(monitor.view, _job_row(monitor, "Translating"), 0)
    shoot(walk, "06_translate", dialog)
    click(button(dialog, "Close"))


def _job_row(monitor, label_start: str) -> int:
    for row, task in enumerate(monitor.model.tasks):
        if task.label.startswith(label_start):
            return row
    raise WalkError(f"no job {label_start!r} in the job monitor")


def step_review(walk: Walk) -> None:
    """07 Review tab: a machine draft with its exemplars; Ctrl+Return accepts and moves on."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    show_tab(walk, "Review translations")
    activate(walk)
    review = walk.window.panels["review"]
    type_into(review.reviewer, REVIEWER)
    for code in DIALECTS:
        click_cell(review.view, 0, review.model.codes.index(code))
        if review.current_variant is None:
            raise WalkError(f"no {code} draft in the first row of the review grid")
        review.view.setFocus()
        for _ in range(ACCEPTED_PER_DIALECT):
            QTest.keyClick(review.view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
            settle(walk.app, 50)
    if review.detail.exemplars.rowCount() == 0:
        raise WalkError("the selected draft shows no exemplars")
    shoot(walk, "07_review")


def step_generate(walk: Walk) -> None:
    """08 Study → Generate answers…: gold variants of both dialects and their standard."""
    trigger(walk.window, "Study", "Generate answers…")
    dialog = walk.window.study.dialogs["generate"]
    tick(dialog.statuses, ["gold"])
    tick(dialog.dialects, DIALECTS)
    type_number(dialog.max_tokens, ANSWER_TOKENS)
    click(dialog.start_button)
    if not dialog.tasks:
        raise WalkError(f"generation did not start: {dialog.status.text()}")
    wait_until(walk, lambda: not dialog.tasks, 600, "generation")
    if not dialog.summaries or any("error" in s for s in dialog.summaries.values()):
        raise WalkError(f"generation failed: {dialog.status.text()}")
    monitor = walk.window.job_monitor
    click_cell(monitor.view, _job_row(monitor, "Answers of"), 0)
    shoot(walk, "08_generate", dialog)
    click(button(dialog, "Close"))


def step_configure_judge(walk: Walk) -> None:
    """09 Study → Judge…: the embedded model as judge, the prompt preview on a real pair."""
    trigger(walk.window, "Study", "Judge…")
    judge = walk.window.panels["judge"]
    model_id = walk.ws.scalar("SELECT id FROM models WHERE is_default = 1")
    choose(judge.judge_model, model_id)
    if judge.item.count() == 0:
        raise WalkError("the judge panel's prompt preview offers no answer pair")
    choose(judge.item, judge.item.itemData(min(1, judge.item.count() - 1)))
    wait_until(walk, lambda: "━━ user ━━" in judge.preview.toPlainText(), 10, "prompt preview")
    bar = judge.preview.verticalScrollBar()  # scroll down to the pair's Bengali texts
    bar.setValue(bar.maximum())
    shoot(walk, "09_judge_configured")


def step_run_judge(walk: Walk) -> None:
    """10 "Run judge on all answers"; the run becomes the primary judge."""
    judge = walk.window.panels["judge"]
    click(judge.run_button)
    wait_until(
        walk,
        lambda: judge.judges.rowCount() > 0 and not walk.window.bridge.running_tasks(),
        600,
        "judge run",
    )
    shoot(walk, "10_judge_run")


def step_charts(walk: Walk) -> None:
    """11 Study → Charts: the model × dialect heatmap, then the dialects chart (the chart
    list's entries, as ChartsPanel.show_chart selects them)."""
    charts = walk.window.panels["charts"]
    painted: set[str] = set()
    charts.sig_refreshed.connect(lambda kind, _ms, _full: painted.add(kind))
    trigger(walk.window, "Study", "Charts")
    for kind, name in (("heatmap", "11_charts_heatmap"), ("dialects", "11_charts_dialects")):
        charts.show_chart(kind)
        wait_until(
            walk,
            lambda: kind in painted and charts.data.get(kind, {}).get("n", 0) > 0,  # noqa: B023
            120,
            f"{kind} chart",
        )
        shoot(walk, name)


def step_answers(walk: Walk) -> None:
    """12 Answers tab: a dialect answer beside the standard one, with the judge's verdict."""
    show_tab(walk, "Answers")
    answers = walk.window.panels["answers"]
    wait_until(walk, lambda: answers.model.rowCount() > 0, 30, "answers list")
    click_cell(answers.view, 0, 0)
    if answers.current_answer() is None:
        raise WalkError("clicking the first answer selected nothing")
    shoot(walk, "12_answers")


STEPS = [
    step_welcome,
    step_new_workspace,
    step_import_corpus,
    step_import_questions,
    step_add_model,
    step_translate,
    step_review,
    step_generate,
    step_configure_judge,
    step_run_judge,
    step_charts,
    step_answers,
]


# -- start and run -------------------------------------------------------------------------
def start(
    out: Path,
    workspace_path: Path,
    *,
    corpus: Path = VASHANTOR,
    questions: Path | None = None,
    config_dir: Path | None = None,
) -> Walk:
    """A fresh configuration, the application and its main window, shown, no workspace."""
    config_dir = Path(config_dir or tempfile.mkdtemp(prefix="upabhasha-walk-config-"))
    os.environ["UPABHASHA_CONFIG_DIR"] = str(config_dir)  # before settings are read
    out.mkdir(parents=True, exist_ok=True)
    app, window = open_main_window(WINDOW_SIZE)
    if questions is None:
        questions = Path(tempfile.mkdtemp(prefix="upabhasha-walk-")) / "questions.csv"
        with as_file(files("resources") / "sample" / "questions.csv") as bundled:
            questions.write_bytes(Path(bundled).read_bytes())
    walk = Walk(
        app=app,
        window=window,
        out=out,
        workspace_path=workspace_path,
        corpus=corpus,
        questions=questions,
    )
    watch_message_boxes(walk)
    return walk


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "out",
        nargs="?",
        default=str(REPO / "docs" / "walkthrough"),
        help="folder for the PNGs (default docs/walkthrough)",
    )
    parser.add_argument("--workspace", help="the new workspace file (default: a temp folder)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if not VASHANTOR.exists():
        print(f"the Vashantor corpus is missing: {VASHANTOR}", file=sys.stderr)
        return 2
    workspace = Path(
        args.workspace or Path(tempfile.mkdtemp(prefix="upabhasha-walk-")) / "first study.sqlite"
    )
    began = time.perf_counter()
    walk = start(
        Path(args.out), workspace, config_dir=os.environ.get("UPABHASHA_CONFIG_DIR") or None
    )
    return walk_all(walk, STEPS, began, workspace=str(workspace))


if __name__ == "__main__":
    sys.exit(main())
