"""ImportDialog: the Bijoy prompt with its preview, dialect names, question variants."""

from __future__ import annotations

import unicodedata

from PySide6.QtCore import Qt

from app.stage_widgets import import_pages
from widgets.importing.import_dialog import CORPUS, QUESTIONS, ImportDialog


def _dialog(qtbot, ws, bridge, kind):
    dialog = ImportDialog(ws, bridge, kind, pages=import_pages())  # the window's pages
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_bijoy_prompt_previews_then_refuses_or_converts(qtbot, fresh_ws, sync_bridge, tmp_path):
    path = tmp_path / "bijoy.csv"
    path.write_text(
        "standard,dialect_text,dialect\nআমি বাংলায় কথা বলি,Avwg evsjvq K_v ewj,sylheti\n", "utf-8"
    )
    dialog = _dialog(qtbot, fresh_ws, sync_bridge, CORPUS)
    assert dialog.set_path(path)
    assert dialog.bijoy_box.isVisible()
    preview = dialog.bijoy_preview.toPlainText()
    assert "Avwg evsjvq K_v ewj" in preview and "আমি বাংলায় কথা বলি" in unicodedata.normalize(
        "NFC", preview
    )
    qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    assert "legacy Bijoy" in dialog.error.text() and "line 2" in dialog.error.text()
    assert fresh_ws.scalar("SELECT count(*) FROM sentence_pairs") == 0
    dialog.convert_bijoy.setChecked(True)
    with qtbot.waitSignal(dialog.sig_imported) as signal:
        qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    assert signal.args[0]["bijoy_converted"] == 1
    assert fresh_ws.scalar("SELECT dialect_text FROM sentence_pairs") == unicodedata.normalize(
        "NFC", "আমি বাংলায় কথা বলি"
    )
    assert "Bijoy cells converted" in dialog.report.toPlainText()
    dialog.grab().save(str(tmp_path / "bijoy.png"))


def test_unicode_file_shows_no_bijoy_prompt_and_aliases_guess_wide_columns(
    qtbot, fresh_ws, sync_bridge, tmp_path
):
    path = tmp_path / "wide.csv"
    path.write_text("standard,chattogram,noyakhali,note\nআমি ভাত খাই,আঁই ভাত হাই,আঁই ভাত খাই,x\n")
    dialog = _dialog(qtbot, fresh_ws, sync_bridge, CORPUS)
    assert dialog.set_path(path)
    assert not dialog.bijoy_box.isVisible() and dialog.fmt.currentData() == "wide"
    assert dialog.wide_cols["chittagong"].currentData() == "chattogram"
    assert dialog.wide_cols["noakhali"].currentData() == "noyakhali"
    with qtbot.waitSignal(dialog.sig_imported) as signal:
        qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    assert signal.args[0]["unused_columns"] == ["note"]
    assert "columns not used: note" in dialog.report.toPlainText()


def test_dialect_map_field_and_add_dialect(qtbot, fresh_ws, sync_bridge, tmp_path):
    path = tmp_path / "long.csv"
    path.write_text("standard,dialect_text,dialect\nআমি,আঁই,ctgn\nতুমি,তুঁই,cumilla\n", "utf-8")
    dialog = _dialog(qtbot, fresh_ws, sync_bridge, CORPUS)
    assert dialog.set_path(path)
    row = dialog.add_dialect(
        "comilla",
        {"name_en": "Comilla", "name_bn": "কুমিল্লার ভাষা", "region": "", "aliases": ["cumilla"]},
    )
    assert row["code"] == "comilla" and "comilla" in dialog.wide_cols
    assert dialog.fixed_dialect.findData("comilla") >= 0
    dialog.dialect_map.setText("ctgn=chittagong")
    with qtbot.waitSignal(dialog.sig_imported) as signal:
        qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    assert set(signal.args[0]["by_dialect"]) == {"chittagong", "comilla"}
    dialog.dialect_map.setText("ctgn")
    qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    assert "expects FROM=TO" in dialog.error.text()
    assert (
        dialog.add_dialect("x y", {"name_en": "", "name_bn": "", "region": "", "aliases": []})
        is None
    )
    assert "lower-case" in dialog.error.text()


def test_long_question_file_with_gold_only_when_chosen(qtbot, fresh_ws, sync_bridge, tmp_path):
    path = tmp_path / "q.csv"
    path.write_text("id,dialect,question\n1,standard,কী?\n1,সিলেটি,কিতা?\n", "utf-8")
    dialog = _dialog(qtbot, fresh_ws, sync_bridge, QUESTIONS)
    assert dialog.set_path(path)
    assert dialog.question_dialect_col.currentData() == "dialect"
    assert dialog.variant_status.currentData() == "reviewed"
    dialog.variant_status.setCurrentIndex(dialog.variant_status.findData("gold"))
    with qtbot.waitSignal(dialog.sig_imported):
        qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    assert fresh_ws.query("SELECT dialect, status FROM variants ORDER BY dialect") == [
        {"dialect": "standard", "status": "gold"},
        {"dialect": "sylhet", "status": "gold"},
    ]


def test_add_dialect_dialog_lists_known_dialects_and_aliases(qtbot, fresh_ws):
    from engine.importing.tasks import list_workspace_dialects
    from widgets.importing.add_dialect_dialog import AddDialectDialog

    dialog = AddDialectDialog(None, list_workspace_dialects(fresh_ws))
    qtbot.addWidget(dialog)
    text = dialog.known.toPlainText()
    assert "chittagong: Chittagong" in text and "chattogram" in text and "সিলেটি" in text
    dialog.code_edit.setText("comilla")
    dialog.aliases.setText("cumilla, কুমিল্লা")
    assert dialog.code() == "comilla" and dialog.fields()["aliases"] == ["cumilla", "কুমিল্লা"]
