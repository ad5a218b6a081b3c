"""A set with no train split: the Tasks panel (and ``run-task --draw-train N``) draws a
seeded train split from the evaluated items for few-shot demonstrations, records it in
every card and no longer evaluates the drawn items."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.cli import main
from tests.scripted_backend import ScriptedBackend
from tests.widgets.task_fixtures import add_scripted_model
from widgets.understanding.tasks_panel import TasksPanel


@pytest.fixture
def test_only_set(workspace, tmp_path, monkeypatch):
    from engine.understanding.api import import_items

    dialects = ["sylhet"] * 4 + ["chittagong"] * 4
    rows = ["id,text,label,dialect,split"] + [
        f"a{i},বাক্য নম্বর {i},{i % 2},{d},test" for i, d in enumerate(dialects)
    ]
    path = tmp_path / "offence.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    import_items(workspace, path, label_col="label", dialect_col="dialect", split_col="split")
    add_scripted_model(workspace)
    monkeypatch.setattr(
        "engine.llm.runs.backend.backend_for_run",
        lambda ws, run_id: ScriptedBackend(lambda req: '{"label": "1"}'),
    )
    return workspace


def _choose(qtbot, combo, data) -> None:
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Home)
    for _press in range(combo.count()):
        if combo.currentData() == data:
            return
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert combo.currentData() == data


def test_the_panel_draws_a_seeded_train_split_and_the_card_records_it(
    qtbot, test_only_set, sync_bridge
):
    ws = test_only_set
    panel = TasksPanel(ws, sync_bridge)
    qtbot.addWidget(panel)
    panel.show()
    _choose(qtbot, panel.task_box, "classification")
    _choose(qtbot, panel.source_box, "items:offence")
    panel.split.setFocus()
    qtbot.keyClick(panel.split, Qt.Key.Key_End)  # validation, test: the last one
    assert panel.split.currentText() == "test"
    qtbot.mouseClick(panel.regimes["zero"], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(panel.regimes["few"], Qt.MouseButton.LeftButton)
    for box, number in ((panel.k, "1"), (panel.draw_train, "1")):
        qtbot.mouseClick(box.lineEdit(), Qt.MouseButton.LeftButton)
        QTest.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        QTest.keyClicks(box, number)
        QTest.keyClick(box, Qt.Key.Key_Return)
    request = panel.job_request()
    assert request.regimes == ("few",) and request.draw_train == 1
    with qtbot.waitSignal(panel.sig_run_finished, timeout=60_000) as done:
        qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    [summary] = done.args[0]
    assert summary["items"] == 6  # 8 items less one drawn per dialect
    card = json.loads(ws.scalar("SELECT card FROM runs WHERE id = ?", (summary["run_id"],)))
    assert card["train_draw"] == {"per_dialect": 1, "seed": 0, "from": "test"}


def test_run_task_draw_train_on_the_cli(test_only_set, capsys):
    argv = ["-w", str(test_only_set.path), "run-task", "classification"]
    argv += ["--items", "items:offence", "--split", "test", "--regimes", "few", "--k", "1"]
    assert main([*argv, "--json"]) == 2
    assert "none found (draw a seeded train split" in capsys.readouterr().err
    assert main([*argv, "--draw-train", "2", "--json"]) == 0
    [run] = json.loads(capsys.readouterr().out)["runs"]
    assert run["items"] == 4


def test_choosing_a_test_only_set_chooses_its_split(qtbot, test_only_set, sync_bridge):
    """The set has no validation split (the default): choosing it moves Split to test, so
    the first run evaluates items that exist."""
    panel = TasksPanel(test_only_set, sync_bridge)
    qtbot.addWidget(panel)
    panel.show()
    assert panel.split.currentData() == "validation"
    _choose(qtbot, panel.source_box, "items:offence")
    assert panel.split.currentData() == "test"
