"""Setting up each study from the window, with no terminal: File → Import … opens the import
dialog on the right page, and each empty panel's button opens the import that fills it."""

from __future__ import annotations

from importlib.resources import as_file, files

from PySide6.QtGui import QAction

from app.main_window import MainWindow
from app.settings import Settings
from engine.workspace.store import Workspace


def _window(qtbot, sync_bridge, tmp_path) -> MainWindow:
    Workspace(tmp_path / "study.sqlite", create=True).close()
    window = MainWindow(Settings(), bridge=sync_bridge, save=lambda s: None)
    qtbot.addWidget(window)
    window.show()
    assert window.open_workspace(tmp_path / "study.sqlite")
    return window


def _menu_action(window: MainWindow, text: str) -> QAction:
    [action] = [a for a in window.findChildren(QAction) if a.text() == text]
    return action


def test_file_menu_opens_each_studys_import(qtbot, sync_bridge, tmp_path):
    window = _window(qtbot, sync_bridge, tmp_path)
    for text, kind in (
        ("Import ite&m set for tasks…", "items"),
        ("Import pro&bes…", "probes"),
        ("&Generate probes from templates…", "probe-templates"),
        ("Import scored tr&anslations…", "scored"),
    ):
        _menu_action(window, text).trigger()  # the real QAction: triggered(checked=False)
        dialog = window._dialogs["import"]
        assert dialog.isVisible() and dialog.current_kind == kind
        assert dialog.pages.currentWidget() is dialog.study_page
        dialog.close()  # the next action shows it again (offscreen Qt cannot raise a window)
    window.close()


def test_empty_panels_offer_the_import_that_fills_them(qtbot, sync_bridge, tmp_path):
    window = _window(qtbot, sync_bridge, tmp_path)
    tasks, bias, metrics = (window.panels[k] for k in ("tasks", "bias", "metrics"))
    window.show_panel("bias")
    assert bias.import_probes_button.isVisible() and not bias.run_button.isEnabled()
    assert "upabhasha" not in bias.info.text()
    bias.import_probes_button.click()
    dialog = window._dialogs["import"]
    assert dialog.current_kind == "probes"
    with as_file(files("resources") / "sample" / "probes_gender.csv") as path:
        assert dialog.set_path(path)
        dialog.start_import()
    qtbot.waitUntil(lambda: bias.run_button.isEnabled(), timeout=10000)
    assert not bias.import_probes_button.isVisible()
    dialog.close()
    bias.generate_probes_button.click()
    assert dialog.current_kind == "probe-templates"

    dialog.close()
    window.show_panel("tasks")
    tasks.import_items_button.click()
    assert dialog.current_kind == "items"
    with as_file(files("resources") / "sample" / "task_items.csv") as path:
        assert dialog.set_path(path)
        dialog.start_import()
    assert tasks.source_box.findData("items:task_items") >= 0  # the new set, without a reopen

    dialog.close()
    window.show_panel("metrics")
    metrics.import_button.click()
    assert dialog.current_kind == "scored"
    window.close()
