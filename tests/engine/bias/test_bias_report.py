"""The HTML report gains the social-bias sections when the workspace has probe replies."""

from __future__ import annotations

from importlib.resources import as_file, files

from engine.bias.probes import import_probes
from engine.bias.report import bias_report_parts
from engine.bias.run import ProbeOptions, run_probes
from engine.bias.sample import SCRIPTED, ScriptedReplies
from engine.judging import store
from engine.reports.html_report import write_report
from engine.reports.settings import StudyStatsSettings
from engine.workspace.store import Workspace, utcnow
from tests.engine.judging.study_fixture import add_judge, build_study


def test_report_has_bias_sections(tmp_path):
    path = tmp_path / "study.sqlite"
    with Workspace(path) as ws:
        build_study(ws)
        rids = [p["dialect_response_id"] for p in store.answer_pairs(ws)]
        add_judge(ws, "judge-a", "gemini", {rid: 5.0 for rid in rids}, confidence=4)
        assert bias_report_parts(ws) == []
        # the sample probes and scripted replies, as in the panel's sample workspace
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
        result = write_report(ws, tmp_path / "report", settings=StudyStatsSettings(resamples=200))
    html = (tmp_path / "report" / "report.html").read_text(encoding="utf-8")
    assert "Social bias: " in html and "position effect" in html
    assert "zero-count rule" in html
    tables = {p.name for p in (tmp_path / "report" / "tables").iterdir()}
    assert any(n.startswith("bias_run") and n.endswith(".csv") for n in tables)
    assert any(
        n.startswith("bias_run")
        for n in (p.name for p in (tmp_path / "report" / "figures").iterdir())
    )
    assert result["report"].endswith("report.html")
