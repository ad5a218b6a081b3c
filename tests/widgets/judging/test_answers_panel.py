"""AnswersPanel on a real workspace with a synthetic study: lazy table, filters in SQL,
side-by-side detail with highlighted differences, overrides through the judgment store."""

from __future__ import annotations

import pytest

from engine.judging import store
from engine.judging.answer_queries import AnswerFilter, answer_ids
from engine.samples import study as sample_study
from tests.widgets.study_fixtures import fast_watcher, study_db, study_ws  # noqa: F401 (fixtures)
from widgets.judging.answers_detail import ADDED, REMOVED, word_diff_html
from widgets.judging.answers_model import FETCH_BLOCK
from widgets.judging.answers_panel import AnswersPanel


@pytest.fixture
def panel(qtbot, study_ws, sync_bridge, fast_watcher):
    panel = AnswersPanel(study_ws, sync_bridge, annotator="রহিম", watcher=fast_watcher)
    qtbot.addWidget(panel)
    panel.resize(1400, 800)
    panel.show()
    return panel


def primary_count(ws) -> int:
    return ws.scalar("SELECT count(*) FROM judgments WHERE run_id = ?", (store.primary_judge(ws),))


def test_table_fetches_lazily_over_judgment_ids(panel, study_ws):
    total = primary_count(study_ws)
    assert total > FETCH_BLOCK
    assert len(panel.model.ids) == total
    assert panel.model.rowCount() == FETCH_BLOCK
    assert panel.model.canFetchMore()
    panel.model.fetchMore()
    assert panel.model.rowCount() == min(total, 2 * FETCH_BLOCK)
    assert panel.select_row(total - 1)  # far row: fetched on demand
    assert panel.model.rowCount() == total
    assert panel.count.text() == f"{total} answers"


def test_filters_narrow_the_rows_in_sql(panel, study_ws, qtbot):
    panel.dialect.setCurrentIndex(panel.dialect.findData("sylhet"))
    ids = panel.model.ids
    assert ids and len(ids) < primary_count(study_ws)
    for row in range(min(len(ids), 20)):
        assert panel.model.row_data(row)["dialect"] == "sylhet"
    with qtbot.waitSignal(panel.sig_filtered) as blocker:
        panel.min_gap.setValue(6.0)
    assert blocker.args[0] == len(panel.model.ids) < len(ids)
    assert all(panel.model.row_data(r)["final"] <= 4.0 for r in range(panel.model.rowCount()))
    panel.min_gap.setValue(0)
    panel.needs_review.setChecked(True)
    queue = store.review_queue(study_ws, run_id=store.primary_judge(study_ws))
    assert sorted(panel.model.judgment_at(r) for r in range(panel.model.rowCount())) == sorted(
        r["judgment_id"] for r in queue if r["dialect"] == "sylhet"
    )


def test_detail_shows_both_sides_with_differences_and_verdict(panel, study_ws):
    judgment = study_ws.query(
        "SELECT j.id FROM judgments j JOIN responses d "
        "ON d.id = j.response_id WHERE j.gate = 'ok' AND j.run_id = ? "
        "AND d.text != (SELECT text FROM responses WHERE id = "
        "j.standard_response_id) LIMIT 1",
        (store.primary_judge(study_ws),),
    )[0]["id"]
    selected = []
    panel.sig_answer_selected.connect(selected.append)
    assert panel.select_judgment(judgment)
    assert selected[-1] == judgment
    detail = panel.detail
    texts = study_ws.query(
        "SELECT q.text AS q, dv.text AS dq, d.text AS da FROM judgments j "
        "JOIN responses d ON d.id = j.response_id JOIN variants dv "
        "ON dv.id = d.variant_id JOIN questions q ON q.id = dv.question_id "
        "WHERE j.id = ?",
        (judgment,),
    )[0]
    assert detail.questions[0].toPlainText() == texts["q"]
    assert detail.questions[1].toPlainText() == texts["dq"]
    assert detail.answers[1].toPlainText() == texts["da"]
    assert REMOVED in detail.answers[0].toHtml() or ADDED in detail.answers[1].toHtml()
    assert detail.checks[1].text().startswith("Script check: dialect answer passes")
    assert "The " in detail.reasoning.text()
    row = study_ws.query("SELECT * FROM judgments WHERE id = ?", (judgment,))[0]
    assert detail.scores.item(0, 2).text() == str(row["comprehension"])
    assert f"confidence {row['confidence']}" in detail.verdict.text()


def test_script_gate_failure_is_shown(panel, study_ws):
    judgment = study_ws.scalar(
        "SELECT id FROM judgments WHERE gate = 'script' AND run_id = ?",
        (store.primary_judge(study_ws),),
    )
    if judgment is None:
        pytest.skip("this synthetic study drew no English answer")
    panel.select_judgment(judgment)
    assert "fails the script check" in panel.detail.checks[1].text()


def test_override_keeps_the_machine_score_and_updates_the_row(panel, study_ws, qtbot):
    panel.select_row(0)
    judgment = panel.current_judgment()
    machine = study_ws.scalar("SELECT final FROM judgments WHERE id = ?", (judgment,))
    detail = panel.detail
    for spin in detail.spins.values():
        spin.setValue(5)
    detail.reason.setText("")
    detail.save_button.click()  # no reason: refused, nothing written
    assert store.override_history(study_ws, judgment) == []
    detail.reason.setText("the dialect answer is as complete as the standard one")
    with qtbot.waitSignal(panel.sig_changed):
        detail.save_button.click()
    history = store.override_history(study_ws, judgment)
    assert history[-1]["annotator"] == "রহিম" and history[-1]["score"] == 10.0
    assert history[-1]["details"]["machine"]["final"] == machine
    assert study_ws.scalar("SELECT final FROM judgments WHERE id = ?", (judgment,)) == machine
    assert panel.model.data(panel.model.index(0, 7)) == "10.0"  # Human column
    assert panel.model.data(panel.model.index(0, 3)) == "10.0"  # effective score
    assert "রহিম set 10.0" in detail.history.text()


def test_live_rows_are_appended_as_a_run_writes(panel, study_ws, qtbot):
    total = len(panel.model.ids)
    _run, rows = sample_study.add_answer_model(study_ws, "synthetic model live", seed=5)
    sample_study.stream_judgments(
        str(study_ws.path), store.primary_judge(study_ws), rows, batch=25, pause_s=0
    )
    qtbot.waitUntil(lambda: len(panel.model.ids) == total + len(rows), timeout=5000)
    assert panel.count.text() == f"{total + len(rows)} answers"


def test_answer_ids_after_id_returns_only_new_rows(study_db):
    ids = answer_ids(str(study_db), AnswerFilter())
    assert answer_ids(str(study_db), AnswerFilter(), after_id=ids[-3]) == ids[-2:]


def test_word_diff_marks_only_changed_words():
    a, b = word_diff_html("আমি ভাত খাই <b>", "আমি রুটি খাই <b>")
    assert a == f'আমি <span style="background:{REMOVED}">ভাত</span> খাই &lt;b&gt;'
    assert b == f'আমি <span style="background:{ADDED}">রুটি</span> খাই &lt;b&gt;'
