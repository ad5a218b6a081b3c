"""A batch exported before batches kept their request (its command line in the workspace)
still imports: the command line becomes the request it makes today, once, and the results
are replayed through it (tests/fixtures/batch_v_old, written by that older version)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from app.cli import main
from engine.answering.api import GenerateRequest
from tests.cli.batch_tools import run_batch_file
from tests.cli.test_cli_secrets import EchoServer

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "batch_v_old"


@pytest.fixture
def old_batch(tmp_path):
    ws = tmp_path / "ws.sqlite"
    shutil.copy(FIXTURE / "workspace.sqlite", ws)
    server = EchoServer()
    server.reject, server.answer = False, "ঢাকা বাংলাদেশের রাজধানী।"
    results = tmp_path / "results.jsonl"
    (requests_file,) = FIXTURE.glob("generate-*.jsonl")
    assert run_batch_file(requests_file, server.url, results) == 6
    yield ws, results
    server.stop()


def _rows(ws: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(ws) as conn:
        return conn.execute(sql).fetchall()


def test_an_old_batch_imports_through_the_request_its_command_line_makes(old_batch, capsys):
    ws, results = old_batch
    code = main(["-w", str(ws), "batch", "import", str(results), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0, report
    assert report["missing"] == 0 and report["files"][0]["accepted"] == 6
    assert _rows(ws, "SELECT count(*) FROM responses WHERE status = 'done'") == [(6,)]
    assert _rows(ws, "SELECT count(*) FROM llm_legacy_batch_argv") == [(0,)]
    ((stored,),) = _rows(ws, "SELECT request FROM llm_batches")
    assert GenerateRequest.from_json(json.loads(stored)) == GenerateRequest(
        models=("echo",), max_tokens=8, limit=2
    )
    assert "argv" not in {r[1] for r in _rows(ws, "PRAGMA table_info(llm_batches)")}
    # a second import finds the request stored: nothing new, nothing missing
    assert main(["-w", str(ws), "batch", "import", str(results), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["files"][0]["new"] == 0


def test_an_old_command_line_that_no_longer_reads_is_refused_and_nothing_changes(old_batch, capsys):
    ws, results = old_batch
    assert main(["-w", str(ws), "status"]) == 0  # the first open migrates the workspace
    with sqlite3.connect(ws) as conn:
        conn.execute(
            "UPDATE llm_legacy_batch_argv SET argv = ?",
            (json.dumps(["generate", "--long-gone-option", "3"]),),
        )
    capsys.readouterr()
    before = _rows(ws, "SELECT count(*) FROM llm_batch_results")
    code = main(["-w", str(ws), "batch", "import", str(results)])
    err = capsys.readouterr().err
    assert code == 2
    assert "batch " in err and "exported by an earlier version" in err
    assert _rows(ws, "SELECT count(*) FROM llm_batch_results") == before
    assert _rows(ws, "SELECT count(*) FROM llm_legacy_batch_argv") == [(1,)]
