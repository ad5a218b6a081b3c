"""Label names typed in the item-set import page reach the item set (the CLI's
``--label-names``), and the tasks grid writes the metric's scale as "scale 0-1"."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.stage_widgets import import_pages
from widgets.importing.import_dialog import ImportDialog
from widgets.understanding.items_page import ITEMS
from widgets.understanding.result_rows import result_rows


def test_typed_label_names_are_stored_with_the_item_set(qtbot, workspace, sync_bridge, tmp_path):
    path = tmp_path / "offence.csv"
    path.write_text(
        "id,text,label,dialect,split\n"
        "a1,তুমি ভালো মানুষ,0,standard,test\n"
        "a2,তুমি খারাপ মানুষ,1,standard,test\n",
        encoding="utf-8",
    )
    dialog = ImportDialog(workspace, sync_bridge, ITEMS, pages=import_pages())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.mouseClick(dialog.path, Qt.MouseButton.LeftButton)
    QTest.keyClicks(dialog.path, str(path))
    QTest.keyClick(dialog.path, Qt.Key.Key_Return)
    page = dialog.study_page
    assert page.label_col.currentData() == "label"
    qtbot.mouseClick(page.label_names, Qt.MouseButton.LeftButton)
    QTest.keyClicks(page.label_names, "0=not-offensive,1=offensive")
    with qtbot.waitSignal(dialog.sig_imported, timeout=30_000):
        qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    stored = workspace.scalar("SELECT label_names FROM task_item_sets WHERE name = 'offence'")
    assert json.loads(stored) == {"0": "not-offensive", "1": "offensive"}


def test_the_scale_is_written_as_a_scale_not_an_interval():
    run = {
        "task": "offence", "model": "m", "regime": "zero", "script": "native", "scheme": None,
        "constrained": False, "k": 0, "n": 2,
        "macro": {"macro_f1": 0.5, "accuracy": 0.5, "scale": "0-1", "macro_over": "dialects"},
        "failures": {"unparseable": 0.0, "script_drift": 0.0, "empty": 0.0},
    }  # fmt: skip
    _header, [row] = result_rows({"runs": [run]})
    assert row[6] == "macro-F1 0.500 · macro over dialects · scale 0-1"
