"""Every surface counts the same judgments: a flagged judgment is left out until a person
scores it (then it counts with the person's score), a clean one always counts — in the
charts and their CSV tables, the statistics, the report and its tables, judge agreement and
PPI, all through engine.judging.judged_items.counted."""

from __future__ import annotations

import csv
import random

import pytest

from engine.annotation.annotators import add_annotator
from engine.annotation.ppi import draw_subset, ppi_study
from engine.judging import paired_scores, store
from engine.judging.judged_items import (
    COUNTED,
    EFFECTIVE_FINAL,
    HAS_OVERRIDE,
    LATEST_OVERRIDE,
    judged_items_from,
)
from engine.judging.rubric import load_rubric
from engine.llm.runs.responses import link_variant
from engine.reports.chart_data import CHART_KINDS, chart_data
from engine.reports.html_report import write_report
from engine.reports.settings import StudyStatsSettings
from engine.reports.study_statistics import study_statistics
from engine.workspace.human_annotations import JudgmentDetails, record_judgment_score

from .study_fixture import add_judge, build_study


def _flag(ws, run: int, response_ids: list[int]) -> list[int]:
    with ws.transaction() as conn:
        conn.executemany(
            "UPDATE judgments SET flags = 'injection:score-directive' "
            "WHERE run_id = ? AND response_id = ?",
            [(run, r) for r in response_ids],
        )
    return [
        ws.scalar("SELECT id FROM judgments WHERE run_id = ? AND response_id = ?", (run, r))
        for r in response_ids
    ]


def test_every_surface_counts_the_same_judgments(workspace, tmp_path):
    build_study(workspace)
    dialect = [p["dialect_response_id"] for p in store.answer_pairs(workspace)]
    assert len(dialect) == 12
    run = add_judge(workspace, "judge-a", "a", {r: 10.0 for r in dialect})
    other = add_judge(workspace, "judge-b", "b", {r: 6.0 for r in dialect})
    store.set_primary_judge(workspace, run)
    flagged = _flag(workspace, run, dialect[:4])
    _flag(workspace, other, dialect[10:])  # the other judge flags two others
    for jid in flagged[:2]:  # a person scores two of the four flagged
        store.add_override(
            workspace,
            jid,
            annotator="rev",
            reason="attack; answer is fair",
            rubric=load_rubric(),
            final=4.0,
        )
    counted = 12 - 4 + 2
    mean = (8 * 10.0 + 2 * 4.0) / counted  # clean ones at 10, reviewed ones at 4

    stats = study_statistics(workspace, settings=StudyStatsSettings(resamples=50))
    assert stats["n_items"] == counted
    assert stats["judged_by"]["flagged_awaiting_review"] == 2
    assert sum(g["n"] for g in stats["groups"]["model_dialect"]) == counted

    charts = {k: chart_data(str(workspace.path), k, resamples=50) for k in CHART_KINDS}
    heat = charts["heatmap"]
    assert heat["n"] == counted == sum(c["n"] for c in heat["cells"])
    assert abs(sum(c["n"] * c["mean"] for c in heat["cells"]) / counted - mean) < 1e-9
    table = heat["table"]  # what the chart's CSV export writes
    assert sum(row[table["columns"].index("n")] for row in table["rows"]) == counted
    for kind in ("dialects", "breakdown", "distribution"):
        assert charts[kind]["n"] == counted, kind

    # agreement and CBS: the answers both judges scored and both count
    both = 12 - 2 - 2  # run a's two unreviewed, run b's two
    (row,), _ = paired_scores.judge_agreement(workspace)
    assert row["n"] == both
    assert charts["agreement"]["n"] == charts["cbs"]["n"] == both

    write_report(workspace, tmp_path / "report", settings=StudyStatsSettings(resamples=50))
    html = (tmp_path / "report" / "report.html").read_text(encoding="utf-8")
    # the flagged-judgments warning names its next step in words, never as a raw reference
    assert "2 flagged judgment(s)" in html and "the step &#39;queue&#39;" in html
    assert "⟦" not in html
    for table_name in ("model_dialect", "dialect"):
        with open(tmp_path / "report" / "tables" / f"{table_name}.csv", encoding="utf-8") as f:
            assert sum(int(r["n"]) for r in csv.DictReader(f)) == counted

    add_annotator(workspace, "Rina", ["sylhet", "chittagong"])
    drawn = draw_subset(workspace, "ppi", run, ["Rina"], share=1.0, seed=1)
    assert drawn["drawn"] == counted
    cells = ppi_study(workspace, drawn["batch_id"])["cells"]
    assert sum(c["ppi"]["n"] + c["ppi"]["N"] for c in cells) == counted


