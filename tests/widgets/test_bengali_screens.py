"""Every panel and dialog of the window in Bengali, read off the screen.

The window opens a workspace with data in every stage (answers and judgments, probe replies,
task runs, annotators with decisions), shows each panel through its View action and opens
each dialog through its menu action; then imports a file through File → Import questions
(its report, and a file refused), runs probes from the Bias panel (its job label and log
lines in the Jobs panel, the new run's figures) and computes agreement from its panel. After
each it reads every visible text (tests/widgets/visible_texts.py): labels, tooltips,
placeholders, status bar messages, every table cell, chart text from the figure's artists.
Any text that is English or has ASCII digits fails the test: the only Latin words allowed are
what a person gave (names, paths, ids, texts) and the short list of names, formats and units
in TECHNICAL_TERMS. With ``SCREENS_BN=DIR`` it also writes a PNG of each screen there
(docs/screens-bn/).
"""

from __future__ import annotations

import gc
import logging
import os
import shutil
from collections.abc import Callable
from importlib.resources import as_file, files
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFont, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDialog,
    QFileDialog,
    QMessageBox,
    QTableView,
    QWidget,
)

from app.logging_setup import QUIET_LOGGERS
from app.main_window import MainWindow
from app.settings import Settings
from engine.i18n import _, set_language
from engine.judging.rubric import load_rubric
from engine.workspace.store import Workspace
from tests.widgets.menus import menu_action
from tests.widgets.visible_texts import ForeignCheck, visible_texts

SCREEN_SIZE = (1366, 768)
MAX_PNG_BYTES = 150_000  # docs/screens-bn: each picture small, all of them under 2 MB


@pytest.fixture(scope="module")
def screen_db(sample_db, tmp_path_factory):
    """The sample workspace with a little of every study in it."""
    from engine.annotation.annotators import add_annotator
    from engine.annotation.assignment import assign, candidate_targets
    from engine.annotation.decisions import my_queue, record_decision
    from engine.bias.probes import import_probes
    from engine.bias.run import ProbeOptions, run_probes
    from engine.bias.sample import SCRIPTED, ScriptedReplies
    from engine.llm.models.registry import find_model, register_endpoint
    from engine.samples import study as sample_study
    from engine.understanding.run import run_task
    from engine.understanding.task_spec import get_task
    from tests.engine.understanding.conftest import insert_pairs
    from tests.scripted_backend import ScriptedBackend

    path = tmp_path_factory.mktemp("screens") / "study.sqlite"
    shutil.copy(sample_db, path)
    with Workspace(path) as ws:
        sample_study.add_synthetic_study(ws, models=2, seed=1)
        with as_file(files("resources") / "sample" / "probes_gender.csv") as probes:
            import_probes(ws, probes, name="sample-gender")
        register_endpoint(ws, SCRIPTED, ["http://scripted.invalid"], "scripted")
        scripted = [find_model(ws, SCRIPTED)]
        run_probes(
            ws,
            scripted,
            options=ProbeOptions(counterbalance=True),
            backend_factory=lambda w, run: ScriptedReplies(w),
        )
        insert_pairs(ws)
        run_task(
            ws,
            get_task("dialect-to-standard"),
            scripted,
            regimes=["zero", "few"],
            scripts=["native", "roman"],
            k=1,
            backend_factory=lambda w, run: ScriptedBackend(lambda req: '{"standard": "তুমি"}'),
        )
        replies = iter(['{"label": "sylhet"}', "কোনটি জানি না", '{"label": "chittagong"}'] * 99)
        run_task(  # a classification: per-dialect figures and a confusion matrix
            ws,
            get_task("dialect-id"),
            scripted,
            regimes=["zero"],
            scripts=["native"],
            k=1,
            backend_factory=lambda w, run: ScriptedBackend(lambda req: next(replies)),
        )
        ws.conn.execute("UPDATE variants SET provenance = 'machine' WHERE dialect = 'sylhet'")
        add_annotator(ws, "Karim", ["sylhet"])
        add_annotator(ws, "Shuvo", ["sylhet"])
        targets = candidate_targets(ws, "variant", dialects=["sylhet"])
        assign(ws, "field", "variant", [], targets=targets, overlap=1.0, seed=4, blind_draft=True)
        for number, item in enumerate(my_queue(ws, "Karim")):  # two annotators who differ
            for annotator in ("Karim", "Shuvo"):
                decision = "accept" if (number + (annotator == "Shuvo")) % 3 else "reject"
                score = 3 + (number + len(annotator)) % 3
                record_decision(ws, item["item_id"], annotator, decision, score=score)
    return path


