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
questions, two dialects, short answers.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from importlib.resources import as_file, files
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
VASHANTOR = REPO.parent / "shared" / "data" / "vashantor" / "vashantor_multiway.csv"
WINDOW_SIZE = (1400, 900)
DIALECTS = ["chittagong", "sylhet"]
QUESTIONS_TO_TRANSLATE = 3
ACCEPTED_PER_DIALECT = 2          # accepted with Ctrl+Return in each dialect
ANSWER_TOKENS = 48                # "Longest answer" in the generate dialog
REVIEWER = "রহিম (walkthrough)"

log = logging.getLogger("walkthrough")


class WalkError(RuntimeError):
    """A step could not be done from the GUI (the message says what was missing)."""


@dataclass
class Walk:
    """What the steps share: the application, the window and where things go."""

    app: object
    window: object
    out: Path
    workspace_path: Path
    corpus: Path
    questions: Path
    shots: list[Path] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    message_boxes: list[str] = field(default_factory=list)
    picks: list[str] = field(default_factory=list)   # the file picker's answers, in order

    @property
    def ws(self):
        return self.window.workspace

    def count(self, sql: str, params: tuple = ()) -> int:
        return self.ws.scalar(sql, params) or 0


# -- the event loop ------------------------------------------------------------------------
def settle(app, ms: int = 150) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()
    app.processEvents()


def wait_until(walk: Walk, done, seconds: float, what: str) -> None:
    """Process events until ``done()`` is true; WalkError after ``seconds`` or on an error box."""
    deadline = time.monotonic() + seconds
    while not done():
        if walk.message_boxes:
            raise WalkError(f"{what}: the app showed an error: {walk.message_boxes[-1]}")
        if time.monotonic() > deadline:
            raise WalkError(f"{what}: not done after {seconds:.0f} s")
        settle(walk.app, 100)


def _close_message_boxes(walk: Walk) -> None:
    """A modal error box would stop the walk: record its text and close it."""
    from PySide6.QtWidgets import QApplication, QMessageBox

    modal = QApplication.activeModalWidget()
    if isinstance(modal, QMessageBox):
        text = f"{modal.windowTitle()}: {modal.text()}"
        log.error("message box: %s", text)
        walk.message_boxes.append(text)
        modal.reject()


# -- the user's hands ----------------------------------------------------------------------
@contextlib.contextmanager
def file_picker(walk: Walk):
    """The OS file dialogs answer with the next path in ``walk.picks`` (the user's choice)."""
    from PySide6.QtWidgets import QFileDialog

    def pick_one(*_args, **_kwargs):
        if not walk.picks:
            raise WalkError("a file dialog opened that the walk did not expect")
        return walk.picks.pop(0), ""

    def pick_many(*args, **kwargs):
        path, selected = pick_one(*args, **kwargs)
        return [path], selected

    names = {"getOpenFileName": pick_one, "getSaveFileName": pick_one,
             "getOpenFileNames": pick_many}
    saved = {name: getattr(QFileDialog, name) for name in names}
    for name, fn in names.items():
        setattr(QFileDialog, name, staticmethod(fn))
    try:
        yield
    finally:
        for name, fn in saved.items():
            setattr(QFileDialog, name, fn)


def menu_action(window, menu: str, item: str):
    """The QAction behind a menu item (names without the & accelerators)."""
    def plain(text: str) -> str:
        return text.replace("&", "")

    for top in window.menuBar().actions():
        if plain(top.text()) == menu and top.menu() is not None:
            for action in top.menu().actions():
                if plain(action.text()) == item:
                    return action
    raise WalkError(f"no menu item {menu} → {item}")


def trigger(window, menu: str, item: str) -> None:
    action = menu_action(window, menu, item)
    if not action.isEnabled():
        raise WalkError(f"menu item {menu} → {item} is disabled")
    action.trigger()


def button(widget, text: str):
    """The visible push button with this text (accelerator & ignored)."""
    from PySide6.QtWidgets import QAbstractButton

    for candidate in widget.findChildren(QAbstractButton):
        if candidate.text().replace("&", "") == text and candidate.isVisible():
            return candidate
    raise WalkError(f"no button {text!r} in {type(widget).__name__}")


