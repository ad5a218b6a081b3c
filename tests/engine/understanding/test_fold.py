"""The fine-tuning fold: balanced, train split only, disjoint from every prompted item."""

from __future__ import annotations

import json

import pytest

from engine.errors import UserError
from engine.understanding.fold import export_fold
from engine.understanding.run import run_task
from engine.understanding.task_spec import get_task

NORM = get_task("dialect-to-standard")


def test_fold_is_balanced_and_disjoint_from_prompted_items(pairs_ws, model_row, tmp_path):
    from tests.scripted_backend import ScriptedBackend

    factory = lambda ws, run_id: ScriptedBackend(lambda req: "x")  # noqa: E731
    run_task(pairs_ws, NORM, [model_row], regimes=["few"], k=1, seed=5, backend_factory=factory)
    shown = {r["item_key"] for r in pairs_ws.query("SELECT item_key FROM task_run_items")}
    demos = {
        d
        for r in pairs_ws.query("SELECT demo_ids FROM task_run_items")
        for d in json.loads(r["demo_ids"])
    }
    out = tmp_path / "fold.jsonl"
    with pytest.raises(UserError, match="unused train items; the fold needs 3"):
        export_fold(pairs_ws, NORM, out, train_per_dialect=2, test_per_dialect=1)
    assert not out.exists()
    report = export_fold(pairs_ws, NORM, out, train_per_dialect=1, test_per_dialect=0)
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert report["lines"] == len(lines) == 2
    assert {x["dialect"] for x in lines} == {"sylhet", "chittagong"}
    for line in lines:
        assert line["item"] not in shown and line["item"] not in demos
        user, assistant = line["messages"]
        assert user["role"] == "user" and "Sentence:" in user["content"]
        assert json.loads(assistant["content"])["standard"]
