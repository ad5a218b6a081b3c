"""A model added in the Models panel appears at once in the open Translate and Generate
dialogs, which were opened before there was one (no reopening of the workspace)."""

from __future__ import annotations

import shutil

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.main_window import MainWindow
from app.settings import Settings
from tests.widgets.menus import menu_action


def test_a_model_added_in_the_panel_reaches_the_open_dialogs(
    qtbot, sync_bridge, sample_db, embedded_gguf, tmp_path
):
    path = tmp_path / "study.sqlite"
    shutil.copy(sample_db, path)
    window = MainWindow(Settings(reviewer_name="r"), bridge=sync_bridge, save=lambda s: None)
    qtbot.addWidget(window)
    window.show()
    assert window.open_workspace(path)
    window.watcher._timer.setInterval(50)

    menu_action(window, "Translate questions…").trigger()
    menu_action(window, "Generate answers…").trigger()
    translate, generate = window._dialogs["translate"], window._dialogs["generate"]
    assert translate.model.count() == 0 and not translate.start_button.isEnabled()
    assert "Add a model first" in translate.status.text()
    assert generate.models.count() == 0 and not generate.start_button.isEnabled()

    window.show_panel("models")
    models = window.panels["models"]
    qtbot.mouseClick(models.add_embedded_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: translate.model.count() == 1, timeout=20000)
    assert translate.start_button.isEnabled() and "Add a model first" not in translate.status.text()
    qtbot.waitUntil(lambda: generate.models.count() == 1, timeout=20000)
    assert generate.start_button.isEnabled()
    assert generate.models.item(0).checkState() == Qt.CheckState.Checked  # the default
    window.close_workspace()


def test_the_sample_opened_from_the_welcome_page_has_a_model_to_translate_with(
    qtbot, sync_bridge, embedded_gguf, tmp_path, monkeypatch
):
    """A first hour that produces something: the sample comes with the embedded model as
    its default, so Study → Translate can start at once."""
    from engine.samples import api as samples

    monkeypatch.setattr(samples, "sample_workspace_path", lambda: tmp_path / "sample.sqlite")
    window = MainWindow(Settings(reviewer_name="r"), bridge=sync_bridge, save=lambda s: None)
    qtbot.addWidget(window)
    window.show()
    qtbot.mouseClick(window.welcome.sample_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.workspace is not None, timeout=60000)
    default = window.workspace.query("SELECT name FROM models WHERE is_default = 1")
    assert len(default) == 1
    menu_action(window, "Translate questions…").trigger()
    translate = window._dialogs["translate"]
    assert translate.model.count() == 1 and translate.start_button.isEnabled()
    # ticking a dialect is the one step left: the first ten questions still to draft
    rect = translate.dialects.visualItemRect(translate.dialects.item(0))
    qtbot.mouseClick(translate.dialects.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    QTest.keyClick(translate.dialects, Qt.Key.Key_Space)
    assert translate.start_button.isEnabled()
    assert translate.scope.text().startswith("10 drafts to write")
    window.close_workspace()
