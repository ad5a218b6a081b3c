"""A label never predicted has no precision: task-stats says "undefined" in text, null with
a reason in JSON, an empty CSV cell, and the Tasks panel's per-dialect table says
"undefined" (the same ``task_stats`` report) — never 0.00."""

from __future__ import annotations

import csv
import json

from PySide6.QtCore import Qt

from app.cli import main
from engine.understanding.metrics import classification_scores
from engine.understanding.tables import result_table
from tests.scripted_backend import ScriptedBackend
from tests.widgets.task_fixtures import task_ws  # noqa: F401 (fixture)
from widgets.understanding.tasks_panel import TasksPanel


def test_a_label_never_predicted_is_undefined_not_zero():
    got = classification_scores(["a", "b", "a"], ["a", "a", None], ["a", "b", "c"])
    assert got["per_label"]["b"]["precision"] is None  # never predicted
    assert got["per_label"]["c"]["recall"] is None and got["per_label"]["c"]["f1"] is None
    assert got["per_label"]["b"]["recall"] == 0.0  # present, never found: a real 0
    assert got["macro_precision"] == 0.5 and got["macro_labels"]["macro_precision"] == 1
    assert "b, c (left out of the mean)" in got["undefined"]["macro_precision"]
    none = classification_scores(["a", "b"], [None, None], ["a", "b"])
    assert none["macro_precision"] is None
    assert "none of the labels" in none["undefined"]["macro_precision"]
    header, rows = result_table(
        {"runs": [{"task": "t", "model": "m", "regime": "zero", "k": 0, "script": "native",
                   "constrained": False, "n": 2, "macro": {"macro_f1": None, "accuracy": 0.0},
                   "failures": {"unparseable": 1.0, "script_drift": 0.0, "empty": 0.0}}]}
    )  # fmt: skip
    assert rows[0][header.index("macro-F1 (0-1)")] == ""


def test_unparseable_answers_leave_precision_undefined_in_cli_and_panel(
    qtbot, task_ws, sync_bridge, monkeypatch, capsys, tmp_path
):
    monkeypatch.setattr(
        "engine.llm.runs.backend.backend_for_run",
        lambda ws, run_id: ScriptedBackend(lambda req: "I cannot tell."),
    )
    panel = TasksPanel(task_ws, sync_bridge)
    qtbot.addWidget(panel)
    panel.resize(1300, 800)
    panel.show()
    panel.task_box.setFocus()
    qtbot.keyClick(panel.task_box, Qt.Key.Key_Home)
    for _press in range(panel.task_box.count()):
        if panel.task_box.currentData() == "dialect-id":
            break
        qtbot.keyClick(panel.task_box, Qt.Key.Key_Down)
    with qtbot.waitSignal(panel.sig_run_finished, timeout=60_000):
        qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    capsys.readouterr()
    out_csv = tmp_path / "tasks.csv"
    ws = ["-w", str(task_ws.path)]
    assert main([*ws, "task-stats", "--json", "--csv", str(out_csv)]) == 0
    [run] = json.loads(capsys.readouterr().out)["runs"]
    assert run["macro"]["macro_precision"] is None
    assert run["undefined"]["macro_precision"].startswith("no item was predicted")
    assert all(e["macro_precision"] is None for e in run["per_dialect"].values())
    assert main([*ws, "task-stats"]) == 0
    text = capsys.readouterr().out
    assert "macro_precision undefined" in text and "macro_precision 0.00" not in text
    with open(out_csv, encoding="utf-8") as f:
        [row] = list(csv.DictReader(f))
    assert row["macro-F1 (0-1)"] == f"{run['macro']['macro_f1']:.3f}"  # missed: a real 0
    cell = panel.results.visualItemRect(panel.results.item(0, 0)).center()
    qtbot.mouseClick(panel.results.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    table = panel.breakdown.per_dialect
    header = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    column = header.index("macro-P")
    for r in range(table.rowCount()):
        item = table.item(r, column)
        assert item.text() == "undefined" and "predicted as any label" in item.toolTip()
