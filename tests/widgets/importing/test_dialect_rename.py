"""Renaming a dialect from the import dialog asks first and then lists the spellings kept
(``dialects add --rename`` on the command line); names with bidi controls are refused."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

from app.stage_widgets import import_pages
from tests.widgets.keyboard import type_text
from widgets.importing.add_dialect_dialog import AddDialectDialog
from widgets.importing.import_dialog import CORPUS, ImportDialog


def _import_dialog(qtbot, ws, bridge) -> ImportDialog:
    dialog = ImportDialog(ws, bridge, CORPUS, pages=import_pages())
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def _fill_add_dialect(qtbot, dialog: ImportDialog, **typed: str) -> AddDialectDialog:
    qtbot.mouseClick(dialog.add_dialect_button, Qt.MouseButton.LeftButton)
    add = dialog.findChildren(AddDialectDialog)[-1]
    qtbot.waitUntil(add.isVisible, timeout=10_000)
    for field, text in typed.items():
        type_text(getattr(add, field), text)
    ok = add.buttons.button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    return add


def _sylhet(ws) -> dict:
    return ws.query("SELECT name_en, name_bn, aliases FROM dialects WHERE code = 'sylhet'")[0]


def _button(box: QMessageBox, text: str):
    return next(b for b in box.buttons() if b.text() == text)


def test_renaming_a_built_in_dialect_asks_first_and_shows_the_aliases_kept(
    qtbot, fresh_ws, sync_bridge
):
    before = _sylhet(fresh_ws)
    dialog = _import_dialog(qtbot, fresh_ws, sync_bridge)
    _fill_add_dialect(qtbot, dialog, code_edit="sylhet", name_en="Evil")
    box = dialog.rename_box
    assert box is not None and box.isVisible()
    assert f"{before['name_en']} → Evil" in box.text() and "sylheti" in box.text()
    qtbot.mouseClick(box.button(QMessageBox.StandardButton.Cancel), Qt.MouseButton.LeftButton)
    assert _sylhet(fresh_ws) == before  # nothing renamed without the confirmation

    _fill_add_dialect(qtbot, dialog, code_edit="sylhet", name_en="Evil", aliases="syl")
    box = dialog.rename_box
    qtbot.mouseClick(_button(box, "Rename"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: _sylhet(fresh_ws)["name_en"] == "Evil", timeout=10_000)
    assert _sylhet(fresh_ws)["name_bn"] == before["name_bn"]
    report = dialog.report.toPlainText()
    assert report.startswith("dialect sylhet saved; aliases: sylheti,") and "syl" in report
    assert dialog.error.text() == ""


def test_a_dialect_name_with_a_bidi_control_keeps_the_form_open(qtbot, fresh_ws, sync_bridge):
    dialog = _import_dialog(qtbot, fresh_ws, sync_bridge)
    add = _fill_add_dialect(
        qtbot, dialog, code_edit="comilla", name_en="Com\u202eilla", name_bn="কুমিল্লা"
    )
    assert add.isVisible() and "bidirectional control U+202E" in add.error.text()
    assert fresh_ws.scalar("SELECT count(*) FROM dialects WHERE code = 'comilla'") == 0
    QTest.keyClick(add.name_en, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    type_text(add.name_en, "Comilla")
    qtbot.mouseClick(
        add.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton
    )
    qtbot.waitUntil(lambda: not add.isVisible(), timeout=10_000)
    assert fresh_ws.query("SELECT name_en, name_bn FROM dialects WHERE code = 'comilla'") == [
        {"name_en": "Comilla", "name_bn": "কুমিল্লা"}
    ]
