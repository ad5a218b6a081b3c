"""A workspace closed and opened again: the first workspace's panels are gone, and nothing of
theirs still answers the window's announcements (an import used to reach their deleted combo
boxes and print a traceback). pytest-qt fails a test on any exception raised in a slot."""

from __future__ import annotations

from importlib.resources import as_file, files

from PySide6.QtCore import QEvent, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from app.main_window import MainWindow
from app.settings import Settings
from tests.widgets.menus import menu_action


def test_an_import_after_reopening_reaches_only_the_open_panels(qtbot, sync_bridge, tmp_path):
    window = MainWindow(Settings(reviewer_name="r"), bridge=sync_bridge, save=lambda s: None)
    qtbot.addWidget(window)
    window.show()
    path = tmp_path / "study.sqlite"
    assert window.open_workspace(path, create=True)
    for name in ("metrics", "tasks"):
        window.show_panel(name)

    window.close_workspace()
    # what the event loop does after a close: the old panels are deleted
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    assert window.open_workspace(path)

    menu_action(window, "Import corpus…").trigger()
    dialog = window._dialogs["import"]
    with as_file(files("resources") / "sample" / "corpus.csv") as corpus:
        QTest.keyClicks(dialog.path, str(corpus))
        QTest.keyClick(dialog.path, Qt.Key.Key_Return)
        qtbot.waitUntil(dialog.import_button.isEnabled)
        qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(dialog.report.toPlainText()))
    tasks = window.panels["tasks"]
    window.show_panel("tasks")
    assert tasks.isVisible()
    window.close_workspace()