def click(widget) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    if not widget.isEnabled():
        raise WalkError(f"{widget.text() if hasattr(widget, 'text') else widget} is disabled")
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton)


def choose(combo, data) -> None:
    """Pick the combo entry whose data is ``data``, as a user picking from the list."""
    index = combo.findData(data)
    if index < 0:
        raise WalkError(f"{data!r} is not offered ({[combo.itemText(i) for i in range(combo.count())]})")
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


def type_into(line_edit, text: str) -> None:
    """Clear the field and type ``text`` key by key (Bengali as an input method sends it:
    key events carrying the character; QTest.keyClicks handles Latin-1 only)."""
    from PySide6.QtCore import QEvent, Qt
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    line_edit.setFocus()
    line_edit.selectAll()
    QTest.keyClick(line_edit, Qt.Key.Key_Delete)
    for char in text:
        if char.isascii():
            QTest.keyClick(line_edit, char)
            continue
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.sendEvent(line_edit, QKeyEvent(kind, Qt.Key.Key_unknown,
                                                        Qt.KeyboardModifier.NoModifier, char))
    if line_edit.text() != text:
        raise WalkError(f"typed {text!r}, the field shows {line_edit.text()!r}")


def tick(list_widget, values) -> None:
    """Tick exactly these entries of a checkable list (click the check boxes)."""
    from PySide6.QtCore import Qt

    values = set(values)
    found = set()
    for i in range(list_widget.count()):
        item = list_widget.item(i)
        wanted = item.data(Qt.ItemDataRole.UserRole) in values
        found |= {item.data(Qt.ItemDataRole.UserRole)} & values
        item.setCheckState(Qt.CheckState.Checked if wanted else Qt.CheckState.Unchecked)
    if found != values:
        raise WalkError(f"not offered: {sorted(values - found)}")


def click_cell(view, row: int, column: int) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    index = view.model().index(row, column)
    view.scrollTo(index)
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, view.visualRect(index).center())


def activate(walk: Walk) -> None:
    """The user clicks into the main window: keyboard shortcuts go to the active window."""
    from PySide6.QtTest import QTest

    walk.window.raise_()
    walk.window.activateWindow()
    if not QTest.qWaitForWindowActive(walk.window, 3000):
        raise WalkError("the main window could not be made active (keyboard shortcuts)")


def show_tab(walk: Walk, title: str) -> None:
    """View → Show <panel> (the Ctrl+number actions)."""
    trigger(walk.window, "View", f"Show {title}")
    settle(walk.app)


