"""A finished translation moves the window to Review only when it wrote drafts; one that
wrote none says why on the status bar, where it stays after the dialog is closed."""

from __future__ import annotations

from app.main_window import MainWindow
from app.settings import Settings


def test_a_translation_that_wrote_nothing_stays_put_and_says_why(qtbot, sync_bridge, tmp_path):
    window = MainWindow(Settings(reviewer_name="r"), bridge=sync_bridge, save=lambda s: None)
    qtbot.addWidget(window)
    window.show()
    assert window.open_workspace(tmp_path / "ws.sqlite", create=True)
    window.show_panel("models")
    window.study.after_translation({"complete": True, "items": 0, "written": 0, "protected": 4})
    assert window.tabs.currentWidget() is window.panels["models"]
    assert "wrote no drafts: 4 of the chosen items" in window.statusBar().currentMessage()
    window.study.after_translation({"complete": True, "items": 2, "written": 2, "protected": 0})
    assert window.tabs.currentWidget() is window.panels["review"]
    window.close_workspace()
