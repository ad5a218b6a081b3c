"""Batch files carry the structured-output mode of their run, and an import finds the run it
exported even when the endpoint's mode changed in between (a later ``models probe``)."""

from __future__ import annotations

import json

from engine.workspace.store import Workspace
from tests.cli.test_cli_batch import _export, _run, _through
from tests.cli.test_cli_refusing_endpoint import VERDICT, server, study  # noqa: F401


def test_an_import_answers_the_exported_run_after_the_mode_changed(study, server, capsys, tmp_path):
    w, _prompts = study
    server.reject = False
    server.answer = "ঢাকা বাংলাদেশের রাজধানী।"
    code, text = _run(capsys, *w, "generate", "--model", "echo", "--max-tokens", "8")
    assert code == 0, text
    # the echo server constrains nothing: the probe finds plain text, parsed
    files, manifest = _export(capsys, w, tmp_path / "judge", "judge", "--judge", "echo")
    bodies = [json.loads(line)["body"] for f in files for line in f.open()]
    assert bodies and not any("response_format" in b or "grammar" in b for b in bodies)
    with Workspace(w[1]) as ws:
        (card,) = [
            json.loads(r[0]) for r in ws.conn.execute("SELECT card FROM runs WHERE kind = 'judge'")
        ]
        assert card["structured_output"] == "text"
        ws.conn.execute(  # the endpoint is found to take a grammar since
            "UPDATE models SET load_params = json_set(load_params, '$.structured_output', "
            "'grammar') WHERE name = 'echo'"
        )
        ws.conn.commit()
    server.answer = json.dumps(VERDICT, ensure_ascii=False)
    results = _through(server, files, tmp_path)
    code, text = _run(capsys, *w, "batch", "import", *map(str, results))
    assert code == 0, text
    with Workspace(w[1]) as ws:
        judged = ws.scalar("SELECT count(*) FROM judgments WHERE judge_response_id IS NOT NULL")
        runs = ws.scalar("SELECT count(*) FROM runs WHERE kind = 'judge'")
    assert judged == manifest["items"] and runs == 1
