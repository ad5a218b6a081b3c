"""``upabhasha validity`` on a study judged by a planted judge (tests/engine/validity/planted.py):
the card as text and as JSON, the report's section, bad input (exit 2, nothing written), a
failing endpoint (exit 3, then a resume that decodes only what is missing), the step as
batch files and back; and the real embedded model on the demo study."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest

from app.cli import main
from engine.llm.types import Message, Result
from engine.workspace.store import Workspace
from tests.engine.validity import planted


@pytest.fixture
def judged(tmp_path):
    """A planted study judged by the first-preferring judge: (workspace path, judge run)."""
    path = tmp_path / "ws.sqlite"
    with Workspace(path) as ws:
        planted.build(ws, 12)
        run = planted.judge_run(ws, planted.first_preferring)
    return path, run


def _serve(monkeypatch, backend) -> None:
    monkeypatch.setattr("engine.llm.runs.backend.backend_for_run", lambda _ws, _run: backend)


def _count(path: Path, sql: str) -> int:
    with sqlite3.connect(path) as conn:
        (n,) = conn.execute(sql).fetchone()
    conn.close()
    return n


def test_the_card_as_text_as_json_and_in_the_report(judged, monkeypatch, capsys, tmp_path):
    path, run = judged
    _serve(monkeypatch, planted.ScriptedBackend(planted.first_preferring))
    capsys.readouterr()
    w = ["-w", str(path)]
    assert main([*w, "validity", "--per-dialect", "6", "--seed", "3", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert f"(judge run {run}; probes: run" in out
    assert "6 items per dialect, seed 3" in out and "flip <= 0.05" in out
    for name in ("Chittagong (6 items)", "Sylhet (6 items)"):
        assert name in out
    assert "flip rate" in out and "retest agreement" in out and "discrimination" in out
    assert "kappa" in out and "alpha" in out
    assert "Order flips this judge's Chittagong verdicts" in out
    # the same suite again reads the stored replies: the bands alone change the card
    assert (
        main([*w, "validity", "--per-dialect", "6", "--seed", "3", "--flip-max", "1", "--json"])
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["runs"][0]["done_now"] == 0 and data["card"]["bands"]["flip_max"] == 1.0
    position = data["card"]["dialects"][0]["families"][0]
    assert position["family"] == "position" and position["status"] == "pass"
    assert set(position["rate"]) == {"value", "low", "high"} and position["n"] == 6
    report = tmp_path / "report"
    assert main([*w, "report", "--out", str(report), "--resamples", "50"]) == 0
    html = (report / "report.html").read_text(encoding="utf-8")
    assert f"Judge validity: planted-judge (judge run {run}, 6 items per dialect" in html
    assert (
        "Order flips this judge&#39;s Sylhet verdicts" in html
        or "Order flips this judge's Sylhet" in html
    )


def test_bad_input_exits_2_and_writes_nothing(judged, monkeypatch, capsys):
    path, run = judged
    backend = planted.ScriptedBackend(planted.first_preferring)
    _serve(monkeypatch, backend)
    w = ["-w", str(path)]
    runs = _count(path, "SELECT count(*) FROM runs")
    assert main([*w, "validity", "--judge-run", str(run + 100)]) == 2
    assert f"run {run + 100} is not a judge run ('upabhasha judges' lists them)" in (
        capsys.readouterr().err
    )
    with pytest.raises(SystemExit) as parsed:
        main([*w, "validity", "--discrimination-min", "1.5"])
    assert parsed.value.code == 2
    other = Path(__file__).parent / "other-rubric.json"
    data = json.loads((Path("resources/rubrics/default.json")).read_text(encoding="utf-8"))
    other.write_text(json.dumps({**data, "danger_threshold": 5.0}), encoding="utf-8")
    try:
        assert main([*w, "validity", "--rubric", str(other)]) == 2
    finally:
        other.unlink()
    err = capsys.readouterr().err
    assert f"--rubric: judge run {run} was judged with the rubric dialect-degradation@" in err
    assert _count(path, "SELECT count(*) FROM runs") == runs and not backend.seen
    assert _count(path, "SELECT count(*) FROM validity_cards") == 0


class Failing(planted.ScriptedBackend):
    """The endpoint fails every request after the first ``good`` ones."""

    def __init__(self, reply, good: int):
        super().__init__(reply)
        self.good = good

    def generate(self, requests, *, progress=None, cancelled=None):
        for req in requests:
            self.seen.append(req.key)
            if len(self.seen) > self.good:
                yield Result(req.key, None, error="HTTP 503: the endpoint is down")
            else:
                yield Result(req.key, self.reply(req), prompt_tokens=1, completion_tokens=1)


def test_a_failing_endpoint_exits_3_and_the_same_command_resumes(judged, monkeypatch, capsys):
    path, _run = judged
    w = ["-w", str(path), "validity", "--per-dialect", "4", "--json"]
    _serve(monkeypatch, Failing(planted.order_blind, good=10))
    assert main(w) == 3
    first = json.loads(capsys.readouterr().out)["runs"][0]
    assert first["done_now"] == 10 and first["errors"] > 0 and not first["complete"]
    assert _count(path, "SELECT count(*) FROM validity_cards") == 0
    backend = planted.ScriptedBackend(planted.order_blind)
    _serve(monkeypatch, backend)
    assert main(w) == 0
    second = json.loads(capsys.readouterr().out)
    assert second["runs"][0]["done_before"] == 10
    assert len(backend.seen) == first["items"] - 10  # only what was missing
    assert second["card"] is not None and _count(path, "SELECT count(*) FROM validity_cards") == 1


def _answer(line: dict) -> dict:
    """A Batch engine's result line: the planted judge's verdict on the line's prompt."""
    body = line["body"]
    request = SimpleNamespace(messages=[Message(m["role"], m["content"]) for m in body["messages"]])
    content = planted.order_blind(request)
    return {
        "id": f"req_{line['custom_id'][:8]}",
        "custom_id": line["custom_id"],
        "response": {
            "status_code": 200,
            "body": {
                "model": body["model"],
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            },
        },
        "error": None,
    }


