"""Each kind of file dialog opens in the folder last used for it, across restarts: the
dialog is opened by clicking Choose…, Qt's own file dialog answered with a file, the folder is saved in the settings file,
and after a restart (settings read again, a new window) the dialog opens there."""

from __future__ import annotations

import shutil

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog

from app.main_window import MainWindow
from app.settings import Settings, load_settings, save_settings
from widgets.common import file_dialogs


def answer_file_dialog(seen: list[str], path=None) -> None:
    """When Qt's file dialog is up: note the folder it opened in, then choose ``path``
    (no path: press Escape)."""

    def act() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QFileDialog):
            QTimer.singleShot(50, act)
            return
        seen.append(dialog.directory().absolutePath())
        if path is None:
            QTest.keyClick(dialog, Qt.Key.Key_Escape)
            return
        # Qt's own dialog is not under test (its name completion holds typed keys offscreen)
        dialog.selectFile(str(path))
        dialog.accept()

    QTimer.singleShot(0, act)


def open_import_dialog(qtbot, settings_file, sync_bridge, workspace):
    window = MainWindow(
        load_settings(settings_file),
        bridge=sync_bridge,
        save=lambda s: save_settings(s, settings_file),
    )
    qtbot.addWidget(window)
    window.show()
    assert window.open_workspace(workspace)
    return window, window.study.import_dialog("corpus")


def test_the_import_folder_is_remembered_across_restarts(qtbot, sync_bridge, sample_db, tmp_path):
    settings_file = tmp_path / "config" / "settings.json"
    save_settings(Settings(), settings_file)
    workspace = tmp_path / "study.sqlite"
    shutil.copy(sample_db, workspace)
    corpus_folder = tmp_path / "field data"
    corpus_folder.mkdir()
    corpus = corpus_folder / "pairs.csv"
    corpus.write_text("standard,dialect\nতুমি কী বলো?,তুমি কিতা কও?\n", encoding="utf-8")

    window, dialog = open_import_dialog(qtbot, settings_file, sync_bridge, workspace)
    seen: list[str] = []
    answer_file_dialog(seen, corpus)
    qtbot.mouseClick(dialog.browse_button, Qt.MouseButton.LeftButton)
    assert dialog.path.text() == str(corpus)
    assert load_settings(settings_file).last_folders == {"imports": str(corpus_folder)}
    window.close()

    # a restart: the settings read again by a new window; the next import starts there
    file_dialogs.remember_folders_in({}, lambda: None)  # nothing kept in memory between
    window, dialog = open_import_dialog(qtbot, settings_file, sync_bridge, workspace)
    answer_file_dialog(seen)
    qtbot.mouseClick(dialog.browse_button, Qt.MouseButton.LeftButton)
    assert seen[-1] == str(corpus_folder)
    assert dialog.path.text() == ""  # cancelled: nothing chosen in this new dialog
    # another purpose keeps its own folder: exports still start in the home folder
    assert file_dialogs.start_path(file_dialogs.EXPORTS) != str(corpus_folder)
    window.close()


def test_a_folder_that_is_gone_falls_back(tmp_path):
    gone = tmp_path / "gone"
    gone.mkdir()
    folders = file_dialogs.LastFolders({}, None)
    folders.remember(file_dialogs.REPORTS, gone / "heatmap.png")
    assert folders.folder(file_dialogs.REPORTS) == gone
    shutil.rmtree(gone)
    assert folders.folder(file_dialogs.REPORTS, tmp_path) == tmp_path
