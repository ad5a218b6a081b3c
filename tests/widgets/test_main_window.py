"""The main window: welcome page, workspaces, panels, shortcuts, settings."""

from __future__ import annotations

import shutil

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox

from app.main_window import MainWindow
from app.settings import Settings
from widgets.common.shortcuts_dialog import collect_shortcuts

# the main window's tabs, in order (the GUI smoke test reports the same list)
PANEL_TITLES = [
    "Review translations",
    "Models",
    "Answers",
    "Judge",
    "Charts",
    "Tasks",
    "Jobs",
    "Social bias",
    "Metrics vs humans",
    "Annotation",
    "Adjudication",
    "Agreement",
    "Judge validity",
]


@pytest.fixture
def saved():
    return []


@pytest.fixture
def window(qtbot, sync_bridge, saved, monkeypatch):
    warnings = []
    monkeypatch.setattr(
        QMessageBox, "warning", lambda parent, title, text: warnings.append((title, text))
    )
    win = MainWindow(Settings(reviewer_name="r"), bridge=sync_bridge, save=saved.append)
    win.warnings = warnings
    qtbot.addWidget(win)
    win.show()
    return win


@pytest.fixture
def ws_copy(sample_db, tmp_path):
    path = tmp_path / "study.sqlite"
    shutil.copy(sample_db, path)
    return path


def test_first_launch_shows_the_welcome_page(window):
    assert window.stack.currentWidget() is window.welcome
    assert window.workspace is None
    assert window.workspace_label.text() == "No workspace open"


def test_open_workspace_assembles_panels_and_remembers_it(window, ws_copy, saved):
    assert window.open_workspace(ws_copy)
    assert [window.tabs.tabText(i) for i in range(window.tabs.count())] == PANEL_TITLES
    assert window.stack.currentWidget() is window.tabs
    assert window.windowTitle().startswith("study.sqlite")
    assert saved[-1].recent_workspaces[0] == str(ws_copy.resolve())
    assert [a.text() for a in window.recent_menu.actions()] == [str(ws_copy.resolve())]
    assert "40 questions · 36 variants · 0 gold" in window.counts_label.text()


def test_a_missing_workspace_is_reported_and_dropped_from_recent(window, tmp_path):
    missing = tmp_path / "gone.sqlite"
    window.settings.add_recent(missing)
    assert not window.open_workspace(missing)
    assert "no such workspace" in window.warnings[-1][1]
    assert window.settings.recent_workspaces == []
    assert window.workspace is None


def test_not_a_workspace_is_refused(window, tmp_path):
    other = tmp_path / "notes.sqlite"
    other.write_bytes(b"hello, not sqlite" * 100)
    assert not window.open_workspace(other)
    assert "not an Upabhasha workspace" in window.warnings[-1][1]


def test_close_workspace_returns_to_welcome(window, ws_copy):
    window.open_workspace(ws_copy)
    window.close_action.trigger()
    assert window.workspace is None and window.tabs.count() == 0
    assert window.stack.currentWidget() is window.welcome


def test_sample_workspace_from_the_welcome_page(window, tmp_path, monkeypatch):
    import engine.samples.api as sample

    # the front door the window calls (patching engine.samples.workspace worked only while
    # nothing had imported the front door before this test)
    monkeypatch.setattr(sample, "sample_workspace_path", lambda: tmp_path / "sample.sqlite")
    window.welcome.sample_button.click()
    assert window.workspace is not None
    assert window.workspace.path == tmp_path / "sample.sqlite"
    assert window.workspace.scalar("SELECT count(*) FROM sentence_pairs") == 363


def test_new_workspace_via_dialog(window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    target = tmp_path / "new study.sqlite"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.welcome.new_button.click()
    assert target.exists() and window.workspace.path == target


def test_add_a_model_from_the_welcome_page_asks_for_gguf_files(window, ws_copy, qtbot, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    asked = []
    monkeypatch.setattr(
        QFileDialog, "getOpenFileNames", lambda parent, title, *a: (asked.append(title) or [], "")
    )
    window.open_workspace(ws_copy)
    qtbot.keyClick(window, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert window.stack.currentWidget() is window.welcome
    qtbot.mouseClick(window.welcome.model_button, Qt.MouseButton.LeftButton)
    assert window.tabs.currentWidget() is window.panels["models"]
    assert asked == ["Add GGUF model files"]


def test_the_empty_review_hint_names_real_menu_items(window, tmp_path, monkeypatch):
    import re

    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "empty.sqlite"), "")
    )
    window.welcome.new_button.click()
    hint = window.panels["review"].empty_hint
    assert hint.isVisible()
    menus = {
        (top.text().replace("&", ""), action.text().replace("&", ""))
        for top in window.menuBar().actions()
        if top.menu() is not None
        for action in top.menu().actions()
    }
    named = re.findall(r"\((\w+) → ([^)]+)\)", hint.text())
    assert len(named) == 3 and set(named) <= menus


