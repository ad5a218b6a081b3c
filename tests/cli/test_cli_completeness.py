"""A step that finished with failed items exits 3 and says so; the demo stops there and
honours ``-w``; statistics and reports state their coverage and mark a partial study."""

from __future__ import annotations

import json

import pytest

from app.cli import main
from engine.judging import store
from engine.llm.types import ModelInfo, Result
from engine.reports.coverage import study_coverage
from engine.reports.settings import StudyStatsSettings
from engine.reports.study_statistics import study_statistics
from engine.workspace.store import Workspace
from tests.engine.judging.study_fixture import add_judge, build_study


class DyingWorker:
    """A backend whose worker 'dies' on every item matching ``fail``: those come back as
    error results (as LocalGGUFBackend reports a killed worker); the rest get a text."""

    def __init__(self, fail):
        self.fail = fail

    def info(self) -> ModelInfo:
        return ModelInfo(model_id="fake-model", name="fake", has_chat_template=False)

    def generate(self, requests, *, progress=None, cancelled=None):
        for r in requests:
            if self.fail(r.key):
                yield Result(r.key, None, finish_reason="error", error="worker killed (test)")
            else:
                yield Result(r.key, "চাটগাঁইয়া খসড়া", completion_tokens=3, finish_reason="stop")

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


@pytest.fixture
def dying(monkeypatch):
    """Every model a job opens is a DyingWorker failing Sylhet items."""
    backend = DyingWorker(lambda key: key.endswith(":sylhet"))
    # engine.llm.api binds backend_for_run when first imported: patch it there too, so the
    # fake neither misses the CLI's calls nor outlives this test
    monkeypatch.setattr("engine.llm.api.backend_for_run", lambda ws, run_id, **kw: backend)
    monkeypatch.setattr("engine.llm.runs.backend.backend_for_run", lambda ws, run_id, **kw: backend)
    return backend


def test_translate_with_failed_items_exits_3_and_says_how_to_resume(tmp_path, capsys, dying):
    from tests.cli.test_cli_rag import SMALL, _insert, _questions

    path = tmp_path / "ws.sqlite"
    with Workspace(path) as ws:
        _insert(ws, SMALL)
        _questions(ws)
    assert main(["-w", str(path), "init"]) == 0
    capsys.readouterr()
    argv = ["-w", str(path), "translate", "--questions", "demo", "--limit", "2"]
    code = main([*argv, "--dialects", "chittagong,sylhet"])
    captured = capsys.readouterr()
    assert code == 3, captured.err
    assert "2 errors" in captured.out
    assert "incomplete: translate: 2 of 4 translations failed" in captured.err
    assert "run the same command again to resume" in captured.err
    code = main([*argv, "--dialects", "chittagong,sylhet", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 3 and out["complete"] is False and out["failed"] == 2
    # the complete part alone is a success
    assert main([*argv, "--dialects", "chittagong"]) == 0


def test_demo_stops_at_an_incomplete_step_and_honours_w(tmp_path, capsys, dying):
    ws = tmp_path / "elsewhere" / "mine.sqlite"
    ws.parent.mkdir()
    out = tmp_path / "demo"
    argv = ["-w", str(ws), "demo", "--out", str(out), "--questions", "2"]
    code = main([*argv, "--dialects", "chittagong,sylhet"])
    captured = capsys.readouterr()
    assert code == 3
    assert "demo: stopped - step 'RAG-translate questions into dialects' is incomplete" in (
        captured.err
    )
    assert "demo finished" not in captured.out
    assert ws.is_file() and not (out / "demo.sqlite").exists()  # -w is the demo workspace
    assert not (out / "report").exists()  # nothing was reported from 2 of 4 translations
    with Workspace(ws) as w:
        assert w.scalar("SELECT count(*) FROM judgments") == 0
        assert w.scalar("SELECT count(*) FROM runs WHERE kind = 'answer'") == 0


def _complete_study(ws: Workspace) -> int:
    build_study(ws)
    rids = [p["dialect_response_id"] for p in store.answer_pairs(ws)]
    return add_judge(ws, "judge", "qwen", {rid: 7.0 for rid in rids}, confidence=5)


def test_coverage_of_a_complete_study(workspace):
    run = _complete_study(workspace)
    cov = study_coverage(workspace, run)
    # 3 questions x 2 dialects; 2 answering models x 3 questions x (standard + 2 dialects)
    assert cov["text"] == "6 of 6 translations, 18 of 18 answers, 12 of 12 judgments"
    assert cov["complete"]
    stats = study_statistics(workspace, settings=StudyStatsSettings(resamples=50))
    assert stats["partial"] is False and not any("PARTIAL" in w for w in stats["warnings"])


def test_partial_study_is_marked_in_stats_cli_and_report(tmp_path, capsys):
    path = tmp_path / "ws.sqlite"
    with Workspace(path) as ws:
        run = _complete_study(ws)
        # one dialect answer failed (a dead worker) and has no judgment
        victim = store.answer_pairs(ws)[0]["dialect_response_id"]
        with ws.transaction() as conn:
            conn.execute("DELETE FROM judgments WHERE response_id = ?", (victim,))
            conn.execute(
                "UPDATE responses SET status = 'error', text = NULL, error = 'worker died' "
                "WHERE id = ?",
                (victim,),
            )
        cov = study_coverage(ws, run)
        assert cov["text"] == "6 of 6 translations, 17 of 18 answers, 11 of 12 judgments"
        assert not cov["complete"] and cov["answers"]["errors"] == 1
    assert main(["-w", str(path), "stats", "--resamples", "50"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (
        "*** PARTIAL STUDY: 6 of 6 translations, 17 of 18 answers, 11 of 12 judgments ***"
    )
    report_dir = tmp_path / "report"
    assert main(["-w", str(path), "report", "--out", str(report_dir), "--resamples", "50"]) == 0
    assert "PARTIAL STUDY, marked in the report" in capsys.readouterr().out
    html = (report_dir / "report.html").read_text(encoding="utf-8")
    assert "<b>partial study</b>" in html and "17 of 18 answers" in html
