"""A fourth study registered from tests/ only (tests/fourth_study, registered by its recipe.py):
one entry in the engine's stage list and one in the front ends' list, and its table, change
topic, command, panel and import page appear everywhere the built-in studies' do — no
product file names it. Its model step, report section and Bengali label:
tests/widgets/test_fourth_study_step.py."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from app.cli import main as cli_main
from app.main_window import MainWindow
from app.settings import Settings
from engine.workspace.store import Workspace
from tests.fourth_study.notes import add_note, count_notes
from tests.fourth_study.recipe import register
from widgets.common.workspace_watcher import WorkspaceWatcher

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "schema"


@pytest.fixture(autouse=True)
def fourth_study(monkeypatch, tmp_path):
    register(monkeypatch, tmp_path / "locale")


def _tables(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        conn.close()


def test_its_table_is_made_in_a_new_workspace_and_in_an_existing_one(tmp_path):
    with Workspace(tmp_path / "new.sqlite") as ws:
        assert add_note(ws, "first") == 1
        assert ws.scalar("SELECT version FROM stage_versions WHERE stage = 'field_notes'") == 1
    for released in ("v4.sqlite", "v5.sqlite"):  # before and after the stage track existed
        path = tmp_path / released
        shutil.copy(FIXTURES / released, path)
        assert "field_notes" not in _tables(path)
        with Workspace(path, create=False) as ws:
            assert count_notes(ws) == 0
        with Workspace(path, create=False) as ws:  # opened again: the track is not re-run
            add_note(ws, "kept")
            assert count_notes(ws) == 1


def test_its_topic_fires_through_the_watcher(qtbot, tmp_path):
    path = tmp_path / "notes.sqlite"
    Workspace(path).close()
    watcher = WorkspaceWatcher(path, interval_ms=50)
    try:
        with qtbot.waitSignal(
            watcher.sig_changed, timeout=5000, check_params_cb=lambda t: t == {"field_notes"}
        ):
            with Workspace(path, create=False) as other:
                add_note(other, "seen")
    finally:
        watcher.close()


def test_its_command_is_listed_and_runs(tmp_path, capsys):
    with pytest.raises(SystemExit):
        cli_main(["--help"])
    listing = capsys.readouterr().out
    assert "notes" in listing and "field notes of the fourth study" in listing
    assert listing.index("replicate") < listing.index("notes") < listing.index("demo")
    path = str(tmp_path / "cli.sqlite")
    assert cli_main(["-w", path, "init"]) == 0
    capsys.readouterr()
    assert cli_main(["-w", path, "notes", "add", "from the command line"]) == 0
    assert capsys.readouterr().out.strip() == "1"


def test_its_panel_and_import_page_show_in_the_window(qtbot, sync_bridge, tmp_path, monkeypatch):
    monkeypatch.setattr(QMessageBox, "warning", lambda *args: pytest.fail(str(args)))
    path = tmp_path / "window.sqlite"
    Workspace(path).close()
    window = MainWindow(Settings(reviewer_name="r"), bridge=sync_bridge, save=lambda _s: None)
    qtbot.addWidget(window)
    window.show()
    assert window.open_workspace(path)
    titles = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert titles[-1] == "Field notes" and titles[:-1].count("Field notes") == 0
    panel = window.panels["notes"]
    show = next(a for a in window.view_menu.actions() if a.text() == "Show Field notes")
    show.trigger()  # the View menu's action, as a person would
    assert window.tabs.currentWidget() is panel and panel.isVisible()
    with Workspace(path, create=False) as other:  # a write elsewhere: the panel follows
        add_note(other, "from another process")
    window.watcher.check_now()
    qtbot.waitUntil(lambda: panel.text() == "1 notes", timeout=5000)

    menu_import = next(a for a in window.actions() if a.text() == "Import field &notes…")
    menu_import.trigger()  # the File menu's action opens the dialog on the new page
    dialog = window.study.dialogs["import"]
    assert dialog.current_kind == "notes" and dialog.study_page.kind == "notes"
    notes = tmp_path / "notes.txt"
    notes.write_text("one\ntwo\n", encoding="utf-8")
    dialog.set_path(notes)
    dialog.start_import()
    qtbot.waitUntil(lambda: panel.text() == "3 notes", timeout=5000)
    assert panel.toolTip() == "typed: 1\nimported: 2"  # its LABELS, through widgets.common.labels
    assert dialog.report.toPlainText() == "notes: 2 notes"