# What a person types, shown as an example of it: column names and keys of the files a
# person imports, dialect codes as a field takes them, a model's name at a server, the Latin
# letters the Avro keyboard turns into Bengali
TYPED_EXAMPLES = [
    "ref*", "dialect_v*", "Word", "Category", "Subcategory", "Topic", "firstOption",
    "template_prompts", "question", "sylhet,chittagong", "noyakhali=noakhali", "ctg=chittagong",
    "llama-3.1-8b", "meta-llama/Llama-3.1-8B-Instruct", "ami bangla", "ami bhalo achi",
]  # fmt: skip


def bengali_window(qtbot, bridge) -> MainWindow:
    """The main window in Bengali at the walkers' screen size, shown (no workspace yet)."""
    window = MainWindow(
        Settings(language="bn", reviewer_name="রহিম"), bridge=bridge, save=lambda s: None
    )
    qtbot.addWidget(window)
    window.resize(*SCREEN_SIZE)
    window.show()
    return window


def data_names(ws: Workspace, *paths: Path) -> list[str]:
    """What is data, shown as it is in any language: names a person gave, the paths on
    screen, question ids, texts and English glosses (a column the study keeps in English)
    and the prompt files' names."""
    names = [str(p) for p in paths] + [p.name for p in paths] + [p.stem for p in paths]
    names += [str(Path.home())]
    names += TYPED_EXAMPLES
    names += [p.name for p in (files("resources") / "prompts").iterdir()]
    names.append(load_rubric().name)  # the rubric's id, as its versions name it (name@hash)
    names += [str(row[0]) for row in ws.conn.execute("SELECT ext_id FROM questions")]
    names += [str(row[0]) for row in ws.conn.execute("SELECT text FROM questions")]
    names += [str(row[0]) for row in ws.conn.execute("SELECT gloss_en FROM questions")]
    for sql in (
        "SELECT name FROM models",
        "SELECT name FROM corpora",
        "SELECT name FROM annotators",
        "SELECT path FROM models WHERE path IS NOT NULL",
        "SELECT api_model FROM models WHERE api_model IS NOT NULL",
    ):
        names += [str(row[0]) for row in ws.conn.execute(sql)]
    for table in ("question_sets", "probe_sets", "item_sets", "assignment_rounds", "rounds"):
        try:
            names += [str(row[0]) for row in ws.conn.execute(f"SELECT name FROM {table}")]
        except Exception:  # not every workspace has every stage's tables
            pass
    return names


class ScreenReader:
    """Reads each screen it is shown; closes the dialogs it opened."""

    def __init__(self, qtbot, out: Path | None):
        self.qtbot = qtbot
        self.out = out
        self.screens: dict[str, list[tuple[str, str]]] = {}
        self.titles: dict[str, str] = {}

    def read(self, name: str, widget: QWidget, *, picture: bool = True) -> None:
        """Read ``widget``'s screen; with ``picture`` (and SCREENS_BN) keep a PNG of it too
        (a screen much like one kept already is read, not pictured)."""
        if isinstance(widget, QFileDialog):
            widget.setViewMode(QFileDialog.ViewMode.Detail)
        QApplication.processEvents()
        self.screens[name] = visible_texts(widget)
        if self.out is not None and picture:
            self.out.mkdir(parents=True, exist_ok=True)
            # text drawn without anti-aliasing in 256 colours: legible, and small as a PNG
            for part in [widget, *widget.findChildren(QWidget)]:
                font = part.font()
                font.setStyleStrategy(QFont.StyleStrategy.NoAntialias)
                part.setFont(font)
            QApplication.processEvents()
            image = (
                widget.grab()
                .toImage()
                .convertToFormat(QImage.Format.Format_Indexed8, Qt.ImageConversionFlag.AvoidDither)
            )
            target = self.out / f"{name}.png"
            image.save(str(target), "PNG", 9)
            while target.stat().st_size > MAX_PNG_BYTES:  # a busy screen: a smaller copy
                image = image.scaledToWidth(
                    image.width() * 4 // 5, Qt.TransformationMode.FastTransformation
                )
                image.save(str(target), "PNG", 9)
            self.titles[name] = widget.windowTitle()

    def open_and_read(self, name: str, trigger: Callable[[], object]) -> None:
        """Trigger; read the modal dialog it runs, or the new windows it shows."""
        before = {id(w) for w in QApplication.topLevelWidgets() if w.isVisible()}
        caught: list[QWidget] = []

        def catch_modal():
            modal = QApplication.activeModalWidget()
            if modal is not None and modal not in caught:
                caught.append(modal)
                self.read(name, modal)
                if isinstance(modal, QDialog):
                    modal.reject()
                else:
                    modal.close()

        timer = QTimer()
        timer.setInterval(50)
        timer.timeout.connect(catch_modal)
        timer.start()
        trigger()
        QApplication.processEvents()
        timer.stop()
        if caught:
            return
        shown = [
            w
            for w in QApplication.topLevelWidgets()
            if w.isVisible() and id(w) not in before and not isinstance(w, type(None))
        ]
        for number, window in enumerate(shown):
            self.read(name if number == 0 else f"{name}-{number}", window)
            window.close()


