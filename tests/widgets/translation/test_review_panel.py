"""ReviewPanel driven through its actions and signals on a real sample workspace."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from engine.translation import review
from tests.widgets.conftest import MACHINE_TEXT
from widgets.translation.review_panel import ReviewPanel


@pytest.fixture
def panel(qtbot, review_ws):
    panel = ReviewPanel(review_ws, reviewer="রহিম")
    qtbot.addWidget(panel)
    panel.resize(1200, 700)
    panel.show()
    return panel


def machine_variant_id(ws) -> int:
    return ws.scalar("SELECT id FROM variants WHERE provenance = 'machine'")


def test_grid_shows_questions_by_dialects_with_status(panel, review_ws):
    model = panel.model
    assert model.codes == ["chittagong", "sylhet", "noakhali"]
    assert model.rowCount() == 40
    first = model.index(0, 1)
    assert model.data(first) == "কৃত্রিম বুদ্ধিমত্তা কিতারে কয়?"
    assert model.data(first, Qt.ItemDataRole.BackgroundRole) is not None
    assert not model.data(first, Qt.ItemDataRole.DecorationRole).isNull()
    assert model.data(model.index(39, 0)) == "—"  # not translated yet
    assert model.headerData(0, Qt.Orientation.Vertical).startswith("q01  কৃত্রিম")


def test_selecting_a_cell_shows_the_detail_with_exemplar_scores(panel, review_ws, qtbot):
    selected = []
    panel.sig_variant_selected.connect(selected.append)
    vid = machine_variant_id(review_ws)
    assert panel.select_variant(vid)
    assert selected[-1] == vid
    detail = panel.detail
    assert detail.question.text() == "মুদ্রাস্ফীতি বলতে কী বোঝায়?"
    assert detail.gloss.text() == "What is meant by inflation?"
    assert detail.machine.text() == MACHINE_TEXT
    assert detail.editor.toPlainText() == MACHINE_TEXT
    assert detail.exemplars.rowCount() == 1
    assert detail.exemplars.item(0, 2).text() == "তুমি কিতা কও?"
    assert detail.exemplars.item(0, 3).text() == "0.520"
    assert "dialect_bonus: 0.100" in detail.exemplars.item(0, 0).toolTip()
    assert "fallback fired" in detail.retrieval.text()
    assert "0.350" in detail.retrieval.text()


def test_accept_saves_gold_with_history_and_moves_on(panel, review_ws, qtbot):
    first = review_ws.scalar(
        "SELECT v.id FROM variants v JOIN questions q ON q.id = "
        "v.question_id WHERE q.ext_id = 'q01' AND v.dialect = 'sylhet'"
    )
    panel.select_variant(first)
    with qtbot.waitSignal(panel.sig_changed):
        panel.accept_action.trigger()
    state = review.variant_state(review_ws, first)
    assert state.status == "gold" and state.reviewer == "রহিম"
    assert review.variant_history(review_ws, first)[-1]["action"] == "accept"
    # moved to the next question of the same dialect
    assert panel.current_variant != first
    assert panel.view.currentIndex().column() == 1


def test_edit_undo_redo_round_trip(panel, review_ws):
    vid = machine_variant_id(review_ws)
    panel.select_variant(vid)
    panel.detail.editor.setPlainText("মুদ্রাস্ফীতি কারে কয়?")
    assert panel.save_action.isEnabled()
    panel.save_action.trigger()
    assert review.variant_state(review_ws, vid).text == "মুদ্রাস্ফীতি কারে কয়?"
    assert panel.model.data(panel.model.index_of_variant(vid)) == "মুদ্রাস্ফীতি কারে কয়?"
    panel.undo_action.trigger()
    state = review.variant_state(review_ws, vid)
    assert (state.text, state.status, state.provenance) == (MACHINE_TEXT, "draft", "machine")
    panel.redo_action.trigger()
    assert review.variant_state(review_ws, vid).status == "reviewed"
    actions = [h["action"] for h in review.variant_history(review_ws, vid)]
    assert actions == ["edit", "undo", "redo"]
    assert panel.detail.machine.text() == MACHINE_TEXT  # the draft is kept after edits


def test_flag_needs_a_comment(panel, review_ws):
    messages = []
    panel.sig_status_message.connect(messages.append)
    vid = machine_variant_id(review_ws)
    panel.select_variant(vid)
    assert not panel.flag_current()
    assert "comment" in messages[-1]
    panel.detail.comment.setText("ক্রিয়ার রূপ ভুল")
    panel.flag_action.trigger()
    state = review.variant_state(review_ws, vid)
    assert (state.status, state.comment) == ("flagged", "ক্রিয়ার রূপ ভুল")


def test_reject_then_filter_by_status(panel, review_ws):
    vid = machine_variant_id(review_ws)
    panel.select_variant(vid)
    panel.reject_action.trigger()
    panel.status_filter.setCurrentIndex(panel.status_filter.findData("rejected"))
    assert panel.model.rowCount() == 1
    assert panel.current_variant == vid  # the selection survived the reload


def test_no_reviewer_name_no_write(panel, review_ws):
    messages = []
    panel.sig_status_message.connect(messages.append)
    panel.reviewer.clear()
    vid = machine_variant_id(review_ws)
    panel.select_variant(vid)
    assert not panel.reject_current()
    assert review.variant_state(review_ws, vid).status == "draft"
    assert "reviewer name" in messages[-1]


def test_keyboard_next_previous_and_accept(panel, review_ws, qtbot):
    panel.select_cell(0, 0)
    panel.view.setFocus()
    start = panel.current_variant
    qtbot.keyClick(panel.view, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    assert panel.current_variant not in (None, start)
    qtbot.keyClick(panel.view, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    assert panel.current_variant == start
    qtbot.keyClick(panel.detail.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert review.variant_state(review_ws, start).status == "gold"


def test_avro_mode_inserts_bengali_at_the_cursor(panel, review_ws, qtbot):
    modes = []
    panel.sig_avro_mode_changed.connect(modes.append)
    panel.select_variant(machine_variant_id(review_ws))
    panel.detail.editor.clear()
    panel.avro_action.trigger()
    assert modes == [True] and panel.detail.phonetic.isVisible()
    qtbot.keyClicks(panel.detail.phonetic, "ami bangla")
    assert panel.detail.phonetic_preview.text() == "আমি বাংলা"
    qtbot.keyClick(panel.detail.phonetic, Qt.Key.Key_Return)
    assert panel.detail.editor.toPlainText() == "আমি বাংলা"
    assert panel.detail.phonetic.text() == ""


def test_lazy_fetch_loads_rows_in_blocks(qtbot, review_ws, monkeypatch):
    import widgets.translation.review_model as rm

    monkeypatch.setattr(rm, "FETCH_BLOCK", 7)
    panel = ReviewPanel(review_ws, reviewer="r")
    qtbot.addWidget(panel)
    model = panel.model
    assert model.loaded <= 14 < len(model.question_ids)  # the view may fetch one more block
    panel.select_cell(30, 0)
    assert model.loaded >= 31


def test_reload_sets_shows_a_new_question_set_and_keeps_the_choice(panel, review_ws):
    from engine.samples.study import add_synthetic_questions

    before = panel.set_filter.count()
    panel.set_filter.setCurrentIndex(1)
    chosen = panel.set_filter.currentData()
    add_synthetic_questions(review_ws, 5, ["sylhet"])
    assert panel.set_filter.count() == before  # not seen until reload_sets
    panel.reload_sets()
    assert panel.set_filter.count() == before + 1
    assert panel.set_filter.currentData() == chosen
    names = [panel.set_filter.itemText(i) for i in range(panel.set_filter.count())]
    assert any(name.endswith("(5)") for name in names[before:])
    panel.set_filter.setCurrentIndex(panel.set_filter.count() - 1)
    assert panel.model.rowCount() == 5


def test_a_new_workspace_shows_how_to_get_questions_until_some_are_imported(qtbot, workspace):
    from importlib.resources import as_file, files

    from engine.importing.importers import import_questions

    panel = ReviewPanel(workspace, reviewer="r")
    qtbot.addWidget(panel)
    panel.show()
    assert panel.model.rowCount() == 0
    assert panel.empty_hint.isVisible() and not panel.view.isVisible()
    assert "File → Import questions…" in panel.empty_hint.text()
    with as_file(files("resources") / "sample" / "questions.csv") as path:
        import_questions(workspace, path, name="sample questions")
    panel.reload_sets()  # what the main window calls after an import
    assert not panel.empty_hint.isVisible() and panel.view.isVisible()
    assert panel.model.rowCount() == 40


def test_a_reviewer_name_with_a_bidi_control_writes_nothing(panel, review_ws, qtbot):
    """The name rule of every name (``review set --reviewer`` exits 2 on the same name)."""
    from PySide6.QtTest import QTest

    from tests.widgets.keyboard import type_text

    messages = []
    panel.sig_status_message.connect(messages.append)
    QTest.keyClick(panel.reviewer, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    type_text(panel.reviewer, "Karim\u202eevil")
    QTest.keyClick(panel.reviewer, Qt.Key.Key_Return)
    vid = machine_variant_id(review_ws)
    panel.select_variant(vid)
    panel.reject_action.trigger()
    assert review.variant_state(review_ws, vid).status == "draft"
    assert "bidirectional control U+202E" in messages[-1]


def test_ctrl_z_in_the_gold_field_undoes_the_saved_edit(panel, review_ws, qtbot):
    """The keyboard flow leaves the focus in the gold field after a save: Ctrl+Z there undoes
    the field's own typing first, then the saved edit; Ctrl+Shift+Z redoes it."""
    from PySide6.QtTest import QTest

    from tests.widgets.keyboard import type_text

    vid = machine_variant_id(review_ws)
    panel.select_variant(vid)
    editor = panel.detail.editor
    editor.setFocus()
    qtbot.waitUntil(editor.hasFocus)
    editor.selectAll()
    type_text(editor, "মুদ্রাস্ফীতি")
    QTest.keyClick(editor, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert review.variant_state(review_ws, vid).text == "মুদ্রাস্ফীতি"
    panel.select_variant(vid)  # back to the saved cell, the focus in the gold field
    editor.setFocus()
    qtbot.waitUntil(editor.hasFocus)
    type_text(editor, " কী")  # typed, not saved: the first Ctrl+Z takes it back
    QTest.keyClick(editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert editor.toPlainText() == "মুদ্রাস্ফীতি"
    assert review.variant_state(review_ws, vid).status == "reviewed"
    while editor.document().isUndoAvailable():
        QTest.keyClick(editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    state = review.variant_state(review_ws, vid)
    assert (state.text, state.status) == (MACHINE_TEXT, "draft")
    QTest.keyClick(
        editor,
        Qt.Key.Key_Z,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert review.variant_state(review_ws, vid).status == "reviewed"
