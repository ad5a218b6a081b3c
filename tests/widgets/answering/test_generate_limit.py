"""The generate dialog's item limit: a small default, a typed limit, the scope it shows, and
the CLI's ``generate --limit`` on the embedded model (slow)."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.cli import main
from engine.workspace.store import Workspace
from tests.engine.judging.study_fixture import build_questions
from widgets.answering.generate_dialog import GenerateDialog
from widgets.common.dialog_parts import set_checked


@pytest.fixture
def gold_ws(tmp_path):
    from engine.llm.models.registry import ensure_embedded_default

    ws = Workspace(tmp_path / "study.sqlite", create=True)
    build_questions(ws)
    ensure_embedded_default(ws)
    yield ws
    ws.close()


def test_a_typed_limit_sets_the_scope_and_enter_starts_nothing(qtbot, gold_ws, sync_bridge):
    dialog = GenerateDialog(gold_ws, sync_bridge)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.limit.value() == 10
    assert dialog.scope.text() == "9 answers: 3 questions × 3 dialects"
    set_checked(dialog.dialects, ["sylhet"])
    assert dialog.scope.text() == "6 answers: 3 questions × 2 dialects"
    qtbot.mouseClick(dialog.limit.lineEdit(), Qt.MouseButton.LeftButton)
    QTest.keyClick(dialog.limit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(dialog.limit, "1")
    QTest.keyClick(dialog.limit, Qt.Key.Key_Return)
    assert dialog.limit.value() == 1
    assert dialog.scope.text() == "2 answers: 1 questions × 2 dialects"
    assert not sync_bridge.tasks()
    assert [r.limit for r in dialog.job_requests().values()] == [1]


@pytest.mark.slow
def test_generate_limit_on_the_cli_answers_only_the_first_questions(
    tmp_path, capsys, embedded_gguf
):
    ws = str(tmp_path / "real.sqlite")
    assert main(["-w", ws, "init"]) == 0
    with Workspace(ws) as w:
        build_questions(w)
    argv = ["-w", ws, "generate", "--dialect", "sylhet", "--max-tokens", "8", "--json"]
    capsys.readouterr()
    assert main([*argv, "--limit", "1"]) == 0
    [first] = json.loads(capsys.readouterr().out)["runs"]
    assert first["items"] == 2 and first["errors"] == 0
    assert main(argv) == 0
    [rest] = json.loads(capsys.readouterr().out)["runs"]
    # batches of another size decode differently, so the whole set is a run of its own
    assert rest["items"] == 6 and rest["complete"] and rest["errors"] == 0


def test_a_long_estimate_asks_first_although_the_items_are_few(
    qtbot, gold_ws, sync_bridge, monkeypatch
):
    """An estimate of 10 minutes or more asks before starting, as 500 items do. The
    estimator stands in for a slow model (its real decoding is tested with the model)."""
    from PySide6.QtWidgets import QMessageBox

    from engine.answering import tasks as answering_tasks

    def slow_model_estimate(*_args, **_kwargs):
        return {
            "model": "slow",
            "left": 9,
            "seconds": 1200.0,
            "seconds_low": 900.0,
            "seconds_high": 1500.0,
            "tokens": 9 * 384,
        }

    monkeypatch.setattr(answering_tasks, "estimate_answers_at", slow_model_estimate)
    dialog = GenerateDialog(gold_ws, sync_bridge)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.mouseClick(dialog.estimate.estimate_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.estimate.shown_seconds() == 1200.0, timeout=10_000)
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    box = dialog.confirmation
    assert box is not None and "9 answers" in box.text() and "20 min" in box.text()
    qtbot.mouseClick(box.button(QMessageBox.StandardButton.No), Qt.MouseButton.LeftButton)
    assert not dialog.tasks and not any("Answers of" in t.label for t in sync_bridge.tasks())
    # the choices change: the estimate is withdrawn, and so is the question it raised
    set_checked(dialog.dialects, ["sylhet"])
    assert dialog.estimate.shown_seconds() is None
