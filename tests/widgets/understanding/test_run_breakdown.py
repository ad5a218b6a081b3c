"""The Tasks panel's "Per dialect and confusion matrix" tab shows a selected run's figures
per dialect and its confusion matrix, the same as ``upabhasha task-stats``."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from app.cli import main
from tests.scripted_backend import ScriptedBackend
from tests.widgets.task_fixtures import task_ws  # noqa: F401 (fixture)
from widgets.understanding.tasks_panel import TasksPanel


def test_a_selected_run_per_dialect_and_its_confusion_matrix(
    qtbot, task_ws, sync_bridge, monkeypatch, capsys
):
    monkeypatch.setattr(
        "engine.llm.runs.backend.backend_for_run",
        lambda ws, run_id: ScriptedBackend(lambda req: '{"label": "sylhet"}'),
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
    assert panel.task_box.currentData() == "dialect-id"
    with qtbot.waitSignal(panel.sig_run_finished, timeout=60_000):
        qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    assert panel.results.rowCount() == 1
    cell = panel.results.visualItemRect(panel.results.item(0, 0)).center()
    qtbot.mouseClick(panel.results.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    breakdown = panel.breakdown
    tabs = breakdown.parentWidget().parentWidget()  # the stack, then the tab widget
    bar = tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(1).center())
    assert tabs.currentWidget() is breakdown
    assert tabs.tabText(1) == "Per dialect and confusion matrix"

    capsys.readouterr()
    assert main(["-w", str(task_ws.path), "task-stats", "--json"]) == 0
    [cli_run] = json.loads(capsys.readouterr().out)["runs"]
    per_dialect = cli_run["per_dialect"]
    table = breakdown.per_dialect
    header = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert header[:3] == ["Dialect", "n", "accuracy"] and "macro-F1" in header
    shown = {
        table.item(r, 0).text(): table.item(r, header.index("macro-F1")).text()
        for r in range(table.rowCount())
    }
    assert shown == {d: f"{e['macro_f1']:.3f}" for d, e in per_dialect.items()}
    # the label is the dialect: the macro score is over the labels, and the note says why
    assert "over the labels on all items" in breakdown.note.text()
    assert "macro over labels" in panel.results.item(0, 6).text()
    confusion = cli_run["overall"]["confusion"]
    matrix = breakdown.confusion
    assert matrix.isVisible() and matrix.rowCount() == len(confusion["matrix"])
    sylhet = confusion["labels"].index("sylhet")
    for row, counts in enumerate(confusion["matrix"]):
        assert matrix.item(row, 0).text() == confusion["labels"][row]
        assert matrix.item(row, sylhet + 1).text() == str(counts[sylhet])
