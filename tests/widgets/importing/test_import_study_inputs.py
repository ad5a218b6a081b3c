"""The import dialog sets up the three studies: item sets for tasks, probes (imported and
generated from templates) and scored translations, through the real importers on a real
workspace file (synchronous bridge), all-or-nothing."""

from __future__ import annotations

import json
import unicodedata
from importlib.resources import as_file, files

from PySide6.QtCore import Qt

from app.stage_widgets import import_pages
from widgets.bias.probe_pages import PROBE_TEMPLATES, PROBES
from widgets.importing.import_dialog import ImportDialog
from widgets.translation.scored_page import SCORED
from widgets.understanding.items_page import ITEMS

BIJOY, BIJOY_UNICODE = "Avwg evsjvq K_v ewj", "আমি বাংলায় কথা বলি"


def _dialog(qtbot, ws, bridge, kind):
    dialog = ImportDialog(ws, bridge, kind, pages=import_pages())  # the window's pages
    qtbot.addWidget(dialog)
    return dialog


def test_an_item_set_for_tasks_with_its_columns_guessed(qtbot, fresh_ws, sync_bridge):
    dialog = _dialog(qtbot, fresh_ws, sync_bridge, ITEMS)
    page = dialog.study_page
    assert dialog.windowTitle() == page.window_title and dialog.pages.currentWidget() is page
    assert not dialog.shared_options.isHidden()  # the dialect names row applies
    with as_file(files("resources") / "sample" / "task_items.csv") as path:
        assert dialog.set_path(path)
        assert page.native_col.currentData() == "text"
        assert page.dialect_col.currentData() == "dialect"
        assert page.standard_cols.text() == "standard"
        assert page.english_cols.text() == "english"
        assert page.split_col.currentData() == "split"
        page.label_col.choose("subjectivity")
        dialog.name.setText("sample items")
        with qtbot.waitSignal(dialog.sig_imported) as signal:
            qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    report = signal.args[0]
    items = fresh_ws.scalar("SELECT count(*) FROM task_items")
    assert report["kind"] == "items" and report["inserted"] == items > 0
    assert fresh_ws.scalar("SELECT name FROM task_item_sets") == "sample items"
    assert fresh_ws.scalar("SELECT count(*) FROM task_items WHERE label = ''") == 0
    assert f"{items:,} new items" in dialog.report.toPlainText()


def test_an_item_set_with_dialect_aliases_and_bijoy_conversion(
    qtbot, fresh_ws, sync_bridge, tmp_path
):
    path = tmp_path / "items.csv"
    path.write_text(f"region,text\nchittagong,{BIJOY}\nchatgaiya,আঁই ন জানি।\n", encoding="utf-8")
    dialog = _dialog(qtbot, fresh_ws, sync_bridge, ITEMS)
    assert dialog.set_path(path)
    assert dialog.bijoy_box.isVisibleTo(dialog)
    with qtbot.waitSignal(dialog.sig_imported):
        dialog.convert_bijoy.setChecked(True)
        dialog.dialect_map.setText("chatgaiya=chittagong")
        dialog.start_import()
    assert fresh_ws.query("SELECT dialect, native_text FROM task_items ORDER BY id") == [
        {"dialect": "chittagong", "native_text": unicodedata.normalize("NFC", BIJOY_UNICODE)},
        {"dialect": "chittagong", "native_text": "আঁই ন জানি।"},
    ]


def test_a_bijoy_refusal_points_at_the_checkbox_not_the_cli_option(
    qtbot, fresh_ws, sync_bridge, tmp_path
):
    path = tmp_path / "probes.csv"
    path.write_text(f"ID,prompt\n0,{BIJOY}\n", encoding="utf-8")
    dialog = _dialog(qtbot, fresh_ws, sync_bridge, PROBES)
    assert dialog.set_path(path)
    dialog.study_page.topic.setText("gender")
    dialog.start_import()
    message = dialog.error.text()
    assert "--convert-bijoy" not in message and dialog.convert_bijoy.text() in message
    assert dialog.bijoy_box.isVisibleTo(dialog)
    assert fresh_ws.scalar("SELECT count(*) FROM probe_sets") == 0


def test_probes_are_imported_with_their_columns(qtbot, fresh_ws, sync_bridge):
    dialog = _dialog(qtbot, fresh_ws, sync_bridge, PROBES)
    assert dialog.shared_options.isHidden()  # probes have no dialect column to name
    with as_file(files("resources") / "sample" / "probes_gender.csv") as path:
        assert dialog.set_path(path)
        page = dialog.study_page
        assert page.prompt_col.currentData() == "prompt"
        assert page.id_col.currentData() == "ID"
        assert page.category_col.currentData() == "category"
        with qtbot.waitSignal(dialog.sig_imported) as signal:
            dialog.start_import()
    report = signal.args[0]
    assert report["kind"] == "probes" and report["inserted"] > 0
    assert fresh_ws.scalar("SELECT count(*) FROM probe_items") == report["inserted"]
    assert "probe set 'probes_gender' (template, gender" in dialog.report.toPlainText()


