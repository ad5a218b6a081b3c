"""Judging storage on a real workspace: answer pairs, review queue, overrides with
provenance, effective scores, judge roles, agreement and self-preference warnings."""

import json

import pytest

from engine.errors import UserError
from engine.judging import paired_scores, store
from engine.judging.paired_scores import paired_machine_finals
from engine.judging.rubric import CRITERION_KEYS, load_rubric
from engine.stats.agreement import agreement

from .study_fixture import add_judge, build_study

RUBRIC = load_rubric()


def dialect_responses(ws):
    return [r["dialect_response_id"] for r in store.answer_pairs(ws)]


def test_answer_pairs_match_each_dialect_answer_with_its_standard_answer(workspace):
    ids = build_study(workspace)
    pairs = store.answer_pairs(workspace)
    assert len(pairs) == 2 * 3 * 2  # models × questions × dialects
    for p in pairs:
        assert p["dialect"] in ("sylhet", "chittagong")
        assert f"({p['dialect']})" in p["dialect_answer"]
        assert p["standard_answer"].endswith("(standard)।")
        std_run = workspace.scalar(
            "SELECT run_id FROM responses WHERE id = ?", (p["standard_response_id"],)
        )
        assert std_run == p["answer_run_id"]
    only_b = store.answer_pairs(workspace, [ids["answer_runs"]["llama-b"]])
    assert len(only_b) == 6 and {p["answer_run_id"] for p in only_b} == {
        ids["answer_runs"]["llama-b"]
    }
    # an answer without its standard counterpart cannot be judged
    workspace.conn.execute(
        "UPDATE responses SET status = 'error', text = NULL WHERE variant_id = ? AND run_id = ?",
        (ids["variants"][("q1", "standard")], ids["answer_runs"]["gemma-a"]),
    )
    assert len(store.answer_pairs(workspace)) == 10


def test_insert_judgments_is_idempotent(workspace):
    build_study(workspace)
    run = add_judge(workspace, "judge-x", "qwen", {})
    rid = dialect_responses(workspace)[0]
    row = {
        "response_id": rid,
        "standard_response_id": None,
        "judge_response_id": None,
        "gate": "refusal",
        "reasoning": "[gate] empty",
        "confidence": None,
        "final": 0.0,
        "scores": dict.fromkeys(CRITERION_KEYS, 0),
    }
    assert store.insert_judgments(workspace, run, [row]) == 1
    assert store.insert_judgments(workspace, run, [row]) == 0
    assert store.judged_response_ids(workspace, run) == {rid}


def test_review_queue_and_override_keep_the_original(workspace):
    build_study(workspace)
    rids = dialect_responses(workspace)
    run = add_judge(workspace, "judge-x", "qwen", {rid: 7.0 for rid in rids[:4]}, confidence=4)
    low = add_judge(workspace, "judge-y", "mistral", {rids[0]: 2.0, rids[1]: 8.0}, confidence=2)
    queue = store.review_queue(workspace)
    assert [q["run_id"] for q in queue] == [low, low]
    assert store.review_queue(workspace, threshold=4, run_id=run)[0]["confidence"] == 4
    target = queue[0]
    assert target["standard_question"] and target["dialect_answer"]
    before = workspace.query("SELECT * FROM judgments WHERE id = ?", (target["judgment_id"],))

    scores = {"comprehension": 5, "correctness": 4, "completeness": 4, "clarity": 5, "length": 5}
    store.add_override(
        workspace,
        target["judgment_id"],
        annotator="Rahim (Sylheti native)",
        reason="judge misread the Sylheti কিতা",
        rubric=RUBRIC,
        scores=scores,
    )
    assert (
        workspace.query("SELECT * FROM judgments WHERE id = ?", (target["judgment_id"],)) == before
    )
    assert len(store.review_queue(workspace)) == 1  # reviewed items leave the queue
    assert len(store.review_queue(workspace, include_reviewed=True)) == 2

    store.add_override(
        workspace,
        target["judgment_id"],
        annotator="Karim",
        final=6.5,
        reason="second opinion after discussion",
        rubric=RUBRIC,
    )
    history = store.override_history(workspace, target["judgment_id"])
    assert [h["annotator"] for h in history] == ["Rahim (Sylheti native)", "Karim"]
    assert history[0]["score"] == pytest.approx(RUBRIC.final_score(scores)) == pytest.approx(9.1)
    assert history[0]["details"]["machine"] == {"final": 2.0, "confidence": 2}
    assert history[0]["details"]["rubric"] == RUBRIC.version
    assert history[0]["reason"] and history[0]["created_at"]

    items = {i["judgment_id"]: i for i in store.scored_items(workspace, low)}
    overridden = items[target["judgment_id"]]
    assert overridden["machine_final"] == 2.0 and overridden["human_final"] == 6.5
    assert overridden["final"] == 6.5  # newest override wins
    other = next(i for i in items.values() if i["judgment_id"] != target["judgment_id"])
    assert other["human_final"] is None and other["final"] == other["machine_final"] == 8.0
    assert {"model", "dialect", "question_id", "domain", "question_type"} <= set(overridden)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"annotator": "", "reason": "x", "final": 5.0}, "annotator"),
        ({"annotator": "A", "reason": " ", "final": 5.0}, "reason"),
        ({"annotator": "A", "reason": "x"}, "either"),
        ({"annotator": "A", "reason": "x", "final": 11.0}, "between"),
        ({"annotator": "A", "reason": "x", "final": float("nan")}, "between"),
        ({"annotator": "A", "reason": "x", "scores": {"comprehension": 5}}, "exactly"),
        ({"annotator": "A", "reason": "x", "scores": dict.fromkeys(CRITERION_KEYS, 6)}, "Likert"),
    ],
)
def test_invalid_overrides_are_refused(workspace, kwargs, message):
    build_study(workspace)
    add_judge(workspace, "judge-x", "qwen", {dialect_responses(workspace)[0]: 3.0})
    jid = workspace.scalar("SELECT id FROM judgments")
    with pytest.raises(UserError, match=message):
        store.add_override(workspace, jid, rubric=RUBRIC, **kwargs)
    with pytest.raises(UserError, match="no judgment"):
        store.add_override(workspace, 999, annotator="A", reason="x", final=1.0, rubric=RUBRIC)
    assert workspace.scalar("SELECT count(*) FROM human_annotations") == 0


