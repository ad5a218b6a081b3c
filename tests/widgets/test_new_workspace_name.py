"""The GUI's New workspace… refuses a file name holding a hidden character, as ``-w`` does:
a warning names the character, and no file is created."""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMessageBox

from app.main_window import MainWindow
from app.settings import Settings


def test_new_workspace_with_a_hidden_character_in_its_name_is_refused(
    qtbot, sync_bridge, tmp_path, monkeypatch
):
    warnings = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: warnings.append(text))
    chosen = [tmp_path / "\u202edlrow.sqlite", tmp_path / "ক্\u200dষ.sqlite"]
    # the platform's save dialog is the one part a test cannot type into
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a: (str(chosen.pop(0)), ""))
    window = MainWindow(Settings(reviewer_name="r"), bridge=sync_bridge, save=lambda s: None)
    qtbot.addWidget(window)
    window.show()
    new = next(
        a for a in window.findChildren(QAction) if a.text().replace("&", "") == "New workspace…"
    )
    new.trigger()
    assert window.workspace is None
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in warnings[-1]
    assert not list(tmp_path.iterdir())
    new.trigger()  # a Bengali name with a joiner inside a word is a name
    assert window.workspace is not None and window.workspace.path.name == "ক্\u200dষ.sqlite"
