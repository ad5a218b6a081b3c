"""Cancelling a translation from the Jobs panel at each phase — building the index (before
its first report), encoding the corpus, decoding drafts — stops the job, and the Translate
dialog is ready for the next run at once. Real embedded model, real encoder, the real
threaded bridge; the cancel is a click on the Jobs panel's row and its Cancel button."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from widgets.common.job_monitor import JobMonitor
from widgets.translation.translate_dialog import TranslateDialog


def _tick(qtbot, listing, data) -> None:
    row = next(i for i in range(listing.count()) if listing.item(i).data(256) == data)
    rect = listing.visualItemRect(listing.item(row))
    qtbot.mouseClick(listing.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    QTest.keyClick(listing, Qt.Key.Key_Space)


def _in_phase(phase: str, note: str) -> bool:
    if phase == "encoding":
        return note.startswith("index") and "encoding" in note
    return bool(note) and not note.startswith("index")  # the model's job: cache, decoding


@pytest.mark.slow
@pytest.mark.parametrize("phase", ["index", "encoding", "decoding"])
def test_cancel_at_each_phase_stops_and_the_dialog_is_ready_again(
    qtbot, corpus_ws, threaded_bridge, phase
):
    monitor = JobMonitor(threaded_bridge)
    dialog = TranslateDialog(corpus_ws, threaded_bridge)
    for widget in (monitor, dialog):
        qtbot.addWidget(widget)
        widget.show()
    # cancel the moment the phase is reached: a click on the job's row, then on Cancel
    cancelled_in: list[str] = []

    def cancel_from_the_monitor(task) -> None:
        if cancelled_in or not task.running:
            return
        if phase != "index" and not _in_phase(phase, task.note):
            return
        cancelled_in.append(task.note)
        row = monitor.model.tasks.index(task)
        rect = monitor.view.visualRect(monitor.model.index(row, 0))
        qtbot.mouseClick(monitor.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        qtbot.mouseClick(monitor.cancel_button, Qt.MouseButton.LeftButton)

    signal = (
        threaded_bridge.sig_task_started if phase == "index" else threaded_bridge.sig_task_progress
    )
    signal.connect(cancel_from_the_monitor)
    _tick(qtbot, dialog.dialects, "sylhet")
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    task = dialog.task
    assert task is not None
    qtbot.waitUntil(lambda: bool(cancelled_in) or not task.running, timeout=300_000)
    assert cancelled_in, f"the job ended before its {phase} phase was seen"
    qtbot.waitUntil(lambda: not task.running, timeout=60_000)  # the generous bound
    signal.disconnect(cancel_from_the_monitor)
    assert task.state == "cancelled"
    # ready at once: no sticky "Running…", Translate enabled, a second start runs again
    assert dialog.task is None and dialog.start_button.isEnabled()
    assert "Running" not in dialog.status.text()
    # a cancel seen between two items ends the job with its summary before these words
    assert dialog.status.text().endswith("Cancelled: run again to resume.")


STOPS_WITHIN_S = 2.0


@pytest.mark.slow
@pytest.mark.parametrize("phase", ["loading the encoder", "building the index"])
def test_a_cancel_while_the_index_is_made_stops_the_job_within_2_s(
    qtbot, corpus_ws, threaded_bridge, phase
):
    """Cancelled the moment the Jobs panel names the phase: the job has stopped within 2 s
    of the click (the encoder's load runs where a cancel reaches it; the index build looks
    for one between partitions)."""
    monitor = JobMonitor(threaded_bridge)
    dialog = TranslateDialog(corpus_ws, threaded_bridge)
    for widget in (monitor, dialog):
        qtbot.addWidget(widget)
        widget.show()
    clicked: list[tuple[str, float]] = []

    def cancel_from_the_monitor(task) -> None:
        if clicked or not task.running or phase not in task.note:
            return
        row = monitor.model.tasks.index(task)
        rect = monitor.view.visualRect(monitor.model.index(row, 0))
        qtbot.mouseClick(monitor.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        clicked.append((task.note, time.monotonic()))
        qtbot.mouseClick(monitor.cancel_button, Qt.MouseButton.LeftButton)

    threaded_bridge.sig_task_progress.connect(cancel_from_the_monitor)
    _tick(qtbot, dialog.dialects, "sylhet")
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    task = dialog.task
    assert task is not None
    qtbot.waitUntil(lambda: not task.running, timeout=300_000)
    threaded_bridge.sig_task_progress.disconnect(cancel_from_the_monitor)
    assert clicked, f"the job ended before its {phase!r} phase was seen"
    note, at = clicked[0]
    assert task.state == "cancelled", (note, task.state)
    assert task.finished_at is not None
    took = task.finished_at - at
    assert took <= STOPS_WITHIN_S, f"{note}: stopped {took:.2f} s after the click"
    assert dialog.task is None and dialog.start_button.isEnabled()
    threaded_bridge.shutdown(wait=True)  # its worker out of the emit before the widgets go
