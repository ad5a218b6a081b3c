"""PPI and agreement say what a figure is when it has no number or rests on few items:
'labels for width' is undefined without labels and unreachable where the judge side alone
is wider (told apart in JSON too); α on two items carries a small-n note."""

from __future__ import annotations

import json

import numpy as np

from app.cli import main
from engine.annotation.agreement import Estimate
from engine.workspace.store import Workspace
from tests.engine.annotation.helpers import build_judged_study


def _run(capsys, ws, *argv):
    code = main(["-w", str(ws), *argv])
    out = capsys.readouterr()
    return code, out.out


def test_labels_for_width_undefined_then_unreachable(tmp_path, capsys):
    ws = tmp_path / "ppi.sqlite"
    with Workspace(ws) as w:
        run, truth = build_judged_study(w, np.random.default_rng(3))
    assert _run(capsys, ws, "annotators", "add", "Rina", "--dialects", "standard,sylhet")[0] == 0
    draw = ["ppi", "--draw", "--name", "p", "--judge-run", str(run), "--share", "0.1"]
    assert _run(capsys, ws, *draw, "--seed", "9")[0] == 0
    code, out = _run(capsys, ws, "ppi", "--json")
    cells = json.loads(out)["cells"]
    assert code == 0 and cells
    for c in cells:  # no human label yet: undefined, not unreachable
        assert c["labels_for_width"] is None and c["labels_for_width_state"] == "undefined"
        assert "0 human label" in c["labels_for_width_note"]
        assert c["ppi"]["note"].startswith("undefined: 0 human label")
    code, out = _run(capsys, ws, "ppi")
    assert "width 1: undefined" in out and "unreachable" not in out, out
    assert "note (PPI): undefined" in out
    from engine.annotation.decisions import my_queue, record_decision

    with Workspace(ws) as w:
        for item in my_queue(w, "Rina"):
            record_decision(w, item["item_id"], "Rina", "accept", score=truth[item["target_id"]])
    # a width narrower than the judge side alone allows: unreachable
    code, out = _run(capsys, ws, "ppi", "--width", "0.0001", "--json")
    for c in json.loads(out)["cells"]:
        assert c["labels_for_width"] is None and c["labels_for_width_state"] == "unreachable"
    code, out = _run(capsys, ws, "ppi", "--width", "0.0001")
    assert "width 0.0001: unreachable" in out and "judge-side variance" in out


def test_alpha_on_two_items_carries_a_small_n_note():
    # the figure: α −0.50 on two items with [−0.50, 0.25]
    est = Estimate(-0.5, -0.5, 0.25, 2).as_dict()
    assert "only 2 items" in est["note"] and "on or outside its own interval" in est["note"]
    assert "note" not in Estimate(0.6, 0.5, 0.7, 40).as_dict()
    assert "no interval" in Estimate(0.6, float("nan"), float("nan"), 1).as_dict()["note"]
