"""Every surface counts the same judgments: a flagged judgment is left out until a person
scores it (then it counts with the person's score), a clean one always counts — in the
charts and their CSV tables, the statistics, the report and its tables, judge agreement and
PPI, all through engine.judging.judged_items.counted."""

from __future__ import annotations

import csv

from engine.annotation.annotators import add_annotator
from engine.annotation.ppi import draw_subset, ppi_study
from engine.judging import paired_scores, store
from engine.judging.rubric import load_rubric
from engine.reports.chart_data import CHART_KINDS, chart_data
from engine.reports.html_report import write_report
from engine.reports.study_statistics import study_statistics

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

    stats = study_statistics(workspace, resamples=50)
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

    write_report(workspace, tmp_path / "report", resamples=50)
    for table_name in ("model_dialect", "dialect"):
        with open(tmp_path / "report" / "tables" / f"{table_name}.csv", encoding="utf-8") as f:
            assert sum(int(r["n"]) for r in csv.DictReader(f)) == counted

    add_annotator(workspace, "Rina", ["sylhet", "chittagong"])
    drawn = draw_subset(workspace, "ppi", run, ["Rina"], share=1.0, seed=1)
    assert drawn["drawn"] == counted
    cells = ppi_study(workspace, drawn["batch_id"])["cells"]
    assert sum(c["ppi"]["n"] + c["ppi"]["N"] for c in cells) == counted