def test_the_suite_as_batch_files_and_back(judged, capsys, tmp_path):
    path, run = judged
    w = ["-w", str(path)]
    out = tmp_path / "batch"
    step = ["validity", "--judge-run", str(run), "--per-dialect", "3"]
    assert main([*w, "batch", "export", "--out", str(out), "--json", *step]) == 0
    manifest = json.loads(capsys.readouterr().out)
    assert manifest["step"] == "validity" and manifest["items"] == 2 * 3 * 7
    results = []
    for f in manifest["files"]:
        lines = (out / f["name"]).read_text(encoding="utf-8").splitlines()
        results += [_answer(json.loads(line)) for line in lines]
    answered = tmp_path / "results.jsonl"
    answered.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in results))
    assert main([*w, "batch", "import", str(answered), "--json"]) == 0
    imported = json.loads(capsys.readouterr().out)
    assert imported["missing"] == 0 and imported["answered"] == 2 * 3 * 7
    assert _count(path, "SELECT count(*) FROM validity_cards") == 1
    assert main([*w, "validity", "--judge-run", str(run), "--per-dialect", "3", "--json"]) == 0
    card = json.loads(capsys.readouterr().out)["card"]
    assert all(f["status"] == "pass" for d in card["dialects"] for f in d["families"])


@pytest.mark.slow
def test_the_embedded_model_on_the_demo_study(demo_made, capsys):
    """The demo's real pipeline (2 questions, Chittagong, the 270M judge; made once per
    session, tests/cli/conftest.py), then the suite on its judge run with the same model:
    every probe decoded, the card printed."""
    out = demo_made
    capsys.readouterr()
    w = ["-w", str(out / "demo.sqlite")]
    rubric = str(out / "demo-rubric.json")
    assert main([*w, "validity", "--rubric", rubric, "--per-dialect", "2", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "Chittagong (" in text and "flip rate" in text and "discrimination" in text
    assert main([*w, "validity", "--rubric", rubric, "--per-dialect", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["runs"][0]["done_now"] == 0 and data["runs"][0]["errors"] == 0
    (chittagong,) = data["card"]["dialects"]
    assert chittagong["dialect"] == "chittagong" and chittagong["sentence"]
    assert {f["family"] for f in chittagong["families"]} == {
        "position",
        "retest",
        "invariance",
        "sensitivity",
    }


def test_a_judge_run_that_records_no_rubric_is_refused_by_name(judged, capsys):
    """Judgments imported or made up (the sample's synthetic study): no judge to ask again."""
    path, run = judged
    with Workspace(path) as ws:
        card = json.loads(ws.scalar("SELECT card FROM runs WHERE id = ?", (run,)))
        card.pop("rubric", None)
        ws.conn.execute("UPDATE runs SET card = ? WHERE id = ?", (json.dumps(card), run))
        ws.conn.commit()
    runs = _count(path, "SELECT count(*) FROM runs")
    assert main(["-w", str(path), "validity", "--judge-run", str(run)]) == 2
    err = capsys.readouterr().err
    assert f"judge run {run} records no rubric: its judge cannot be asked again" in err
    assert _count(path, "SELECT count(*) FROM runs") == runs
