"""One owner per query: the judged-item SQL and the post-run steps."""

from __future__ import annotations

import re
from pathlib import Path

from engine.judging import answer_queries, store
from engine.judging.judged_items import LATEST_OVERRIDE
from engine.judging.rubric import load_rubric
from engine.judging.run import finish_judge_run
from engine.llm.runs.responses import reject_responses

from .study_fixture import add_judge, build_study

ROOT = Path(__file__).resolve().parents[3]


def _dialect_responses(ws) -> list[int]:
    return [
        r[0]
        for r in ws.conn.execute(
            "SELECT d.id FROM responses d JOIN variants v ON v.id = d.variant_id "
            "WHERE v.dialect != 'standard' ORDER BY d.id"
        )
    ]


def test_post_run_steps_mark_primary_count_the_queue_and_warn(workspace):
    build_study(workspace)
    rids = _dialect_responses(workspace)
    first = add_judge(workspace, "qwen-judge", "qwen", {r: 6.0 for r in rids}, confidence=4)
    second = add_judge(workspace, "gemma-judge", "gemma", {r: 5.0 for r in rids}, confidence=2)
    steps = finish_judge_run(workspace, second, primary=False, review_threshold=3)
    assert steps["primary"] is False and store.primary_judge(workspace) == first
    assert steps["review_queue"] == len(rids)  # confidence 2 <= 3: every judgment waits
    assert steps["warnings"] and "gemma-judge" in steps["warnings"][0]
    steps = finish_judge_run(workspace, second, primary=True, review_threshold=1)
    assert steps["primary"] is True and store.primary_judge(workspace) == second
    assert steps["review_queue"] == 0
    assert finish_judge_run(workspace, first, primary=False, review_threshold=3)["warnings"] == []


def test_every_reader_sees_the_newest_override(workspace):
    """The review queue, the scored items and the answers panel rows agree on the effective
    score, from the one judged-items join and the one newest-override look-up."""
    build_study(workspace)
    rids = _dialect_responses(workspace)
    run = add_judge(workspace, "qwen-judge", "qwen", {r: 6.0 for r in rids}, confidence=2)
    judgment = workspace.scalar("SELECT min(id) FROM judgments WHERE run_id = ?", (run,))
    rubric = load_rubric()
    for final in (2.0, 9.5):  # two overrides: the newest wins everywhere
        store.add_override(
            workspace, judgment, annotator="ann", reason="checked", rubric=rubric, final=final
        )
    items = {r["judgment_id"]: r for r in store.scored_items(workspace, run)}
    assert len(items) == len(rids) and items[judgment]["final"] == 9.5
    assert items[judgment]["machine_final"] == 6.0 and items[judgment]["model"] == "gemma-a"
    queue = store.review_queue(workspace, run_id=run, include_reviewed=True)
    assert {r["judgment_id"]: r["human_final"] for r in queue}[judgment] == 9.5
    assert judgment not in {r["judgment_id"] for r in store.review_queue(workspace, run_id=run)}
    answer = answer_queries.answer_of_judgment(workspace, judgment)
    rows = answer_queries.answer_rows(workspace, rids, run)  # keyed by answer
    assert {r["judgment_id"]: r["final"] for r in rows.values()} == {
        k: r["final"] for k, r in items.items()
    }
    assert answer_queries.answer_detail(workspace, answer, run)["human_final"] == 9.5
    ids = answer_queries.answer_ids(
        str(workspace.path), answer_queries.AnswerFilter(judge_run=run, needs_review=True)
    )
    assert answer not in ids and len(ids) == len(rids) - 1


def test_rejected_replies_become_errors_to_ask_again(workspace):
    build_study(workspace)
    rid = _dialect_responses(workspace)[0]
    text = workspace.scalar("SELECT text FROM responses WHERE id = ?", (rid,))
    assert reject_responses(workspace, [(rid, "invalid verdict: no JSON")]) == 1
    row = workspace.query("SELECT status, text, error FROM responses WHERE id = ?", (rid,))[0]
    assert row["status"] == "error" and row["text"] is None
    assert row["error"] == "invalid verdict: no JSON\n" + text
    assert reject_responses(workspace, [(rid, "again")]) == 0  # only done replies change


def test_one_override_lookup():
    """The newest-override sub-query is written once (who writes ``responses`` and every
    other table: tests/engine/workspace/test_table_writers.py)."""
    lookups = re.compile(r"FROM human_annotations ha\s+WHERE ha.target = 'judgment'", re.I)
    copies = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "ORDER BY ha.id DESC LIMIT 1" in text and lookups.search(text):
            copies.append(path.relative_to(ROOT).as_posix())
    # the V4 migration's triggers keep the judged items with it; judged_items reads the same
    assert copies == ["engine/workspace/schema.py"]
    assert "ORDER BY ha.id DESC LIMIT 1" in LATEST_OVERRIDE
