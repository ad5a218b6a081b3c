"""The suite on judges with planted behaviour (tests/engine/validity/planted.py): a judge that
prefers the answer shown first has its flip rate recovered within the interval, one that
ignores order flips nothing, one that scores everything 5 fails discrimination; the card is
stored, read back whole, and a second run decodes nothing new."""

from __future__ import annotations

import pytest

from engine.llm.runs import backend as run_backend
from engine.validity.api import (
    FAIL,
    INVARIANCE,
    PASS,
    POSITION,
    RETEST,
    SENSITIVITY,
    ValidityCard,
    ValidityRequest,
    latest_cards,
    validity_cards,
)

from . import planted

QUESTIONS = 40


@pytest.fixture
def study(workspace):
    planted.build(workspace, QUESTIONS)
    return workspace


def run_suite(ws, monkeypatch, reply, **fields):
    backend = planted.ScriptedBackend(reply)
    monkeypatch.setattr(run_backend, "backend_for_run", lambda _ws, _run: backend)
    judge_run = planted.judge_run(ws, reply)
    result = ValidityRequest(judge_run=judge_run, **fields).run(ws)
    return result, backend


def test_a_judge_that_prefers_the_first_answer_has_its_flip_rate_recovered(study, monkeypatch):
    result, _backend = run_suite(study, monkeypatch, planted.first_preferring, per_dialect=30)
    card = result.card
    assert card is not None and [d.dialect for d in card.dialects] == list(planted.DIALECTS)
    for dialect in card.dialects:
        position = dialect.family(POSITION)
        assert position is not None and position.n == 30 == dialect.n_items
        low, high = position.rate.low, position.rate.high
        assert low is not None and high is not None
        assert low <= planted.FIRST_SHARE <= high  # the planted share, within the interval
        assert position.rate.value > 0.1 and position.status == FAIL
        assert position.mean_shift.value is not None and position.mean_shift.value > 0
        # nothing else was planted: decoded again and under neutral changes it holds
        assert dialect.family(RETEST).rate.value == 1.0
        assert dialect.family(INVARIANCE).rate.value == 1.0
        assert dialect.family(SENSITIVITY).rate.value == 1.0
        assert dialect.dialect_name.lower() in dialect.sentence.lower()
        assert dialect.sentence.startswith("Order flips this judge's")
    assert not card.passed


def test_the_flip_rate_is_the_planted_share_of_the_sampled_questions(study, monkeypatch):
    result, _backend = run_suite(study, monkeypatch, planted.first_preferring, per_dialect=30)
    asked = [
        int(r["item_key"].removeprefix("order:r"))
        for r in study.query(
            "SELECT item_key FROM responses WHERE run_id = ? AND item_key LIKE 'order:%'",
            (result.card.run_id,),
        )
    ]
    question = {
        r["id"]: (r["dialect"], int(r["ext_id"][1:]))
        for r in study.query(
            "SELECT d.id, v.dialect, q.ext_id FROM responses d "
            "JOIN variants v ON v.id = d.variant_id JOIN questions q ON q.id = v.question_id"
        )
    }
    for dialect in result.card.dialects:
        questions = [question[r][1] for r in asked if question[r][0] == dialect.dialect]
        assert len(questions) == 30
        planted_share = sum(map(planted.biased, questions)) / len(questions)
        assert dialect.family(POSITION).rate.value == pytest.approx(planted_share)


def test_a_judge_that_ignores_order_flips_nothing_and_passes(study, monkeypatch):
    result, _backend = run_suite(study, monkeypatch, planted.order_blind, per_dialect=15)
    card = result.card
    for dialect in card.dialects:
        position = dialect.family(POSITION)
        assert position.rate.value == 0.0 and position.rate.high == 0.0 and position.n == 15
        assert position.status == PASS and position.mean_shift.value == 0.0
        assert all(f.status == PASS for f in dialect.families)
        assert dialect.noise == 0.0
    assert card.passed