# -- the judged items the workspace keeps (schema V4) equal a recount ---------------------
_RECOUNT = f"""SELECT j.id, j.run_id, j.response_id, ar.id, ar.model_id, dv.dialect, q.id,
        j.confidence, j.final, {LATEST_OVERRIDE}, {HAS_OVERRIDE}, {EFFECTIVE_FINAL},
        j.final IS NOT NULL AND {COUNTED}
    {judged_items_from()} ORDER BY j.id"""
_KEPT = """SELECT judgment_id, run_id, response_id, answer_run_id, model_id, dialect,
        question_id, confidence, machine_final, human_final, reviewed, final, counted
    FROM judged_items ORDER BY judgment_id"""
_GROUPS = {  # sum table: its group columns, over the recounted rows (index in _RECOUNT)
    "judged_model_dialect": (("model_key", "dialect"), (4, 5)),
    "judged_dialect_question": (("dialect", "question_id"), (5, 6)),
    "judged_dialect_score": (("dialect", "final"), (5, 11)),
}


def _assert_kept_equals_recount(ws) -> None:
    recount = [tuple(r) for r in ws.conn.execute(_RECOUNT)]
    assert [tuple(r) for r in ws.conn.execute(_KEPT)] == recount
    for table, (columns, at) in _GROUPS.items():
        expected: dict = {}
        for r in recount:
            if r[12]:
                key = (r[1], *(r[i] if i != 4 else (r[i] or 0) for i in at))
                n, total = expected.get(key, (0, 0.0))
                expected[key] = (n + 1, total + r[11])
        kept = {
            tuple(r[:-2]): (r[-2], r[-1])
            for r in ws.conn.execute(f"SELECT run_id, {', '.join(columns)}, n, total FROM {table}")
        }
        assert kept.keys() == expected.keys(), table
        for key, (n, total) in expected.items():
            assert kept[key][0] == n and kept[key][1] == pytest.approx(total, abs=1e-9), key


def _queue_recount(ws, *, threshold=3, run_id=None, include_reviewed=False) -> list[dict]:
    """The review queue from the base tables (the join the queue read before it chose its
    rows from the judged items)."""
    where = (
        ["(j.flags != '' OR (j.confidence IS NOT NULL AND j.confidence <= :threshold))"]
        + ([] if run_id is None else ["j.run_id = :run"])
        + ([] if include_reviewed else [f"NOT {HAS_OVERRIDE}"])
    )
    return ws.query(
        f"""SELECT j.id AS judgment_id, j.run_id, j.confidence, j.final, j.gate, j.reasoning,
               j.comprehension, j.correctness, j.completeness, j.clarity, j.length, j.flags,
               dv.dialect, q.text AS standard_question, dv.text AS dialect_question,
               s.text AS standard_answer, d.text AS dialect_answer,
               {LATEST_OVERRIDE} AS human_final
        {judged_items_from("LEFT JOIN responses s ON s.id = j.standard_response_id")}
        WHERE {" AND ".join(where)}
        ORDER BY j.flags = '', j.id""",
        {"threshold": threshold, "run": run_id},
    )


def _human_score(conn, judgment: int, score: float, scale: tuple[float, float]) -> None:
    """An adjudicated score, as engine.annotation.adjudication stores one."""
    record_judgment_score(
        conn,
        judgment,
        annotator="adj",
        score=score,
        scale=scale,
        details=JudgmentDetails(source="adjudication"),
        reason="",
    )


