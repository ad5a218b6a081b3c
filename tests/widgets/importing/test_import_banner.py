"""A refused file is said in a banner at the top of the import dialog, with the file, line
and column; a binary file is called what it looks like; reopening the dialog clears it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QScrollArea

from app.stage_widgets import import_pages
from engine.errors import UserError
from engine.files.user_files import TASK_FILE, read_user_text
from widgets.importing.import_dialog import QUESTIONS, ImportDialog

PNG_HEAD = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64)


def _type_path(qtbot, dialog, path) -> None:
    qtbot.mouseClick(dialog.path, Qt.MouseButton.LeftButton)
    dialog.path.selectAll()
    QTest.keyClicks(dialog.path, str(path))
    QTest.keyClick(dialog.path, Qt.Key.Key_Return)


def test_a_png_named_csv_is_not_a_text_file_and_reopening_clears_the_banner(
    qtbot, fresh_ws, sync_bridge, tmp_path
):
    picture = tmp_path / "questions.csv"
    picture.write_bytes(PNG_HEAD)
    dialog = ImportDialog(fresh_ws, sync_bridge, QUESTIONS, pages=import_pages())
    qtbot.addWidget(dialog)
    dialog.show()
    _type_path(qtbot, dialog, picture)
    assert dialog.error.isVisible()
    assert dialog.error.text() == f"{picture}: not a text file (looks like PNG)"
    scroll = dialog.findChild(QScrollArea)
    assert dialog.error.geometry().bottom() < scroll.geometry().top()  # above the body
    dialog.hide()
    dialog.show()
    assert not dialog.error.isVisible() and dialog.error.text() == ""


def test_a_refused_line_is_named_with_its_file_and_line(qtbot, fresh_ws, sync_bridge, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"id,question\nq1,\xe0\xa6\x95\xff\n")
    dialog = ImportDialog(fresh_ws, sync_bridge, QUESTIONS, pages=import_pages())
    qtbot.addWidget(dialog)
    dialog.show()
    _type_path(qtbot, dialog, bad)
    if not dialog.error.isVisible():  # the header read is fine: the import reads line 2
        qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    assert dialog.error.isVisible()
    assert dialog.error.text().startswith(f"{bad}, line 2")


def test_read_user_text_names_a_binary_file(tmp_path):
    picture = tmp_path / "task.toml"
    picture.write_bytes(PNG_HEAD)
    with pytest.raises(UserError, match=r"not a text file \(looks like PNG\)"):
        read_user_text(picture, TASK_FILE)
