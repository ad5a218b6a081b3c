"""``upabhasha run-prompts`` builds :class:`RunPromptsRequest` with the file's prompts as
data, and the request run anywhere else (a batch, a front end) resumes the same run."""

from __future__ import annotations

import hashlib
import json

from app.cli import build_parser, main
from engine.llm.api import RunPromptsRequest
from engine.llm.runs.run import run_card
from engine.workspace.store import Workspace
from tests.cli.test_cli_secrets import echo  # noqa: F401 (fixture)


def test_the_cli_and_the_request_run_the_same_job(tmp_path, capsys, echo):  # noqa: F811
    ws = str(tmp_path / "ws.sqlite")
    prompts = tmp_path / "p.txt"
    prompts.write_text("এক\n\nদুই\n", encoding="utf-8")
    echo.reject, echo.answer = False, "উত্তর"
    Workspace(ws).close()
    assert main(["-w", ws, "models", "add", echo.url, "--api-model", "m", "--name", "echo",
                 "--default"]) == 0  # fmt: skip
    argv = ["run-prompts", str(prompts), "--max-tokens", "4"]
    args = build_parser().parse_args(argv)
    request = args.build_request(args)
    assert request == RunPromptsRequest("এক\n\nদুই\n", max_tokens=4)

    capsys.readouterr()
    assert main(["-w", ws, *argv, "--json"]) == 0
    ran = json.loads(capsys.readouterr().out)
    assert set(ran) == {"run_id", "summary", "responses"}
    assert [r["key"] for r in ran["responses"]] == ["line-1", "line-3"]
    assert ran["summary"]["done_now"] == 2
    calls = echo.calls
    with Workspace(ws) as w:
        # the card names the file's bytes, as before the prompts travelled as data
        card = run_card(w, ran["run_id"])
        assert card["file_sha256"] == hashlib.sha256(prompts.read_bytes()).hexdigest()
        result = request.run(w)
    assert result.run_id == ran["run_id"] and result.summary.done_before == 2
    assert echo.calls == calls  # nothing asked again
    assert result.as_dict()["responses"] == ran["responses"]


def test_a_bad_line_is_one_line_naming_the_file(tmp_path, capsys):
    bad = tmp_path / "p.jsonl"
    bad.write_text('{"prompt": "a"}\n{"prompt": "b", "messages": 3}\n', encoding="utf-8")
    assert main(["-w", str(tmp_path / "ws.sqlite"), "run-prompts", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "FILE: line 2: 'messages' needs" in err
    assert not (tmp_path / "ws.sqlite").exists()  # refused before the workspace opened