@pytest.mark.parametrize("seed", range(6))
def test_kept_judged_items_equal_a_recount_after_any_writes(workspace, seed):
    """Random judgments stored, human scores on 0-10 and on other scales (an adjudicated
    batch's), flags set and cleared, answers moved to another variant, judgments and whole
    judge runs deleted: after each write the table and its sums equal a recount from the
    base tables."""
    rng = random.Random(seed)
    ids = build_study(workspace)
    dialect = [p["dialect_response_id"] for p in store.answer_pairs(workspace)]
    variants = [v for (_ext, code), v in ids["variants"].items() if code != "standard"]
    runs = [add_judge(workspace, "judge-a", "a", {r: 5.0 for r in dialect[:6]})]
    rubric = load_rubric()
    for step in range(60):
        judgments = [r[0] for r in workspace.conn.execute("SELECT id FROM judgments")]
        op = rng.choice(["judge", "judge", "override", "scale", "flag", "move", "drop", "run"])
        if op == "judge" or not judgments:
            if len(runs) < 3 and rng.random() < 0.3:
                runs.append(add_judge(workspace, f"judge-{step}", f"f{step}", {}))
            run = rng.choice(runs)
            rows = [
                {
                    "response_id": r,
                    "gate": "ok",
                    "reasoning": "",
                    "scores": dict.fromkeys(rubric.keys, 3),
                    "confidence": rng.randint(1, 5),
                    "final": rng.choice([None, 2.5, 6.0, 7.25, 10.0]),
                    "flags": rng.choice(["", "", "injection:score-directive"]),
                }
                for r in rng.sample(dialect, 3)
            ]
            store.insert_judgments(workspace, run, rows)
        elif op == "override":
            store.add_override(
                workspace,
                rng.choice(judgments),
                annotator="rev",
                reason="checked",
                rubric=rubric,
                final=rng.choice([0.0, 4.0, 9.5]),
            )
        elif op == "scale":  # an adjudicated score on the batch's own scale
            low, high = rng.choice([(0.0, 5.0), (1.0, 5.0), (-1.0, 1.0)])
            with workspace.transaction() as conn:
                score = rng.choice([low, high, (low + high) / 2])
                _human_score(conn, rng.choice(judgments), score, (low, high))
        elif op == "flag":
            with workspace.transaction() as conn:
                conn.execute(
                    "UPDATE judgments SET flags = ? WHERE id = ?",
                    (rng.choice(["", "inconsistent"]), rng.choice(judgments)),
                )
        elif op == "move":
            link_variant(workspace, rng.choice(dialect), rng.choice(variants))
        elif op == "drop":
            with workspace.transaction() as conn:
                conn.execute("DELETE FROM judgments WHERE id = ?", (rng.choice(judgments),))
        elif len(runs) > 1:  # a judge run deleted with its judgments
            run = runs.pop(rng.randrange(len(runs)))
            with workspace.transaction() as conn:
                conn.execute("DELETE FROM runs WHERE id = ?", (run,))
        _assert_kept_equals_recount(workspace)
        for threshold in (2, 4):
            assert store.review_queue_size(workspace, threshold=threshold) == len(
                store.review_queue(workspace, threshold=threshold)
            )
        for options in ({}, {"include_reviewed": True}, {"run_id": runs[0], "threshold": 4}):
            assert store.review_queue(workspace, **options) == _queue_recount(
                workspace, **options
            ), (step, op, options)


def test_a_write_rolled_back_leaves_the_judged_items_as_they_were(workspace):
    """The triggers write in the transaction of the change: a kill (here an error) before
    its commit leaves neither."""
    build_study(workspace)
    dialect = [p["dialect_response_id"] for p in store.answer_pairs(workspace)]
    run = add_judge(workspace, "judge-a", "a", {r: 5.0 for r in dialect[:6]})
    before = workspace.query("SELECT * FROM judged_dialect_question ORDER BY 1, 2, 3")
    jid = workspace.scalar("SELECT min(id) FROM judgments")
    with pytest.raises(RuntimeError), workspace.transaction() as conn:
        _human_score(conn, jid, 1.0, (0.0, 10.0))
        conn.execute("DELETE FROM runs WHERE id = ?", (run,))
        raise RuntimeError("killed")
    assert workspace.query("SELECT * FROM judged_dialect_question ORDER BY 1, 2, 3") == before
    _assert_kept_equals_recount(workspace)


def test_an_adjudicated_score_counts_on_its_own_scale(workspace):
    """4 of 0-5 (an adjudication on a 0-5 batch) is 8 of the figures' 0-10."""
    build_study(workspace)
    dialect = [p["dialect_response_id"] for p in store.answer_pairs(workspace)]
    run = add_judge(workspace, "judge-a", "a", {r: 5.0 for r in dialect})
    store.set_primary_judge(workspace, run)
    jid = workspace.scalar("SELECT min(id) FROM judgments WHERE run_id = ?", (run,))
    with workspace.transaction() as conn:
        _human_score(conn, jid, 4.0, (0.0, 5.0))
    item = next(i for i in store.scored_items(workspace, run) if i["judgment_id"] == jid)
    assert (item["human_final"], item["final"]) == (8.0, 8.0)
    heat = chart_data(str(workspace.path), "heatmap")
    assert sum(c["n"] * c["mean"] for c in heat["cells"]) == pytest.approx(11 * 5.0 + 8.0)
