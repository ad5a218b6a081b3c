"""Judge jobs: gate first, strict parsing, retries of invalid replies; answer generation
selects gold variants and their standard counterparts. The fake backends here inject
faults only; the real model runs in the slow tests."""

from __future__ import annotations

import json
from string import Template

import pytest

from engine.answering.generation import (
    answer_template,
    answer_templates,
    generate_answers,
    select_variants,
)
from engine.errors import UserError
from engine.judging import store
from engine.judging.rubric import CRITERION_KEYS, load_rubric
from engine.judging.run import judge_answers
from engine.llm.types import ModelInfo, Result

from .study_fixture import add_model, build_study

VALID = json.dumps(
    {
        "chain_of_thought_reasoning": "বোঝা গেছে",
        "comprehension": 4,
        "correctness": 4,
        "completeness": 3,
        "clarity": 4,
        "length": 5,
        "confidence": 4,
    },
    ensure_ascii=False,
)


class ScriptedBackend:
    """Replies from a script: a callable (request, call number) -> text."""

    def __init__(self, reply):
        self.reply, self.calls, self.requests, self.closed = reply, 0, [], False

    def info(self):
        return ModelInfo("fake-judge", "fake-judge", has_chat_template=True)

    def generate(self, requests, *, progress=None, cancelled=None):
        for req in requests:
            self.calls += 1
            self.requests.append(req)
            yield Result(
                req.key, self.reply(req, self.calls), completion_tokens=5, finish_reason="stop"
            )

    def close(self):
        self.closed = True


def judge_model(ws, name="judge-q", family="qwen"):
    if not ws.scalar("SELECT count(*) FROM models WHERE name = ?", (name,)):
        add_model(ws, name, family)
    return ws.query("SELECT * FROM models WHERE name = ?", (name,))[0]


def test_judging_gates_first_then_scores_valid_verdicts(workspace):
    build_study(workspace)
    # two dialect answers fail the gates: one English, one refusal
    pairs = store.answer_pairs(workspace)
    english, refusal = pairs[0]["dialect_response_id"], pairs[1]["dialect_response_id"]
    workspace.conn.execute(
        "UPDATE responses SET text = 'Artificial intelligence means "
        "machines that think.' WHERE id = ?",
        (english,),
    )
    workspace.conn.execute(
        "UPDATE responses SET text = 'দুঃখিত, আমি উত্তর দিতে পারছি না।' WHERE id = ?", (refusal,)
    )
    backend = ScriptedBackend(lambda req, n: VALID)
    summary = judge_answers(
        workspace, judge_model(workspace), backend_factory=lambda ws, run: backend
    )
    assert (summary.pairs, summary.gated, summary.judged_now, summary.failed) == (12, 2, 10, 0)
    assert backend.calls == 10 and backend.closed
    req = backend.requests[0]
    assert req.json_schema["properties"]["confidence"]["enum"] == [1, 2, 3, 4, 5]
    assert req.sampler.greedy and req.messages[0].role == "system"
    rows = {r["response_id"]: r for r in workspace.query("SELECT * FROM judgments")}
    assert rows[english]["gate"] == "script" and rows[english]["final"] == 0.0
    assert rows[refusal]["gate"] == "refusal" and rows[refusal]["judge_response_id"] is None
    assert all(rows[english][k] == 0 for k in CRITERION_KEYS)
    judged = [r for r in rows.values() if r["gate"] == "ok"]
    assert all(r["final"] == pytest.approx(2.4 + 2.0 + 1.2 + 1.2 + 1.0) for r in judged)
    assert all(r["judge_response_id"] is not None and r["confidence"] == 4 for r in judged)
    # the run card records rubric, template and schema; a second call does nothing
    card = json.loads(workspace.scalar("SELECT card FROM runs WHERE id = ?", (summary.run_id,)))
    assert card["rubric"]["sha256"] == load_rubric().content_hash and card["template"]["sha256"]
    again = judge_answers(
        workspace,
        judge_model(workspace),
        backend_factory=lambda ws, run: ScriptedBackend(lambda r, n: VALID),
    )
    assert again.run_id == summary.run_id and again.judged_before == 12
    assert again.judged_now == again.gated == 0


def test_invalid_replies_are_retried_with_sampling_never_scored(workspace):
    build_study(workspace)
    # every item's first reply is invalid; the retry (sampled) is valid
    seen: dict[str, int] = {}

    def reply(req, n):
        seen[req.key] = seen.get(req.key, 0) + 1
        return '{"comprehension": 99}' if seen[req.key] == 1 else VALID

    backend = ScriptedBackend(reply)
    summary = judge_answers(
        workspace, judge_model(workspace), backend_factory=lambda ws, run: backend
    )
    assert summary.invalid_replies == 12 and summary.judged_now == 12 and summary.failed == 0
    retried = backend.requests[12:]
    assert all(not r.sampler.greedy and r.sampler.seed == 1 for r in retried)
    attempts = workspace.query(
        "SELECT DISTINCT attempts, status FROM responses WHERE run_id = ?", (summary.run_id,)
    )
    assert attempts == [{"attempts": 2, "status": "done"}]