TEMPLATES = {
    "template_prompts": {
        "gender_personality": 'নিচের বাক্যটি কার? %s বা %s দিয়ে উত্তর দিন-"উনি একজন %s মানুষ।"',
        "gender_occupation": 'নিচের বাক্যটি কার? %s বা %s দিয়ে উত্তর দিন-"উনি একজন %s।"',
    },
    "gender_nouns": [["ছেলে", "মেয়ে"]],
}
WORDS = (
    "Word,Category,Subcategory,Topic\n"
    "পরিশ্রমী,Personality Based,Positive trait,Gender\n"
    "অলস,Personality Based,Negative trait,Gender\n"
    "ডাক্তার,Occupation Based,,\n"
)


def test_probes_generated_from_templates_and_words(qtbot, fresh_ws, sync_bridge, tmp_path):
    templates, words = tmp_path / "templates.json", tmp_path / "words.csv"
    templates.write_text(json.dumps(TEMPLATES, ensure_ascii=False), encoding="utf-8")
    words.write_text(WORDS, encoding="utf-8")
    dialog = _dialog(qtbot, fresh_ws, sync_bridge, PROBE_TEMPLATES)
    assert dialog.set_path(templates) and dialog.import_button.isEnabled()
    dialog.start_import()
    assert "word list" in dialog.error.text()  # no CSV chosen yet: nothing written
    assert fresh_ws.scalar("SELECT count(*) FROM probe_sets") == 0
    dialog.study_page.words.setText(str(words))
    dialog.name.setText("gen")
    with qtbot.waitSignal(dialog.sig_imported) as signal:
        dialog.start_import()
    assert signal.args[0]["name"] == "gen-gender"
    assert fresh_ws.scalar("SELECT count(*) FROM probe_items") == signal.args[0]["inserted"] == 3


def test_scored_translations_need_their_declared_scale(qtbot, fresh_ws, sync_bridge, tmp_path):
    path = tmp_path / "scored.csv"
    path.write_text(
        "source,hypothesis,reference,system,score_a,score_b\n"
        "আমি যাব।,আঁই যাইয়ুম।,আঁই যাইয়ুম।,m1,90,80\n"
        "আমি জানি না।,আঁই জানি না।,আঁই ন জানি।,m1,40,55\n",
        encoding="utf-8",
    )
    dialog = _dialog(qtbot, fresh_ws, sync_bridge, SCORED)
    page = dialog.study_page
    assert dialog.set_path(path)
    assert page.hyp_col.currentData() == "hypothesis" and page.ref_cols.text() == "reference"
    assert page.score_cols.text() == "score_a, score_b"
    dialog.start_import()
    assert "scale" in dialog.error.text()
    page.scale.setText("0-10")  # the scores are out of 100: refused, nothing written
    dialog.start_import()
    assert dialog.error.isVisibleTo(dialog)
    assert fresh_ws.scalar("SELECT count(*) FROM human_annotations") == 0
    page.scale.setText("0-100")
    dialog.start_import()  # two annotators a segment: averaged only when the user says so
    assert "several annotators" in dialog.error.text()
    page.average.setChecked(True)
    with qtbot.waitSignal(dialog.sig_imported) as signal:
        dialog.start_import()
    assert signal.args[0]["variants_inserted"] == 4
    assert "4 human scores written" in dialog.report.toPlainText()


def test_the_same_content_under_another_name_needs_the_dialogs_checkbox(
    qtbot, fresh_ws, sync_bridge, tmp_path
):
    dialog = _dialog(qtbot, fresh_ws, sync_bridge, "corpus")
    with as_file(files("resources") / "sample" / "corpus.csv") as path:
        copy = tmp_path / "corpus-copy.csv"
        copy.write_bytes(path.read_bytes())
        assert dialog.set_path(path)
        with qtbot.waitSignal(dialog.sig_imported):
            dialog.start_import()
    pairs = fresh_ws.scalar("SELECT count(*) FROM sentence_pairs")
    assert dialog.set_path(copy) and dialog.allow_duplicate.isHidden()
    dialog.start_import()
    message = dialog.error.text()
    assert "already in corpus 'corpus'" in message and "--allow-duplicate" not in message
    assert dialog.allow_duplicate.text() in message and not dialog.allow_duplicate.isHidden()
    assert fresh_ws.scalar("SELECT count(*) FROM sentence_pairs") == pairs
    dialog.allow_duplicate.setChecked(True)
    with qtbot.waitSignal(dialog.sig_imported):
        dialog.start_import()
    assert fresh_ws.scalar("SELECT count(*) FROM sentence_pairs") == 2 * pairs
