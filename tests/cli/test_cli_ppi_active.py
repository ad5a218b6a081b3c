"""``ppi --draw --active`` end to end: the design recorded, shown, and the small-n interval."""

from __future__ import annotations

import json

import numpy as np

from app.cli import main
from engine.annotation.decisions import my_queue, record_decision
from engine.workspace.store import Workspace
from tests.engine.annotation.helpers import build_judged_study


def _run(capsys, ws, *argv):
    code = main(["-w", str(ws), *argv])
    return code, capsys.readouterr().out


def test_an_active_draw_and_its_estimate(tmp_path, capsys):
    ws = tmp_path / "ppi.sqlite"
    with Workspace(ws) as w:
        run, truth = build_judged_study(w, np.random.default_rng(3))
        w.conn.execute("UPDATE judgments SET confidence = 1 + id % 5")
    assert _run(capsys, ws, "annotators", "add", "Rina", "--dialects", "standard,sylhet")[0] == 0
    draw = ["ppi", "--draw", "--name", "a", "--judge-run", str(run), "--share", "0.05"]
    code, out = _run(capsys, ws, *draw, "--seed", "9", "--active", "--floor", "0.02", "--json")
    res = json.loads(out)
    assert code == 0 and res["design"] == "active" and 10 <= res["drawn"] <= 60
    with Workspace(ws) as w:
        for item in my_queue(w, "Rina"):
            record_decision(w, item["item_id"], "Rina", "accept", score=truth[item["target_id"]])
    code, out = _run(capsys, ws, "ppi", "--json")
    study = json.loads(out)
    assert code == 0 and study["design"] | {"raters": None} == {
        "design": "active",
        "floor": 0.02,
        "judge_run": run,
        "share": 0.05,
        "raters": None,
    }
    assert all(c["ppi_t"]["note"].startswith("fewer than 30") for c in study["cells"])
    code, out = _run(capsys, ws, "ppi")
    assert "active draw, floor 0.02, inverse-probability weights" in out
    assert "PPI with Student t" in out


def test_the_draw_shows_the_labels_each_cell_needs(tmp_path, capsys):
    ws = tmp_path / "plan.sqlite"
    with Workspace(ws) as w:
        run, truth = build_judged_study(w, np.random.default_rng(5))
        w.conn.execute("UPDATE judgments SET confidence = 1 + id % 5")
    assert _run(capsys, ws, "annotators", "add", "Rina", "--dialects", "standard,sylhet")[0] == 0
    code, out = _run(capsys, ws, "ppi", "--plan", "--judge-run", str(run), "--width", "0.5")
    assert code == 0 and "needs a pilot of at least 30 human labels" in out
    draw = ["ppi", "--draw", "--judge-run", str(run), "--share", "0.1", "--width", "0.5"]
    code, out = _run(capsys, ws, *draw, "--name", "pilot", "--seed", "3")
    assert code == 0 and "pilot: none yet" in out and "answers drawn at random" in out
    with Workspace(ws) as w:
        for item in my_queue(w, "Rina"):
            record_decision(w, item["item_id"], "Rina", "accept", score=truth[item["target_id"]])
    code, out = _run(capsys, ws, *draw, "--name", "more", "--seed", "4", "--json")
    cells = json.loads(out)["labels_needed"]["cells"]
    assert code == 0 and len(cells) == 2
    assert all(c["pilot"] == 30 and c["uniform"] >= 2 and c["active"] >= 2 for c in cells)
    code, out = _run(capsys, ws, "ppi", "--plan", "--judge-run", str(run), "--width", "0.5")
    assert "uniform" in out and "active" in out and "pilot=30" in out


def test_a_plan_without_a_scored_judge_run_is_refused(tmp_path, capsys):
    ws = tmp_path / "none.sqlite"
    with Workspace(ws) as w:
        build_judged_study(w, np.random.default_rng(6))
    assert main(["-w", str(ws), "ppi", "--plan"]) == 2
    assert "--plan needs --judge-run" in capsys.readouterr().err
    assert main(["-w", str(ws), "ppi", "--plan", "--judge-run", "99"]) == 2
    assert "judge run 99 has no scored answers" in capsys.readouterr().err
