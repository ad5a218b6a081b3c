"""The batch estimate never invents a time: runs answered from batch files took no online
time (their cards record none), a step is timed by past runs of its own kind, and an
unknown time or cost is said "unknown" once."""

from __future__ import annotations

import json
from pathlib import Path

from engine.llm.batch.pricing import seconds_per_item
from engine.workspace.store import Workspace
from tests.cli.test_cli_batch import _export, _run, _through
from tests.cli.test_cli_refusing_endpoint import VERDICT, server, study  # noqa: F401


def _cards(path: Path, kind: str) -> list[dict]:
    with Workspace(path) as ws:
        return [
            json.loads(r["card"]) for r in ws.query("SELECT card FROM runs WHERE kind = ?", (kind,))
        ]


def test_batch_answered_runs_are_not_online_timing(study, server, capsys, tmp_path):
    w, _prompts = study
    server.reject = False
    server.answer = "ঢাকা বাংলাদেশের রাজধানী।"
    generate = ["generate", "--model", "echo", "--max-tokens", "8"]
    files, _ = _export(capsys, w, tmp_path / "gen", *generate)
    code, text = _run(capsys, *w, "batch", "import", *map(str, _through(server, files, tmp_path)))
    assert code == 0, text
    (card,) = _cards(Path(w[1]), "answer")
    assert card["batch"]["actual"]["items"] > 0
    assert "actual" not in (card.get("plan_timing") or {})  # no ~0 s recorded for a replay
    server.answer = json.dumps(VERDICT, ensure_ascii=False)
    code, text = _run(capsys, *w, "judge", "--judge", "echo")  # online: a judge pace
    assert code == 0, text
    with Workspace(Path(w[1])) as ws:
        model_id = ws.scalar("SELECT id FROM models WHERE name = 'echo'")
        assert seconds_per_item(ws, model_id, "judge") is not None
        assert seconds_per_item(ws, model_id, "answer") is None
    # a new generation: its kind has only a batch-answered run, so its online time is unknown
    more = ["generate", "--model", "echo", "--max-tokens", "9"]
    code, text = _run(capsys, *w, "batch", "export", "--estimate", *more)
    assert code == 0, text
    assert "online time unknown" in text and "online 0 s" not in text, text
    assert "cost unknown" in text and "cost cost" not in text, text
    code, text = _run(capsys, *w, "batch", "export", "--estimate", "--json", *more)
    estimate = json.loads(text)
    assert estimate["total"]["requests"] > 0
    assert estimate["total"]["online_seconds"] is None
    assert estimate["models"][0]["online_seconds"] is None
