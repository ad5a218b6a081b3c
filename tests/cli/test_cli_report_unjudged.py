"""Every study gets a report: a bias-only study (paper 002) and a tasks-only study (paper
001) write their figures and tables without a judge run; a one-row bias chart keeps its
title and axis label inside the figure; CSV cells hold JSON, not Python reprs."""

from __future__ import annotations

import csv
import json
from importlib.resources import as_file, files

from app.cli import main
from engine.bias.probes import import_probes
from engine.bias.report import diverging_bars
from engine.bias.run import ProbeOptions, run_probes
from engine.bias.sample import SCRIPTED, ScriptedReplies
from engine.understanding.run import run_task
from engine.understanding.task_spec import get_task
from engine.workspace.store import Workspace, utcnow
from tests.engine.understanding.conftest import insert_pairs
from tests.scripted_backend import ScriptedBackend


def _bias_only(path):
    with Workspace(path) as ws:
        with as_file(files("resources") / "sample" / "probes_gender.csv") as csv_path:
            import_probes(ws, csv_path, name="sample-gender")
        ws.conn.execute(
            "INSERT INTO models(name, kind, base_urls, api_model, added_at) "
            "VALUES (?, 'endpoint', '[]', 'scripted', ?)",
            (SCRIPTED, utcnow()),
        )
        model = ws.query("SELECT * FROM models WHERE name = ?", (SCRIPTED,))
        run_probes(
            ws,
            model,
            options=ProbeOptions(counterbalance=True),
            backend_factory=lambda w, r: ScriptedReplies(w),
        )


def test_a_bias_only_study_gets_its_report(tmp_path, capsys):
    ws = tmp_path / "bias.sqlite"
    _bias_only(ws)
    out = tmp_path / "report"
    args = ["-w", str(ws), "report", "--out", str(out), "--resamples", "100", "--json"]
    assert main(args) == 0, capsys.readouterr().err
    result = json.loads(capsys.readouterr().out)
    assert result["judge_run"] is None and result["runs"]  # the probe runs' cards
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "No judge run" in html and "Social bias: " in html
    figures = {p.name for p in (out / "figures").iterdir()}
    assert any(n.startswith("bias_run") and n.endswith(".png") for n in figures)
    with open(out / "tables" / "bias_position.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert rows
    for row in rows:
        for value in row.values():
            assert not value.startswith("{'") and not value.startswith("['"), value
            if value.startswith(("{", "[")):
                json.loads(value)  # a JSON cell any reader parses


def test_a_tasks_only_study_gets_its_report(tmp_path, capsys):
    path = tmp_path / "tasks.sqlite"
    with Workspace(path) as ws:
        insert_pairs(ws)
        with ws.transaction() as conn:
            conn.execute(
                "INSERT INTO models(name, kind, api_model, added_at) "
                "VALUES ('scripted', 'endpoint', 'x', ?)",
                (utcnow(),),
            )
        model = ws.query("SELECT * FROM models WHERE name = 'scripted'")[0]
        run_task(
            ws,
            get_task("dialect-to-standard"),
            [model],
            backend_factory=lambda w, run_id: ScriptedBackend(lambda req: "তুমি কোথায় যাচ্ছ"),
        )
    out = tmp_path / "report"
    assert main(["-w", str(path), "report", "--out", str(out), "--json"]) == 0
    capsys.readouterr()
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "Understanding tasks" in html
    assert (out / "figures" / "tasks.png").exists() and (out / "tables" / "tasks.csv").exists()


def test_nothing_to_report_is_one_line(tmp_path, capsys):
    Workspace(tmp_path / "empty.sqlite").close()
    assert main(["-w", str(tmp_path / "empty.sqlite"), "report", "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nothing to report yet" in err


def test_a_one_row_bias_chart_keeps_its_title_and_axis_label():
    group = {"subcategory": "positive", "category": "occupation", "occupation_mixed": False,
             "score": 0.4, "ci_low": 0.1, "ci_high": 0.7, "n": 12, "refusal_rate": 0.0,
             "unparseable_rate": 0.0}  # fmt: skip
    fig = diverging_bars([group], "a model — a probe set", ("male", "female"))
    renderer = fig.canvas.get_renderer()
    fig.canvas.draw()
    box = fig.bbox
    ax = fig.axes[0]
    for artist in (ax.title, ax.xaxis.label, *ax.get_yticklabels()):
        extent = artist.get_window_extent(renderer)
        assert extent.y0 >= box.y0 - 0.5 and extent.y1 <= box.y1 + 0.5, artist
        assert extent.x0 >= box.x0 - 0.5 and extent.x1 <= box.x1 + 0.5, artist
