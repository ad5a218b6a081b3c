"""Legacy Bijoy is looked for only in the columns an import reads as Bengali text, and the
warning names them: BlanCK's English ``category`` ("Event") and a task file's identifier
column never warn; Bijoy in the mapped text column does, and so does a column the user maps
to Bengali text with the mouse."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.stage_widgets import import_pages
from widgets.importing.import_dialog import CORPUS, QUESTIONS, ImportDialog
from widgets.understanding.items_page import ITEMS

# identifiers that the Bijoy heuristic reads as Bijoy when it is asked about every column
BIJOY_LOOKING_IDS = ["UshVvU", "ozGwKw", "GAFwAw", "vDMbZo", "Avv1", "bvcvh"]


def _dialog_with_typed_path(qtbot, ws, bridge, kind, path) -> ImportDialog:
    dialog = ImportDialog(ws, bridge, kind, pages=import_pages())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.mouseClick(dialog.path, Qt.MouseButton.LeftButton)
    QTest.keyClicks(dialog.path, str(path))
    QTest.keyClick(dialog.path, Qt.Key.Key_Return)
    assert dialog.columns, dialog.error.text()
    return dialog


def test_blanck_category_column_does_not_warn(qtbot, fresh_ws, sync_bridge, shared_data):
    from engine.importing.tasks import scan_bijoy

    blanck = shared_data / "blanck" / "BlanCK.csv"
    assert scan_bijoy(str(blanck))["in_columns"] == ["category"]  # every column: 118 "Event"
    dialog = _dialog_with_typed_path(qtbot, fresh_ws, sync_bridge, QUESTIONS, blanck)
    assert dialog.text_col.currentData() == "question"
    assert "category" not in dialog.bengali_columns()
    assert not dialog.bijoy_box.isVisible() and dialog.bijoy_box.scan["cells"] == 0


def _task_file(tmp_path):
    path = tmp_path / "task.csv"
    rows = ["base_id,text,label,split"] + [
        f"{base},আমি তোমাকে চিনি {i},{i % 2},test" for i, base in enumerate(BIJOY_LOOKING_IDS)
    ]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_a_task_file_s_base_id_does_not_warn(qtbot, fresh_ws, sync_bridge, tmp_path):
    dialog = _dialog_with_typed_path(qtbot, fresh_ws, sync_bridge, ITEMS, _task_file(tmp_path))
    assert dialog.bengali_columns() == ["text"]
    assert not dialog.bijoy_box.isVisible()


def test_bijoy_in_a_column_mapped_as_bengali_warns_with_its_name(
    qtbot, fresh_ws, sync_bridge, tmp_path
):
    path = tmp_path / "bijoy.csv"
    path.write_text(
        "standard,dialect_text,dialect,note\nআমি বাংলায় কথা বলি,Avwg evsjvq K_v ewj,sylhet,Event\n",
        "utf-8",
    )
    dialog = _dialog_with_typed_path(qtbot, fresh_ws, sync_bridge, CORPUS, path)
    assert dialog.bijoy_box.isVisible()
    assert dialog.bijoy_note.text().startswith("Bengali text columns with Bijoy: “dialect_text”.")
    assert "note" not in dialog.bijoy_note.text()
    # the user maps the English note column as the dialect text: now that column is read
    combo = dialog.dialect_text_col
    combo.setFocus()
    while combo.currentData() != "note":
        QTest.keyClick(combo, Qt.Key.Key_Down)
    assert dialog.bijoy_note.text().startswith("Bengali text columns with Bijoy: “note”.")
