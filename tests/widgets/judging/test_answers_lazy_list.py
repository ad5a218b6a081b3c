"""The answers list fetches rows in blocks, yet every answer stays reachable: by keyboard to
the last answer, by id to one not fetched yet; and the whole filter result is read at once,
as a compact array in the order of the answers' ids."""

from __future__ import annotations

import sqlite3

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from engine.judging import answer_queries
from engine.judging.answer_queries import AnswerFilter, answer_id_array, answer_ids
from tests.widgets.study_fixtures import fast_watcher, study_db, study_ws  # noqa: F401 (fixtures)
from widgets.judging.answers_model import FETCH_BLOCK
from widgets.judging.answers_panel import AnswersPanel


@pytest.fixture
def panel(qtbot, study_ws, sync_bridge, fast_watcher):
    panel = AnswersPanel(study_ws, sync_bridge, watcher=fast_watcher)
    qtbot.addWidget(panel)
    panel.resize(1400, 800)
    panel.show()
    qtbot.waitUntil(lambda: len(panel.model.ids) > 2 * FETCH_BLOCK, timeout=10000)
    return panel


def dialect_answers(ws) -> list[int]:
    return [
        r["id"]
        for r in ws.query(
            "SELECT d.id FROM responses d JOIN runs r ON r.id = d.run_id AND r.kind = 'answer' "
            "JOIN variants v ON v.id = d.variant_id WHERE v.dialect != 'standard' "
            "AND d.status = 'done' ORDER BY d.id"
        )
    ]


@pytest.mark.parametrize(
    "modifier", [Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ControlModifier]
)
def test_end_by_keyboard_reaches_the_last_answer_and_home_the_first(panel, study_ws, modifier):
    answers = dialect_answers(study_ws)
    assert panel.model.rowCount() < len(answers)  # the last answer is not fetched yet
    panel.view.setFocus()
    QTest.keyClick(panel.view, Qt.Key.Key_Down)
    QTest.keyClick(panel.view, Qt.Key.Key_End, modifier)
    assert panel.current_answer() == answers[-1]
    assert panel.view.currentIndex().row() == len(answers) - 1
    assert panel.detail.answers[1].toPlainText()  # its detail is shown
    QTest.keyClick(panel.view, Qt.Key.Key_Up)
    assert panel.current_answer() == answers[-2]
    QTest.keyClick(panel.view, Qt.Key.Key_Home, modifier)
    assert panel.current_answer() == answers[0]


def test_selecting_an_answer_not_fetched_yet_fetches_up_to_it(panel, study_ws):
    answers = dialect_answers(study_ws)
    far = answers[2 * FETCH_BLOCK + 5]
    assert panel.model.rowCount() == FETCH_BLOCK and panel.model.row_of(far) is None
    assert panel.select_answer(far)
    assert panel.current_answer() == far
    assert panel.model.row_of(far) == 2 * FETCH_BLOCK + 5 < panel.model.rowCount()
    assert panel.model.row_data(2 * FETCH_BLOCK + 5)["id"] == far
    assert not panel.select_answer(max(answers) + 1000)  # not listed
    assert panel.current_answer() == far


def test_a_filter_result_is_the_whole_list_in_id_order(study_db):
    path = str(study_db)
    for flt in (
        AnswerFilter(),
        AnswerFilter(dialect="sylhet", question_type=2),
        AnswerFilter(min_gap=5.0),
    ):
        ids = answer_id_array(path, flt)
        assert list(ids) == sorted(ids) == answer_ids(path, flt) and len(set(ids)) == len(ids)
    assert not answer_id_array(path, AnswerFilter(dialect="no such dialect"))


def test_a_replaced_filter_stops_reading(study_db, monkeypatch):
    monkeypatch.setattr(answer_queries, "CANCEL_CHECK_STEPS", 100)  # the study is small
    with pytest.raises(sqlite3.OperationalError, match="interrupted"):
        answer_id_array(str(study_db), AnswerFilter(), cancelled=lambda: True)


def test_first_rows_show_before_the_whole_list_which_keeps_the_place(
    qtbot, study_ws, fast_watcher, monkeypatch, threaded_bridge
):
    """A real threaded bridge; the whole list's read is held back (fault injection) to look
    at the panel in between."""
    import threading

    import widgets.judging.answers_panel as answers_module

    release = threading.Event()
    read = answers_module.answer_id_array

    def slow_whole_list(path, flt, after_id=0, limit=None, cancelled=None):
        if limit is None and after_id == 0:
            release.wait(30)
        return read(path, flt, after_id, limit, cancelled)

    monkeypatch.setattr(answers_module, "answer_id_array", slow_whole_list)
    panel = AnswersPanel(study_ws, threaded_bridge, watcher=fast_watcher)
    qtbot.addWidget(panel)
    panel.resize(1400, 800)
    panel.show()
    try:
        qtbot.waitUntil(lambda: len(panel.model.ids) == FETCH_BLOCK, timeout=10000)
        answers = dialect_answers(study_ws)
        assert list(panel.model.ids) == answers[:FETCH_BLOCK]
        panel.view.setFocus()
        for _ in range(4):
            QTest.keyClick(panel.view, Qt.Key.Key_Down)
        chosen = panel.view.currentIndex().row()
        assert chosen >= 3 and panel.current_answer() == answers[chosen]
        release.set()
        qtbot.waitUntil(lambda: len(panel.model.ids) == len(answers), timeout=10000)
        assert panel.current_answer() == answers[chosen]  # no reset: the place is kept
        assert panel.count.text() == f"{len(answers)} answers"
        QTest.keyClick(panel.view, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
        assert panel.current_answer() == answers[-1]
        assert not threaded_bridge.errors
    finally:
        release.set()
