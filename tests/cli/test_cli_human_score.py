"""``human-score`` records the human labels PPI reads: ``--item`` scores an item drawn by
``ppi --draw`` (its batch's scale), and a response of another kind says which option to use."""

from __future__ import annotations

import numpy as np
import pytest

from app.cli import main
from engine.annotation.annotators import add_annotator
from engine.annotation.decisions import my_queue
from engine.annotation.ppi import draw_subset, human_labels
from engine.workspace.store import Workspace
from tests.engine.annotation.helpers import build_judged_study


def test_human_score_item_records_the_label_ppi_reads(tmp_path, capsys):
    path = tmp_path / "ws.sqlite"
    with Workspace(path) as ws:
        run, truth = build_judged_study(ws, np.random.default_rng(3))
        add_annotator(ws, "Rina", ["standard", "sylhet"])
        drawn = draw_subset(ws, "ppi-1", run, ["Rina"], share=0.05, seed=1)
        queue = my_queue(ws, "Rina")
        answer_response = ws.scalar("SELECT min(id) FROM responses")
    for item in queue:
        score = truth[item["target_id"]]
        argv = ["-w", path, "human-score", "--item", item["item_id"], "--annotator", "Rina"]
        assert main([*map(str, argv), "--score", f"{score:g}"]) == 0
    out = capsys.readouterr().out
    assert f"item {queue[0]['item_id']}: Rina" in out
    with Workspace(path) as ws:
        labels = human_labels(ws, drawn["batch_id"])
    assert labels == {i["target_id"]: pytest.approx(truth[i["target_id"]]) for i in queue}
    # a response PPI does not score directly names the option that does
    argv = ["-w", path, "human-score", "--response", answer_response, "--annotator", "Rina"]
    assert main([*map(str, argv), "--score", "5"]) == 2
    err = capsys.readouterr().err
    assert "human-score --item ITEM" in err and f"id {answer_response}" in err