def test_shortcuts_dialog_lists_every_shortcut(window, ws_copy):
    window.open_workspace(ws_copy)
    dialog = window.show_shortcuts()
    listed = {dialog.table.item(r, 1).text() for r in range(dialog.table.rowCount())}
    listed_keys = {k.strip() for cell in listed for k in cell.split(",")}
    for action in window.findChildren(QAction):
        for sequence in action.shortcuts():
            if action.text():
                assert sequence.toString() in listed_keys, action.text()
    texts = [t for t, _k in collect_shortcuts(window)]
    assert {"Accept as gold", "Flag", "Next", "Undo", "Keyboard shortcuts"} <= set(texts)
    dialog.close()


def test_ctrl_number_switches_panels(window, ws_copy, qtbot):
    window.open_workspace(ws_copy)
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentWidget() is window.panels["models"]
    qtbot.keyClick(window, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentWidget() is window.panels["charts"]
    qtbot.keyClick(window, Qt.Key.Key_6, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentWidget() is window.panels["tasks"]
    qtbot.keyClick(window, Qt.Key.Key_7, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentWidget() is window.job_monitor


def test_reviewer_name_and_geometry_are_saved(window, ws_copy, saved):
    window.open_workspace(ws_copy)
    review = window.panels["review"]
    review.reviewer.setText("করিম")
    review.reviewer.editingFinished.emit()
    assert saved[-1].reviewer_name == "করিম"
    window.close()
    assert saved[-1].window_geometry


def test_reviewer_name_fills_an_empty_annotator_field(window, ws_copy):
    """A first user types their name once (review panel); the answers panel's override
    form, built before with no name, gets it; a name typed there is never replaced."""
    window.settings.reviewer_name = ""  # a first launch
    window.open_workspace(ws_copy)
    review, answers = window.panels["review"], window.panels["answers"]
    assert answers.detail.annotator.text() == ""
    review.reviewer.setText("করিম")
    review.reviewer.editingFinished.emit()
    assert answers.detail.annotator.text() == "করিম"
    answers.detail.annotator.setText("রহিম")
    review.reviewer.setText("করিম বিশ্বাস")
    review.reviewer.editingFinished.emit()
    assert answers.detail.annotator.text() == "রহিম"


def test_task_failure_shows_in_the_status_bar(window):
    def broken():
        raise RuntimeError("index folder is read-only")

    window.bridge.run(broken, label="Build index", on_error=lambda exc: None)
    assert (
        "Build index failed: RuntimeError: index folder is read-only"
        in window.statusBar().currentMessage()
    )


def test_ctrl_shift_number_shows_the_annotation_tabs(window, ws_copy, qtbot):
    window.open_workspace(ws_copy)
    shift = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    for key, name in ((Qt.Key.Key_1, "annotation"), (Qt.Key.Key_2, "adjudication")):
        qtbot.keyClick(window, key, shift)
        assert window.tabs.currentWidget() is window.panels[name]
    qtbot.keyClick(window, Qt.Key.Key_3, shift)
    assert window.tabs.currentWidget() is window.panels["agreement"]
    qtbot.keyClick(window, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert window.stack.currentWidget() is window.welcome


def test_the_adjudicator_s_typed_name_is_remembered_for_the_next_start(
    window, ws_copy, saved, qtbot, sync_bridge
):
    window.open_workspace(ws_copy)
    window.show_panel("adjudication")
    name_box = window.panels["adjudication"].adjudicator
    qtbot.mouseClick(name_box, Qt.MouseButton.LeftButton)
    name_box.selectAll()
    QTest.keyClicks(name_box, "Rahim")
    QTest.keyClick(name_box, Qt.Key.Key_Return)
    assert saved[-1].reviewer_name == "Rahim"
    again = MainWindow(saved[-1], bridge=sync_bridge, save=lambda s: None)
    qtbot.addWidget(again)
    again.open_workspace(ws_copy)
    assert again.panels["adjudication"].adjudicator.text() == "Rahim"
    assert again.panels["review"].reviewer.text() == "Rahim"