def dialog_buttons(panel: QWidget) -> list[QAbstractButton]:
    """The panel's buttons that open a dialog ("Annotators…", "Add endpoint…")."""
    return [
        button
        for button in panel.findChildren(QAbstractButton)
        if button.text().endswith("…") and button.isVisibleTo(panel) and button.isEnabled()
    ]


def _type_path(qtbot, dialog, path: Path) -> None:
    dialog.path.setFocus()
    dialog.path.selectAll()
    QTest.keyClicks(dialog.path, str(path))
    QTest.keyClick(dialog.path, Qt.Key.Key_Return)


def read_each_task_run(panel, reader: ScreenReader, qtbot) -> None:
    """Each run of the Tasks panel's results clicked, its per-dialect figures and confusion
    matrix read from their tab."""
    from PySide6.QtWidgets import QTabWidget

    tabs = next(t for t in panel.findChildren(QTabWidget) if t.indexOf(panel.breakdown) >= 0)
    bar = tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    results = panel.results
    for row in range(results.rowCount()):
        cell = results.visualItemRect(results.item(row, 0))
        qtbot.mouseClick(results.viewport(), Qt.MouseButton.LeftButton, pos=cell.center())
        QApplication.processEvents()
        pictured = row == 0 or panel.breakdown.confusion.isVisibleTo(panel)
        reader.read(f"panel-tasks-run-{row}", panel, picture=pictured)


def read_after_an_import(window, reader: ScreenReader, qtbot, tmp_path: Path) -> None:
    """File → Import questions: a file with a column the import does not use and a row it
    skips, its report; then a file without a question column, its refusal."""
    fresh = tmp_path / "field.csv"
    fresh.write_text(
        "question,মন্তব্য\nনদীর ঘাটে কখন নৌকা ছাড়ে?,ক\nহাটে আজ কী কী পাওয়া যায়?,\nনদীর ঘাটে কখন নৌকা ছাড়ে?,গ\n",
        encoding="utf-8",
    )
    menu_action(window, _("Import ques&tions…").replace("&", "")).trigger()
    dialog = window._dialogs["import"]
    qtbot.waitUntil(dialog.isVisible)
    _type_path(qtbot, dialog, fresh)
    qtbot.waitUntil(dialog.import_button.isEnabled)
    qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(dialog.report.toPlainText()), timeout=10000)
    reader.read("import-report", dialog)
    refused = tmp_path / "headless.csv"
    refused.write_text("শিরোনাম,মন্তব্য\nকী খবর?,কথা\n", encoding="utf-8")
    _type_path(qtbot, dialog, refused)
    qtbot.waitUntil(lambda: dialog.import_button.isEnabled() or dialog.error.isVisible())
    if dialog.import_button.isEnabled():
        qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(dialog.error.isVisible, timeout=10000)
    reader.read("import-refused", dialog)
    dialog.reject()
    window.show_panel("review")
    reader.read("import-review", window, picture=False)  # the Review panel, pictured before


def read_after_a_run(window, reader: ScreenReader, qtbot, monkeypatch) -> None:
    """Probes run from the Bias panel (scripted replies: a rule, not a model); the job's label
    and log lines in the Jobs panel, the new run's figures in the Bias panel."""
    from engine.bias import run as bias_run
    from engine.bias.sample import ScriptedReplies

    real = bias_run.run_probes

    def scripted(ws, models, sets, **kw):
        return real(ws, models, sets, backend_factory=lambda w, r: ScriptedReplies(w), **kw)

    monkeypatch.setattr("engine.bias.request.run_probes", scripted)
    window.show_panel("bias")
    panel = window.panels["bias"]
    runs = panel.runs.count()
    qtbot.waitUntil(panel.run_button.isEnabled)
    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.runs.count() > runs, timeout=20000)
    reader.read("run-bias", window)
    window.show_panel("jobs")
    jobs = window.job_monitor
    view = jobs.findChild(QTableView)
    for row in range(view.model().rowCount()):  # each job's log, chosen with the mouse
        cell = view.visualRect(view.model().index(row, 0))
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=cell.center())
        QApplication.processEvents()
        reader.read(f"run-jobs-{row}", window, picture=row in (0, jobs_with_log(jobs)))


def jobs_with_log(jobs) -> int:
    """The row of the last job whose log has lines (a refused import's): pictured."""
    rows = [r for r, task in enumerate(jobs.model.tasks) if getattr(task, "error", None)]
    return rows[-1] if rows else 0


