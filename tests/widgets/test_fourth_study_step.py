"""The fourth study's model step, report section and Bengali label (tests/fourth_study, no
product file names it): ``gist-notes`` run from the command line, from the desktop (its
Study-menu entry, clicked) and through batch files (exported from the CLI and from the same
dialog, each line posted to the real llama-cpp-python server on 127.0.0.1, results imported
by ``batch import`` and by File → Import batch results…) stores the same rows each way, all
through the one request runner; its section appears in the HTML report; its label reads in
Bengali on a Bengali screen."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from app.main_window import MainWindow
from app.settings import Settings
from app.smoke_pipeline import stage_steps
from engine.i18n import _, set_language
from engine.judging import store
from engine.workspace.store import Workspace
from tests.cli.batch_tools import copy_workspace, run_batch_file, stored_rows
from tests.cli.test_cli_batch import _export, _run
from tests.engine.judging.study_fixture import add_judge, build_study
from tests.engine.llm.test_llm_endpoint import real_llama_server
from tests.fourth_study.api import gists
from tests.fourth_study.notes import add_note
from tests.fourth_study.recipe import register

NOTES = ("হাটে আজ ধানের দাম বেড়েছে", "নদীর ঘাটে নতুন নৌকা এসেছে")


@pytest.fixture(autouse=True)
def fourth_study(monkeypatch, tmp_path):
    register(monkeypatch, tmp_path / "locale")


def _window(qtbot, sync_bridge, path: Path) -> MainWindow:
    window = MainWindow(Settings(reviewer_name="r"), bridge=sync_bridge, save=lambda _s: None)
    qtbot.addWidget(window)
    window.show()
    assert window.open_workspace(path)
    return window


def _study_action(window: MainWindow, text: str):
    """The Study menu's entry ``text`` (the menu's title in the interface language)."""
    study = next(a.menu() for a in window.menuBar().actions() if a.text() == _("&Study"))
    return next(a for a in study.actions() if a.text() == text)


@pytest.mark.slow
def test_the_step_gives_the_same_rows_from_the_cli_the_desktop_and_batch_files(
    qtbot, sync_bridge, tmp_path, capsys, embedded_gguf, monkeypatch
):
    monkeypatch.setattr(QMessageBox, "warning", lambda *args: pytest.fail(str(args)))
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "information", lambda _p, _t, text: shown.append(text))
    base = tmp_path / "base.sqlite"
    with Workspace(base) as ws:  # a judged study (the report needs one) and two notes
        build_study(ws)
        rids = [p["dialect_response_id"] for p in store.answer_pairs(ws)]
        add_judge(ws, "judge-a", "gemini", {rid: 5.0 for rid in rids})
        for note in NOTES:
            add_note(ws, note)
    ways = ("cli", "desktop", "batch", "desktop_batch")
    paths = {way: tmp_path / f"{way}.sqlite" for way in ways}
    with real_llama_server(embedded_gguf) as url:
        add = ["models", "add", url, "--api-model", "real", "--name", "real", "--concurrency", "1"]
        code, text = _run(capsys, "-w", str(base), *add, "--default")
        assert code == 0, text
        for path in paths.values():
            copy_workspace(base, path)

        code, text = _run(capsys, "-w", str(paths["cli"]), "gist-notes")
        assert code == 0 and "real" in text, text

        window = _window(qtbot, sync_bridge, paths["desktop"])
        _study_action(window, "Read the field &notes…").trigger()  # as a person would
        dialog = window.study.dialogs["gist-notes"]
        assert dialog.model.currentText() == "real"  # the default model first
        QTest.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: dialog.result.text() == "2 notes read", timeout=120_000)
        window.close_workspace()

        # the same dialog exports its request as batch files; File → Import batch results…
        assert window.open_workspace(paths["desktop_batch"])
        _study_action(window, "Read the field &notes…").trigger()
        dialog = window.study.dialogs["gist-notes"]
        folder = tmp_path / "desktop-files"
        folder.mkdir()
        monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))
        QTest.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: len(shown) == 1)
        assert "2 requests in 1 file(s)" in shown[0], shown
        desktop_results = [tmp_path / "desktop.results.jsonl"]
        run_batch_file(next(folder.glob("*.jsonl")), url, desktop_results[0])
        monkeypatch.setattr(
            QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(desktop_results[0])], "")
        )
        next(a for a in window.actions() if a.text() == "Import batch resu&lts…").trigger()
        qtbot.waitUntil(lambda: len(shown) == 2)
        assert "2 accepted (2 new)" in shown[1], shown
        window.close_workspace()

        w = ["-w", str(paths["batch"])]
        files, manifest = _export(capsys, w, tmp_path / "out", "gist-notes")
        assert manifest["items"] == len(NOTES) and manifest["request"]["step"] == "gist-notes"
        results = [tmp_path / f"{f.stem}.results.jsonl" for f in files]
        for f, result in zip(files, results, strict=True):
            run_batch_file(f, url, result)
        code, text = _run(capsys, *w, "batch", "import", *map(str, results))
        assert code == 0, text

    rows = {way: stored_rows(path, ("responses",)) for way, path in paths.items()}
    assert rows["cli"] == rows["desktop"] == rows["batch"] == rows["desktop_batch"]
    with Workspace(paths["batch"], create=False) as ws:
        read = gists(ws)
    assert [g["note"] for g in read] == [1, 2] and all(g["model"] == "real" for g in read)
    assert all(g["text"] is not None for g in read)  # a tiny base model may say nothing

    # its section of the HTML report, from its own declaration
    out = tmp_path / "report"
    code, text = _run(capsys, "-w", str(paths["cli"]), "report", "--out", str(out))
    assert code == 0, text
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "Field notes read by each model" in html
    assert (out / "tables" / "field_notes.csv").read_text(encoding="utf-8").splitlines() == [
        "model,notes_read",
        "real,2",
    ]


def test_its_label_and_menu_entry_read_in_bengali(qtbot, sync_bridge, tmp_path):
    path = tmp_path / "bn.sqlite"
    with Workspace(path) as ws:
        add_note(ws, NOTES[0])
    assert set_language("bn")  # the catalogue with the study's entries (its recipe)
    try:
        window = _window(qtbot, sync_bridge, path)
        titles = [window.tabs.tabText(i) for i in range(window.tabs.count())]
        assert titles[-1] == "মাঠের নোট"
        assert window.panels["notes"].text() == "১টি নোট"
        assert window.panels["notes"].toolTip() == "লেখা: ১"  # its stored code, named
        entry = _study_action(window, "মাঠের নোট পড়ুন… (&N)")
        entry.trigger()
        dialog = window.study.dialogs["gist-notes"]
        assert dialog.windowTitle() == "মাঠের নোট পড়া"
        for text in (titles[-1], window.panels["notes"].text(), dialog.windowTitle()):
            assert not re.search("[A-Za-z]", text), text
        window.close_workspace()
    finally:
        set_language("en")


@pytest.mark.slow
def test_its_smoke_step_runs_after_the_built_in_studies(tmp_path, capsys, embedded_gguf):
    path = tmp_path / "smoke.sqlite"
    Workspace(path).close()
    with real_llama_server(embedded_gguf) as url:
        add = ["models", "add", url, "--api-model", "real", "--name", "real", "--default"]
        code, text = _run(capsys, "-w", str(path), *add)
        assert code == 0, text
        done: list[str] = []
        out: dict = {}
        with Workspace(path, create=False) as ws:
            model = ws.query("SELECT * FROM models WHERE name = 'real'")[0]
            stage_steps(ws, model, out, done.append)
    assert done == ["task", "probe", "notes"]  # in stage order, the new study's last
    assert out["notes"] == {"notes_read": 1} and out["probe"]["replies"] == 1
