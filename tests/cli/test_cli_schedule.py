"""``--refill`` on the CLI: the batch schedule a user sets is the run's, recorded in its card,
and never replaced by the calibration's choice (engine.llm.planning.schedule_choice)."""

from __future__ import annotations

import json

import pytest

from app.cli import main
from engine.llm.runs.run import run_card
from engine.workspace.store import Workspace


@pytest.mark.slow
def test_run_prompts_keeps_the_refill_the_user_set(tmp_path, capsys, embedded_gguf):
    ws = str(tmp_path / "w.sqlite")
    prompts = tmp_path / "prompts.txt"
    prompts.write_text("এক\nদুই\nতিন\n", encoding="utf-8")
    assert main(["-w", ws, "init"]) == 0
    argv = ["-w", ws, "run-prompts", str(prompts), "--max-tokens", "2", "--n-seq", "2"]
    capsys.readouterr()
    assert main([*argv, "--refill", "1", "--json"]) == 0
    set_run = json.loads(capsys.readouterr().out)["run_id"]
    assert main([*argv, "--json"]) == 0
    default_run = json.loads(capsys.readouterr().out)["run_id"]
    with Workspace(ws) as w:
        card = run_card(w, set_run)
        assert card["schedule"]["refill"] == 1 and card["schedule_choice"] == {"by": "set"}
        assert card["plan_size"] == 2
        other = run_card(w, default_run)
        assert other["schedule"]["refill"] == 4 and other["schedule_choice"]["by"] == "default"
    with pytest.raises(SystemExit) as refused:
        main([*argv, "--refill", "0"])
    assert refused.value.code == 2