def read_after_agreement(window, reader: ScreenReader, qtbot) -> None:
    """Agreement computed from its panel: the figures, tables and intervals."""
    window.show_panel("agreement")
    panel = window.panels["agreement"]
    qtbot.waitUntil(panel.compute_button.isEnabled, timeout=20000)
    qtbot.mouseClick(panel.compute_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(panel.compute_button.isEnabled, timeout=20000)
    QApplication.processEvents()
    reader.read("agreement-computed", window)


def test_every_panel_and_dialog_reads_bengali(
    qtbot, sync_bridge, screen_db, tmp_path, monkeypatch, caplog
):
    gc.collect()
    caplog.set_level(logging.INFO)  # the program's level: jobs' logs show their INFO lines
    for name in QUIET_LOGGERS:  # as the program quiets them (a library's own chatter)
        caplog.set_level(logging.WARNING, logger=name)
    path = tmp_path / "study.sqlite"
    shutil.copy(screen_db, path)
    out = Path(os.environ["SCREENS_BN"]) if os.environ.get("SCREENS_BN") else None
    warned: list[tuple[str, str]] = []  # a warning's title and text, as a box would show them

    def warning(parent, title, text, *args, **kwargs):
        warned.extend([("QMessageBox:title", title), ("QMessageBox:text", text)])
        return QMessageBox.StandardButton.Ok

    monkeypatch.setattr(QMessageBox, "warning", warning)
    assert set_language("bn")
    try:
        window = bengali_window(qtbot, sync_bridge)
        reader = ScreenReader(qtbot, out)
        reader.read("welcome", window)
        assert window.open_workspace(path)
        view = window.view_menu
        welcome = _("Show the &welcome page")
        for action in [a for a in view.actions() if not a.isSeparator() and a.menu() is None]:
            if action.text() == welcome:
                continue
            action.trigger()
            panel = window.tabs.currentWidget()
            qtbot.waitUntil(lambda p=panel: p.isVisible(), timeout=10000)
            QApplication.processEvents()
            key = next((k for k, v in window.panels.items() if v is panel), "jobs")
            reader.read(f"panel-{key}", window)
            if key == "review":  # a draft chosen with the mouse: the detail pane
                view = panel.view
                cell = view.visualRect(view.model().index(0, 1))
                qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=cell.center())
                QApplication.processEvents()
                reader.read("panel-review-detail", panel.detail)
            if key == "tasks":  # each run chosen with the mouse: its breakdown
                read_each_task_run(panel, reader, qtbot)
            if key == "charts":  # every chart, chosen with the mouse
                charts = panel.chart_list
                for row in range(1, charts.count()):
                    rect = charts.visualItemRect(charts.item(row))
                    qtbot.mouseClick(
                        charts.viewport(), Qt.MouseButton.LeftButton, pos=rect.center()
                    )
                    qtbot.waitUntil(lambda r=row, c=charts: c.currentRow() == r, timeout=5000)
                    QApplication.processEvents()
                    reader.read(f"panel-charts-{row}", window)
            for number, button in enumerate(dialog_buttons(panel)):
                reader.open_and_read(f"panel-{key}-dialog-{number}", button.click)
        menus = {a.text(): a.menu() for a in window.menuBar().actions()}
        skip = {_("&Quit"), _("&Close workspace"), _("Open the &sample workspace")}
        for number, action in enumerate(
            a
            for title in list(menus)
            if title != window.view_menu.title()
            for a in menus[title].actions()
            if not a.isSeparator() and a.menu() is None and a.isEnabled()
        ):
            if action.text() not in skip:  # numbered in menu order: File, Study, Help
                reader.open_and_read(f"menu-{number:02d}", action.trigger)
        read_after_an_import(window, reader, qtbot, tmp_path)
        read_after_a_run(window, reader, qtbot, monkeypatch)
        read_after_agreement(window, reader, qtbot)
        if warned:
            reader.screens["warnings"] = [(w, line) for w, t in warned for line in t.splitlines()]
        if out is not None:
            index = [
                "# The workstation in Bengali",
                "",
                "Written by `SCREENS_BN=docs/screens-bn "
                "pytest tests/widgets/test_bengali_screens.py` at 1366×768.",
                "",
            ]
            index += [f"- `{name}.png`: {title}" for name, title in reader.titles.items()]
            (out / "README.md").write_text("\n".join(index) + "\n", encoding="utf-8")
        with Workspace(path) as ws:
            imported = [tmp_path / "field.csv", tmp_path / "headless.csv"]
            check = ForeignCheck(data_names(ws, path, tmp_path, *imported))
        read = [
            (name, where, text) for name, texts in reader.screens.items() for where, text in texts
        ]
        foreign = [(name, where, text) for name, where, text in read if check.is_foreign(text)]
        for entry in foreign:
            print("  ", entry)
        print(
            f"\nBengali screens: {len(reader.screens)} screens, {len(read)} texts read, "
            f"{len(foreign)} not Bengali"
        )
        assert not foreign, foreign[:20]
    finally:
        set_language("en")