# -- pictures ------------------------------------------------------------------------------
def shoot(walk: Walk, name: str, dialog=None) -> Path:
    """The window as the user sees it; an open dialog drawn over it where it sits."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtGui import QColor, QPainter, QPen

    settle(walk.app, 250)
    picture = walk.window.grab()
    if dialog is not None and dialog.isVisible():
        over = dialog.grab()
        bar = 28                                   # the dialog's title, as a window manager
        x = max(0, (picture.width() - over.width()) // 2)
        y = max(bar, min(60, picture.height() - over.height()))
        painter = QPainter(picture)
        painter.fillRect(x, y - bar, over.width(), bar, QColor("#3c4a5c"))
        painter.setPen(QColor("white"))
        painter.drawText(x + 10, y - bar, over.width() - 20, bar,
                         Qt.AlignmentFlag.AlignVCenter, dialog.windowTitle())
        painter.drawPixmap(QPoint(x, y), over)
        painter.setPen(QPen(QColor("#3c4a5c"), 2))
        painter.drawRect(x, y - bar, over.width() - 1, over.height() + bar - 1)
        painter.end()
    path = walk.out / f"{name}.png"
    if not picture.save(str(path), "PNG", 0):     # 0: the smallest PNG
        raise WalkError(f"could not write {path}")
    walk.shots.append(path)
    log.info("wrote %s", path)
    return path


# -- the steps -----------------------------------------------------------------------------
def step_welcome(walk: Walk) -> None:
    """01 The first launch: no workspace, the welcome page."""
    if walk.window.workspace is not None or walk.window.stack.currentWidget() is not walk.window.welcome:
        raise WalkError("the first launch does not show the welcome page")
    shoot(walk, "01_welcome")


def step_new_workspace(walk: Walk) -> None:
    """02 Welcome page → "Create a new workspace…", pick a file name."""
    walk.picks.append(str(walk.workspace_path))
    click(walk.window.welcome.new_button)
    wait_until(walk, lambda: walk.window.workspace is not None, 30, "new workspace")
    shoot(walk, "02_new_workspace")


def step_import_corpus(walk: Walk) -> None:
    """03 File → Import corpus…: choose the Vashantor file, map its wide columns, import."""
    trigger(walk.window, "File", "Import corpus…")
    dialog = walk.window.study.dialogs["import"]
    walk.picks.append(str(walk.corpus))
    click(button(dialog, "Choose…"))
    choose(dialog.fmt, "wide")
    choose(dialog.standard_col, "bangla_speech")
    choose(dialog.split_col, "vashantor_split")
    for code in ("barishal", "chittagong", "mymensingh", "noakhali", "sylhet"):
        choose(dialog.wide_cols[code], code)
    type_into(dialog.name, "Vashantor")
    click(dialog.import_button)
    wait_until(walk, lambda: dialog.task is None, 240, "corpus import")
    if dialog.last_report is None:
        raise WalkError(f"corpus import failed: {dialog.error.text()}")
    shoot(walk, "03_import_corpus", dialog)


def step_import_questions(walk: Walk) -> None:
    """04 File → Import questions…: a CSV of standard Bengali questions."""
    trigger(walk.window, "File", "Import questions…")
    dialog = walk.window.study.dialogs["import"]
    if dialog.current_kind != "questions":
        raise WalkError("the import dialog did not switch to questions")
    walk.picks.append(str(walk.questions))
    click(button(dialog, "Choose…"))
    for combo, column in ((dialog.text_col, "question"), (dialog.id_col, "id"),
                          (dialog.type_col, "question_type"), (dialog.domain_col, "domain"),
                          (dialog.gloss_col, "gloss_en")):
        choose(combo, column)
    type_into(dialog.name, "sample questions")
    click(dialog.import_button)
    wait_until(walk, lambda: dialog.task is None, 60, "question import")
    if dialog.last_report is None:
        raise WalkError(f"question import failed: {dialog.error.text()}")
    shoot(walk, "04_import_questions", dialog)
    click(button(dialog, "Close"))


def step_add_model(walk: Walk) -> None:
    """05 Models tab → "Add the embedded Gemma 3 270M"."""
    show_tab(walk, "Models")
    models = walk.window.panels["models"]
    click(models.add_embedded_button)
    wait_until(walk, lambda: models.model.rowCount() > 0, 180, "embedded model")
    wait_until(walk, lambda: models.gpu_report is not None
               or "Could not" in models.gpu_label.text(), 60, "GPU check")
    click_cell(models.view, 0, 0)
    shoot(walk, "05_models")


def step_translate(walk: Walk) -> None:
    """06 Study → Translate questions…: 3 questions into Chittagong and Sylhet."""
    trigger(walk.window, "Study", "Translate questions…")
    dialog = walk.window.study.dialogs["translate"]
    tick(dialog.dialects, DIALECTS)
    dialog.limit.setValue(QUESTIONS_TO_TRANSLATE)
    click(dialog.start_button)
    if dialog.task is None:
        raise WalkError(f"translation did not start: {dialog.status.text()}")
    wait_until(walk, lambda: dialog.task is None, 600, "translation")
    if dialog.last_summary is None:
        raise WalkError(f"translation failed: {dialog.status.text()}")
    show_tab(walk, "Jobs")
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
    dialog.max_tokens.setValue(ANSWER_TOKENS)
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
    bar = judge.preview.verticalScrollBar()     # scroll down to the pair's Bengali texts
    bar.setValue(bar.maximum())
    shoot(walk, "09_judge_configured")


def step_run_judge(walk: Walk) -> None:
    """10 "Run judge on all answers"; the run becomes the primary judge."""
    judge = walk.window.panels["judge"]
    click(judge.run_button)
    wait_until(walk, lambda: judge.judges.rowCount() > 0
               and not walk.window.bridge.running_tasks(), 600, "judge run")
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
        wait_until(walk, lambda: kind in painted and charts.data.get(kind, {}).get("n", 0) > 0,
                   120, f"{kind} chart")
        shoot(walk, name)


def step_answers(walk: Walk) -> None:
    """12 Answers tab: a dialect answer beside the standard one, with the judge's verdict."""
    show_tab(walk, "Answers")
    answers = walk.window.panels["answers"]
    wait_until(walk, lambda: answers.model.rowCount() > 0, 30, "answers list")
    click_cell(answers.view, 0, 0)
    if answers.current_judgment() is None:
        raise WalkError("clicking the first answer selected nothing")
    shoot(walk, "12_answers")