def test_a_judge_that_scores_everything_five_fails_discrimination(study, monkeypatch):
    result, _backend = run_suite(study, monkeypatch, planted.all_fives, per_dialect=10)
    for dialect in result.card.dialects:
        sensitivity = dialect.family(SENSITIVITY)
        assert sensitivity.rate.value == 0.0 and sensitivity.status == FAIL
        assert sensitivity.n == 20  # another question's answer and the emptied one, each item
        assert {c.check for c in dialect.checks if c.family == SENSITIVITY} == {
            "other_answer",
            "emptied",
        }
        assert dialect.family(POSITION).status == PASS  # it is consistent, only blind
        assert "wrong or empty answer" in dialect.sentence
    assert not result.card.passed


def test_the_card_is_stored_and_a_second_run_decodes_nothing(study, monkeypatch):
    result, backend = run_suite(study, monkeypatch, planted.order_blind, per_dialect=5)
    asked = len(backend.seen)
    # per item: order, retest, line breaks, punctuation, padding, other answer, emptied;
    # NFD and the other য় reach the judge as the same prompt (its text is NFC): not asked
    assert asked == 2 * 5 * 7
    for dialect in result.card.dialects:
        held = {c.check: c.same_prompt for c in dialect.checks}
        assert held["unicode_nfd"] == 5 and held["ya_spelling"] == 5
    again = ValidityRequest(judge_run=result.card.judge_run_id, per_dialect=5, flip_max=0.0).run(
        study
    )
    assert len(backend.seen) == asked and again.runs[0]["done_now"] == 0
    assert again.card.bands.flip_max == 0.0
    stored = validity_cards(study)
    assert [c.id for c in stored] == [again.card.id, result.card.id]
    assert latest_cards(study) == [again.card]
    assert ValidityCard.from_dict(again.card.as_dict()) == again.card


def test_where_the_study_has_romanized_texts_the_answer_is_asked_romanized_too(study, monkeypatch):
    with study.transaction() as conn:  # a Romanized rendering of one question
        conn.execute(
            "INSERT INTO variants(question_id, dialect, text, provenance, status, script, "
            "updated_at) VALUES (1, 'sylhet', 'proshno-1', 'human', 'gold', 'roman', '2026')"
        )
    result, backend = run_suite(study, monkeypatch, planted.order_blind, per_dialect=4)
    romanized = [r.key for r in backend.seen if r.key.startswith("romanized:")]
    assert len(romanized) == 2 * 4
    for dialect in result.card.dialects:
        row = next(c for c in dialect.checks if c.check == "romanized")
        assert row.family == INVARIANCE and row.n == 4 and row.rate.value == 1.0
        # shown on its own: the rubric's script rule may rightly move it, so not in the band
        assert dialect.family(INVARIANCE).n == 3 * 4


def test_the_panel_tasks_estimate_run_and_overview(study, monkeypatch, tmp_path):
    from engine.validity.tasks import estimate_validity_at, run_validity_at, validity_overview_at

    backend = planted.ScriptedBackend(planted.order_blind)
    monkeypatch.setattr(run_backend, "backend_for_run", lambda _ws, _run: backend)
    monkeypatch.setattr(
        "engine.llm.runs.estimates.open_backend", lambda _model, **_schedule: backend
    )
    judge_run = planted.judge_run(study, planted.order_blind)
    path = str(study.path)
    assert validity_overview_at(path)["cards"] == []
    request = ValidityRequest(per_dialect=3)
    estimate = estimate_validity_at(path, request, sample=4)
    assert estimate is not None and estimate["items"] == 2 * 3 * 7 == estimate["left"]
    assert study.scalar("SELECT count(*) FROM runs WHERE kind = 'judge_validity'") == 0
    result = run_validity_at(path, request)
    overview = validity_overview_at(path)
    assert overview["primary"] == judge_run and overview["cards"] == [result.card]
    assert [r["run_id"] for r in overview["judge_runs"]] == [judge_run]


def test_a_judge_run_whose_model_was_removed_is_refused_not_judged_by_another(study):
    from engine.errors import UserError

    judge_run = planted.judge_run(study, planted.order_blind)
    with study.transaction() as conn:
        conn.execute("UPDATE runs SET model_id = NULL WHERE id = ?", (judge_run,))
    with pytest.raises(UserError, match=f"judge run {judge_run}: its judge model was removed"):
        ValidityRequest(judge_run=judge_run).run(study)
    assert study.scalar("SELECT count(*) FROM runs WHERE kind = 'judge_validity'") == 0
