"""The same numbers either way, with the real, unmodified llama-cpp-python server on
127.0.0.1: a small study's generate, judge and run-task run online, and through batch files
(each line's body posted to the server as it is, its result line written, the files
imported), store the same responses, judgments and task results, and give the same
statistics. That server refuses ``response_format: json_schema``; the judge finds the form it
takes (``json_object`` with the schema) and sends its verdict schema that way both ways."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.workspace.store import Workspace
from tests.cli.batch_tools import copy_workspace, run_batch_file, stored_rows
from tests.cli.test_cli_batch import STORED, _export, _run
from tests.engine.judging import study_fixture
from tests.engine.llm.test_llm_endpoint import real_llama_server
from tests.engine.rag.test_rag_retrieval import SMALL, _insert

# a grammar-constrained reply of the 270M model on a loaded machine may take minutes: the
# test is about equal rows, not speed
SLOW_MACHINE = ("--read-timeout", "900")


def _steps(rubric: Path) -> tuple[list[str], ...]:
    """The three steps; the judge's rubric caps its reasoning shortest (the 270M judge mostly
    repeats itself up to the cap, and its reply is grammar-constrained both ways)."""
    return (
        ["generate", "--model", "real", "--dialect", "sylhet", "--max-tokens", "6"],
        ["judge", "--judge", "real", "--max-attempts", "1", "--rubric", str(rubric)],
        ["run-task", "dialect-to-standard", "--models", "real", "--limit", "1"]
        + ["--max-tokens", "6"],
    )


@pytest.mark.slow
def test_batch_files_through_the_real_server_equal_the_online_run(
    tmp_path, capsys, embedded_gguf, monkeypatch
):
    # one question and one dialect: two answers, one judgment, one task item per path
    monkeypatch.setattr(study_fixture, "QUESTIONS", study_fixture.QUESTIONS[:1])
    path = tmp_path / "ws.sqlite"
    with Workspace(path) as ws:
        _insert(ws, SMALL[-1:])  # one validation pair for run-task
        study_fixture.build_questions(ws)
    w = ["-w", str(path)]
    online = tmp_path / "online.sqlite"
    judge_bodies = []
    with real_llama_server(embedded_gguf) as url:
        argv = ["models", "add", url + "/v1", "--api-model", "real", "--name", "real"]
        code, text = _run(capsys, *w, *argv, "--concurrency", "1", "--default", *SLOW_MACHINE)
        assert code == 0, text
        copy_workspace(path, online)
        for step in _steps(study_fixture.short_rubric(tmp_path)):
            online_code, text = _run(capsys, "-w", str(online), *step)
            assert online_code == 0, (step, text)
            files, manifest = _export(capsys, w, tmp_path / step[0], *step)
            assert manifest["items"] > 0, step
            results = []
            for f in files:
                if step[0] == "judge":
                    judge_bodies += [json.loads(line)["body"] for line in f.open()]
                results.append(tmp_path / f"{f.stem}.results.jsonl")
                run_batch_file(f, url, results[-1])
            assert all('"status_code": 200' in line for r in results for line in r.open()), (
                step
            )  # the server took every line as it was written
            code, text = _run(capsys, *w, "batch", "import", *map(str, results))
            assert code == online_code, (step, text)
    # the form this server takes, in every verdict request of the files
    assert judge_bodies and all(
        b["response_format"]["type"] == "json_object" and b["response_format"]["schema"]
        for b in judge_bodies
    )
    batch_rows, online_rows = stored_rows(path, STORED), stored_rows(online, STORED)
    assert batch_rows["responses"] and batch_rows["judgments"] and batch_rows["task_run_items"]
    for table in STORED:
        assert batch_rows[table] == online_rows[table], table
    for argv in (["stats", "--json"], ["task-stats", "--json"]):
        batch_code, batch_text = _run(capsys, *w, *argv)
        online_code, online_text = _run(capsys, "-w", str(online), *argv)
        assert (batch_code, batch_text) == (online_code, online_text), argv
    with Workspace(path) as ws:
        cards = [json.loads(r["card"]) for r in ws.query("SELECT card FROM runs")]
    assert all("estimate" in c["batch"]["exports"][0] and "actual" in c["batch"] for c in cards)
    # the judge's run card names the mode; the endpoint keeps what its probe found
    for ws_path in (path, online):
        with Workspace(ws_path) as ws:
            modes = {
                r["kind"]: json.loads(r["card"]).get("structured_output")
                for r in ws.query("SELECT kind, card FROM runs")
            }
            saved = json.loads(ws.scalar("SELECT load_params FROM models WHERE name = 'real'"))
        assert modes["judge"] == "json_object", modes
        assert saved["structured_output"] == "json_object"
        assert saved["structured_output_probe"]["tried"][:2] == [
            ["json_schema", "refused"],
            ["json_object", "taken"],
        ]
    assert Path(path).exists()