def test_primary_judge_role_and_agreement(workspace):
    build_study(workspace)
    rids = dialect_responses(workspace)
    a_scores = {rid: float(i % 10) for i, rid in enumerate(rids)}
    b_scores = {
        rid: min(10.0, v + (1.0 if i % 3 else -0.5)) for i, (rid, v) in enumerate(a_scores.items())
    }
    a = add_judge(workspace, "judge-a", "gemini", a_scores)
    b = add_judge(workspace, "judge-b", "qwen", {k: v for k, v in list(b_scores.items())[:10]})
    c = add_judge(workspace, "judge-c", "gpt-oss", a_scores)
    assert store.primary_judge(workspace) == a  # no mark: the oldest
    store.set_primary_judge(workspace, b)
    assert store.primary_judge(workspace) == b
    roles = {r["run_id"]: r["role"] for r in store.judge_runs(workspace)}
    assert roles == {a: "secondary", b: "primary", c: "secondary"}
    card = json.loads(workspace.scalar("SELECT card FROM runs WHERE id = ?", (b,)))
    assert card == {"judge": "judge-b", "judge_role": "primary"}
    store.set_primary_judge(workspace, a)
    assert [r["role"] for r in store.judge_runs(workspace)] == ["primary", "secondary", "secondary"]
    with pytest.raises(UserError):
        store.set_primary_judge(
            workspace, workspace.scalar("SELECT min(id) FROM runs WHERE kind = 'answer'")
        )

    table = paired_scores.judge_agreement(workspace, threshold=4.0)[0]
    assert [(r["judge_a"], r["judge_b"]) for r in table] == [(a, b), (a, c), (b, c)]
    ab = table[0]
    assert ab["a_is_primary"] and ab["n"] == 10
    x, y = paired_machine_finals(workspace, a, b)
    assert len(x) == len(y) == 10
    assert ab["ccc"] == pytest.approx(agreement(x, y).ccc)
    assert table[1]["ccc"] == pytest.approx(1.0) and table[1]["mae"] == 0.0


def test_self_preference_warning_for_shared_family(workspace):
    build_study(workspace)
    rids = dialect_responses(workspace)
    gemma_judge = add_judge(workspace, "gemma-judge", "Gemma", {rids[0]: 5.0, rids[-1]: 6.0})
    other = add_judge(workspace, "qwen-judge", "qwen", {rids[0]: 5.0})
    warnings = store.self_preference_warnings(workspace)
    assert warnings == [
        f"self-preference risk: judge 'gemma-judge' (run {gemma_judge}) "
        "shares family 'Gemma' with answering model 'gemma-a'"
    ]
    assert store.self_preference_warnings(workspace, [other]) == []


def test_preview_pairs_are_the_first_answer_pairs(workspace):
    from engine.judging.tasks import preview_pairs

    build_study(workspace)
    pairs = store.answer_pairs(workspace)
    for limit in (1, 3, len(pairs), len(pairs) + 5):
        got = preview_pairs(workspace, limit)
        assert [p["dialect_response_id"] for p in got] == [
            p["dialect_response_id"] for p in pairs[:limit]
        ]
        assert [p["standard_answer"] for p in got] == [p["standard_answer"] for p in pairs[:limit]]
