"""The generate dialog's time estimate with the real embedded model: the real button, a
threaded bridge, the estimate with its 90 % interval, stale once the models change, cancel;
and after the run, estimate and actual side by side in the run card, as the CLI writes them."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from engine.workspace.store import Workspace
from widgets.answering.generate_dialog import GenerateDialog
from widgets.common.dialog_parts import set_checked
from widgets.common.task_bridge import TaskBridge


@pytest.fixture
def two_model_ws(tmp_path, embedded_gguf):
    """Two questions with a reviewed Sylhet variant each; the embedded model under two
    names (two models to choose between)."""
    from engine.importing.importers import import_questions
    from engine.llm.models.registry import ensure_embedded_default, register_gguf

    questions = tmp_path / "two questions.csv"
    questions.write_text(
        "id,question,sylhet\n"
        "q1,সৌরজগতের বৃহত্তম গ্রহের নাম কী?,সৌরজগতর সবথাকি বড় গ্রহর নাম কিতা?\n"
        "q2,বাংলাদেশের রাজধানী কোথায়?,বাংলাদেশর রাজধানী কোয়ানো?\n",
        encoding="utf-8",
    )
    ws = Workspace(tmp_path / "study.sqlite", create=True)
    import_questions(ws, questions, name="two")
    first = ensure_embedded_default(ws)
    row = ws.query("SELECT * FROM models WHERE id = ?", (first,))[0]
    register_gguf(
        ws, embedded_gguf, name="second name", sha256=row["sha256"], size_bytes=row["size_bytes"]
    )
    yield ws
    ws.close()


def _dialog(qtbot, ws, bridge, max_tokens: int) -> GenerateDialog:
    dialog = GenerateDialog(ws, bridge)
    qtbot.addWidget(dialog)
    set_checked(dialog.statuses, ["reviewed"])
    dialog.max_tokens.setValue(max_tokens)
    return dialog


@pytest.mark.slow
def test_the_estimate_is_shown_with_its_interval_and_goes_stale(
    qtbot, two_model_ws, threaded_bridge
):
    dialog = _dialog(qtbot, two_model_ws, threaded_bridge, 8)
    box = dialog.estimate
    with qtbot.waitSignal(box.sig_estimated, timeout=120_000) as signal:
        qtbot.mouseClick(box.estimate_button, Qt.MouseButton.LeftButton)
    assert not threaded_bridge.errors
    (est,) = signal.args[0]
    # 2 questions x (standard + sylhet) items, nothing decoded yet; nothing was written
    assert est["items"] == 4 and est["left"] == 4
    assert 0 <= est["seconds_low"] <= est["seconds"] <= est["seconds_high"]
    assert est["tokens"] > est["output_tokens"] > 0
    assert two_model_ws.scalar("SELECT count(*) FROM runs") == 0
    text = box.label.text()
    assert "About" in text and "90 %" in text and "tokens" in text
    # an estimate dearer than a tenth of its job says so, and why
    assert box.took > 0
    assert ("Estimating took" in text) == (box.took > est["seconds"] / 10)
    # another model ticked: the number shown was for other choices
    item = dialog.models.item(1)
    item.setCheckState(Qt.CheckState.Checked)
    assert box.stale and "out of date" in box.label.text()
    assert "About" not in box.label.text()
    # both models: one line each and a total
    with qtbot.waitSignal(box.sig_estimated, timeout=180_000) as signal:
        qtbot.mouseClick(box.estimate_button, Qt.MouseButton.LeftButton)
    assert len(signal.args[0]) == 2
    assert "In total" in box.label.text() and not box.stale


@pytest.mark.slow
def test_cancel_stops_the_estimate(qtbot, two_model_ws, threaded_bridge):
    dialog = _dialog(qtbot, two_model_ws, threaded_bridge, 512)
    box = dialog.estimate
    (task,) = box.start()
    assert box.cancel_button.isVisible() or not dialog.isVisible()
    qtbot.mouseClick(box.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not task.running, timeout=120_000)
    assert task.state == "cancelled" and "cancelled" in box.label.text()
    assert not box.results and not threaded_bridge.errors


@pytest.mark.slow
def test_the_run_card_holds_estimate_and_actual_as_the_cli_writes_them(
    qtbot, tmp_path, two_model_ws, monkeypatch, capsys
):
    """The GUI runs the CLI's engine call: a job at the planner's size estimates itself,
    and the card gets both (the threshold lowered to this job's size); ``upabhasha
    generate`` on a copy of the same workspace writes the same fields and items."""
    import sqlite3

    from app.cli import main
    from engine.llm.runs import jobs
    from widgets.common.task_bridge import SyncExecutor

    copy = tmp_path / "cli.sqlite"
    target = sqlite3.connect(copy)
    two_model_ws.conn.backup(target)  # the WAL's pages too
    target.close()
    monkeypatch.setattr(jobs, "ESTIMATE_MIN_ITEMS", 4)
    bridge = TaskBridge(executor_factory=lambda lane: SyncExecutor())
    dialog = _dialog(qtbot, two_model_ws, bridge, 8)
    with qtbot.waitSignal(dialog.sig_finished, timeout=120_000) as signal:
        qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    bridge.shutdown()
    summary = signal.args[0]
    assert summary["complete"] and summary["estimate"]["items"] == 4
    assert summary["actual"]["items"] == 4
    # the dialog shows both
    assert "estimated" in dialog.status.text() and "took" in dialog.status.text()
    run_card = two_model_ws.scalar("SELECT card FROM runs WHERE id = ?", (summary["run_id"],))
    gui = json.loads(run_card)["plan_timing"]
    assert gui["estimate"]["items"] == 4 and "noise" in gui["estimate"]["calibration"]
    assert gui["actual"]["items"] == 4 and gui["actual"]["seconds"] > 0

    argv = ["-w", str(copy), "generate", "--status", "reviewed", "--max-tokens", "8", "--json"]
    assert main(argv) == 0
    printed = json.loads(capsys.readouterr().out)["runs"][0]
    assert printed["estimate"]["items"] == 4 and printed["actual"]["items"] == 4
    with Workspace(copy, create=False) as ws:
        cli = json.loads(ws.scalar("SELECT card FROM runs WHERE id = ?", (printed["run_id"],)))
    cli = cli["plan_timing"]
    assert cli.keys() == gui.keys()
    assert cli["estimate"].keys() == gui["estimate"].keys()
    assert cli["actual"].keys() == gui["actual"].keys()
    for field in ("items", "output_tokens", "prompt_chars"):  # greedy: the same sample
        assert cli["estimate"][field] == gui["estimate"][field]
    assert cli["actual"]["output_tokens"] == gui["actual"]["output_tokens"]


@pytest.mark.slow
def test_closing_the_dialog_stops_its_estimate(qtbot, two_model_ws, threaded_bridge):
    dialog = GenerateDialog(two_model_ws, threaded_bridge)
    set_checked(dialog.statuses, ["reviewed"])
    dialog.max_tokens.setValue(512)
    (task,) = dialog.estimate.start()
    dialog.deleteLater()
    qtbot.waitUntil(lambda: not task.running, timeout=120_000)
    assert task.state == "cancelled" and not threaded_bridge.errors