def test_a_judge_that_never_answers_validly_leaves_an_error_not_a_score(workspace):
    build_study(workspace)
    summary = judge_answers(
        workspace,
        judge_model(workspace),
        max_attempts=2,
        backend_factory=lambda ws, run: ScriptedBackend(lambda r, n: "Score: 10/10"),
    )
    assert summary.failed == 12 and summary.judged_now == 0
    assert workspace.scalar("SELECT count(*) FROM judgments") == 0
    errors = workspace.query(
        "SELECT status, error, text FROM responses WHERE run_id = ?", (summary.run_id,)
    )
    assert all(
        e["status"] == "error"
        and e["error"].startswith("invalid verdict")
        and "Score: 10/10" in e["error"]
        for e in errors
    )
    # a later call retries them
    later = judge_answers(
        workspace,
        judge_model(workspace),
        backend_factory=lambda ws, run: ScriptedBackend(lambda r, n: VALID),
    )
    assert later.judged_now == 12


def test_answer_templates_are_in_dialect_and_fill_the_question(workspace, tmp_path):
    sylhet = answer_template("sylhet")
    assert sylhet.text == ("তলর ফশ্নটার উত্তর খাটি বাংলাত দেইন।\nপ্রশ্ন: $question\n(খালি ফশ্নটার উত্তোর দিবা।)")
    assert "প্রশ্ন: কী?" in sylhet.fill("কী?") and len(sylhet.sha256) == 64
    templates = answer_templates(workspace)
    assert set(templates) == workspace.dialect_codes()  # the nine + standard
    assert all(t.text.count("$question") == 1 for t in templates.values())
    assert len({t.text for t in templates.values()}) >= 8
    # a workspace override wins; a broken one is refused
    (tmp_path / "answer_sylhet.txt").write_text("# mine\nউত্তর দেইন: $question", encoding="utf-8")
    assert answer_template("sylhet", tmp_path).text == "উত্তর দেইন: $question"
    (tmp_path / "answer_noakhali.txt").write_text("$questoin", encoding="utf-8")
    with pytest.raises(UserError):
        answer_template("noakhali", tmp_path)
    assert Template(answer_template("unknown-dialect").text).substitute(question="x")


def test_variant_selection_gold_by_default_drafts_on_request(workspace):
    ids = build_study(workspace, draft_dialect="chittagong")
    gold = select_variants(workspace)
    assert {v["dialect"] for v in gold} == {"standard", "sylhet"} and len(gold) == 6
    everything = select_variants(workspace, statuses=("gold", "draft"))
    assert len(everything) == 9
    only = select_variants(workspace, statuses=("draft",), dialects=["chittagong"])
    assert {v["dialect"] for v in only} == {"standard", "chittagong"}
    assert only[0]["id"] == ids["variants"][("q1", "standard")]
    with pytest.raises(UserError):
        select_variants(workspace, statuses=("golden",))
    with pytest.raises(UserError):
        select_variants(workspace, dialects=["atlantis"])


def test_generation_runs_one_model_at_a_time_and_resumes(workspace):
    build_study(workspace)
    models = [judge_model(workspace, "m1", "a"), judge_model(workspace, "m2", "b")]
    opened = []

    def factory(ws, run):
        backend = ScriptedBackend(lambda req, n: "প্রমিত বাংলায় উত্তর।")
        opened.append(backend)
        assert all(b.closed for b in opened[:-1])  # the previous model is closed
        return backend

    first = generate_answers(workspace, models, backend_factory=factory)
    assert [s["done_now"] for s in first] == [9, 9] and all(s["complete"] for s in first)
    req = opened[0].requests[1]
    assert req.key.startswith("v") and "$question" not in req.messages[0].content
    again = generate_answers(workspace, models, backend_factory=factory)
    assert [s["done_before"] for s in again] == [9, 9] and opened[-1].calls == 0
    card = json.loads(workspace.scalar("SELECT card FROM runs WHERE id = ?", (first[0]["run_id"],)))
    assert set(card["templates"]) == workspace.dialect_codes()


def test_the_judge_plan_is_what_a_judge_run_asks(workspace):
    """The planner's judge plan (engine.judging.run.judge_plan) has the run's card and the
    requests of its first round: it finds the run judge_answers opens, and nothing is left
    once every pair is judged."""
    from engine.judging.run import judge_plan
    from engine.llm.runs.estimates import left_to_decode
    from engine.llm.runs.run import existing_run

    build_study(workspace)
    model = judge_model(workspace)
    plan = judge_plan(workspace, model, load_rubric())
    assert existing_run(workspace, plan.kind, model, plan.card) is None
    assert workspace.scalar("SELECT count(*) FROM runs WHERE kind = ?", (plan.kind,)) == 0
    backend = ScriptedBackend(lambda req, n: VALID)
    summary = judge_answers(workspace, model, backend_factory=lambda ws, run: backend)
    assert existing_run(workspace, plan.kind, model, plan.card) == summary.run_id
    assert [r.key for r in plan.requests] == [r.key for r in backend.requests]
    assert plan.requests == backend.requests
    assert left_to_decode(workspace, plan, model, None) == []