STEPS = [step_welcome, step_new_workspace, step_import_corpus, step_import_questions,
         step_add_model, step_translate, step_review, step_generate, step_configure_judge,
         step_run_judge, step_charts, step_answers]


# -- start and run -------------------------------------------------------------------------
def start(out: Path, workspace_path: Path, *, corpus: Path = VASHANTOR,
          questions: Path | None = None, config_dir: Path | None = None) -> Walk:
    """A fresh configuration, the application and its main window, shown, no workspace."""
    config_dir = Path(config_dir or tempfile.mkdtemp(prefix="upabhasha-walk-config-"))
    os.environ["UPABHASHA_CONFIG_DIR"] = str(config_dir)   # before settings are read
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from app.settings import load_settings, settings_path
    from widgets.fonts import register_qt_fonts

    if settings_path().exists():
        raise WalkError(f"the config folder {config_dir} is not fresh")
    app = QApplication.instance() or QApplication(sys.argv[:1])
    register_qt_fonts(app)
    from app.main_window import MainWindow

    out.mkdir(parents=True, exist_ok=True)
    window = MainWindow(load_settings())
    window.resize(*WINDOW_SIZE)
    window.show()
    if questions is None:
        questions = Path(tempfile.mkdtemp(prefix="upabhasha-walk-")) / "questions.csv"
        with as_file(files("resources") / "sample" / "questions.csv") as bundled:
            questions.write_bytes(Path(bundled).read_bytes())
    walk = Walk(app=app, window=window, out=out, workspace_path=workspace_path,
                corpus=corpus, questions=questions)
    walk._box_timer = QTimer(window)
    walk._box_timer.setInterval(300)
    walk._box_timer.timeout.connect(lambda: _close_message_boxes(walk))
    walk._box_timer.start()
    settle(app, 300)
    return walk


def run_step(walk: Walk, step) -> None:
    started = time.perf_counter()
    with file_picker(walk):
        step(walk)
    walk.seconds[step.__name__] = round(time.perf_counter() - started, 1)
    log.info("%s done in %.1f s", step.__name__, walk.seconds[step.__name__])


def finish(walk: Walk) -> None:
    walk.window.bridge.cancel_all()
    walk.window.close()
    settle(walk.app, 200)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default=str(REPO / "docs" / "walkthrough"),
                        help="folder for the PNGs (default docs/walkthrough)")
    parser.add_argument("--workspace", help="the new workspace file (default: a temp folder)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if not VASHANTOR.exists():
        print(f"the Vashantor corpus is missing: {VASHANTOR}", file=sys.stderr)
        return 2
    workspace = Path(args.workspace or Path(tempfile.mkdtemp(prefix="upabhasha-walk-"))
                     / "first study.sqlite")
    began = time.perf_counter()
    walk = start(Path(args.out), workspace,
                 config_dir=os.environ.get("UPABHASHA_CONFIG_DIR") or None)
    try:
        for step in STEPS:
            run_step(walk, step)
    except WalkError as exc:
        print(f"walkthrough stopped: {exc}", file=sys.stderr)
        return 1
    finally:
        finish(walk)
    total = round(time.perf_counter() - began, 1)
    for path in walk.shots:
        print(path)
    import json
    print(json.dumps({"total_s": total, "steps_s": walk.seconds, "workspace": str(workspace)},
                     ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
