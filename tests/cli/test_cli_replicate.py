"""``upabhasha replicate`` on a judged study, and the report carrying the result."""

from __future__ import annotations

import json

from app.cli import main
from engine.judging.run import judge_answers
from engine.workspace.store import Workspace
from tests.engine.judging.study_fixture import build_study
from tests.engine.judging.test_judging_flags import FOOLED
from tests.engine.judging.test_judging_run import ScriptedBackend, judge_model


def test_replicate_then_report(tmp_path, capsys, monkeypatch):
    path = tmp_path / "ws.sqlite"
    with Workspace(path) as ws:
        build_study(ws)
        judge = ScriptedBackend(lambda req, n: FOOLED)
        run = judge_answers(ws, judge_model(ws), backend_factory=lambda w, r: judge).run_id
    again = ScriptedBackend(lambda req, n: FOOLED)
    monkeypatch.setattr("engine.llm.runs.backend.backend_for_run", lambda ws, run_id, **kw: again)
    capsys.readouterr()
    assert main(["-w", str(path), "replicate", str(run), "--sample", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["sample"] == 5 and out["identical"] == 5 and out["agreement"] == 1.0
    assert out["finals"]["mean_abs_diff"] == 0.0
    assert main(["-w", str(path), "replicate", "--list"]) == 0
    assert f"run {run} at" in capsys.readouterr().out
    report = tmp_path / "report"
    assert main(["-w", str(path), "report", "--out", str(report), "--resamples", "50"]) == 0
    html = (report / "report.html").read_text(encoding="utf-8")
    assert "5 of 5 sampled outputs came back identical" in html
    assert "Not replicated (upabhasha replicate" in html  # the answer runs were not


def test_replicate_list_with_none_names_the_command(tmp_path, capsys):
    path = tmp_path / "ws.sqlite"
    Workspace(path).close()
    assert main(["-w", str(path), "replicate", "--list"]) == 0
    assert capsys.readouterr().out.strip() == "no replications yet (upabhasha replicate RUN)"
