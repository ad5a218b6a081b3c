"""What a person reads while a translation runs, from its first second: the Jobs panel's Done
and ETA cells and a panel's progress row name the phase's count with what it counts
(sentences encoded, dialects indexed, items drafted), a phase without a count shows
"estimating" rather than a figure, and the ETA never climbs while the count stands still.
Real embedded model, real encoder, the real threaded bridge; Translate is clicked."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest

from widgets.common.job_monitor import JobMonitor
from widgets.common.job_progress import JobProgressRow
from widgets.common.task_progress import _phase_of
from widgets.translation.translate_dialog import TranslateDialog

DONE, ETA = 3, 5  # the Jobs panel's columns


def _tick(qtbot, listing, data) -> None:
    row = next(i for i in range(listing.count()) if listing.item(i).data(256) == data)
    rect = listing.visualItemRect(listing.item(row))
    qtbot.mouseClick(listing.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    QTest.keyClick(listing, Qt.Key.Key_Space)


def _seconds(eta: str) -> int | None:
    match = re.fullmatch(r"(?:(\d+):)?(\d+):(\d\d)", eta)
    if match is None:
        return None
    hours, minutes, secs = match.groups()
    return int(hours or 0) * 3600 + int(minutes) * 60 + int(secs)


@pytest.mark.slow
def test_the_phases_counts_and_eta_a_person_reads(qtbot, corpus_ws, threaded_bridge):
    monitor = JobMonitor(threaded_bridge)
    dialog = TranslateDialog(corpus_ws, threaded_bridge)
    row = JobProgressRow()
    for widget in (monitor, dialog, row):
        qtbot.addWidget(widget)
        widget.show()
    _tick(qtbot, dialog.dialects, "sylhet")
    dialog.limit.setFocus()
    QTest.keyClick(dialog.limit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(dialog.limit, "3")
    assert dialog.limit.value() == 3

    seen: list[tuple[str, int, int, str, str, str]] = []  # note, done, total, Done, ETA, row

    def read(task) -> None:
        if not task.running or task not in monitor.model.tasks:
            return
        index = monitor.model.tasks.index(task)
        seen.append(
            (
                task.note,
                task.done,
                task.total,
                monitor.model.data(monitor.model.index(index, DONE)),
                monitor.model.data(monitor.model.index(index, ETA)),
                row.note.text(),
            )
        )

    def on_progress(task) -> None:  # what a panel's row does with its job's reports
        row.show_progress(task.done, task.total, task.note)
        read(task)

    threaded_bridge.sig_task_progress.connect(on_progress)
    timer = QTimer()  # and between reports, as the Jobs panel repaints its running rows
    timer.setInterval(50)
    timer.timeout.connect(lambda: dialog.task is not None and read(dialog.task))
    QTest.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    task = dialog.task
    assert task is not None
    row.follow(task)
    timer.start()
    qtbot.waitUntil(lambda: not task.running, timeout=300_000)
    timer.stop()
    threaded_bridge.sig_task_progress.disconnect(on_progress)
    assert task.state == "done", (task.state, task.error)
    # its worker out of the finished signal's emit before the widgets go (a segfault in
    # PySide6 was seen when the teardown's event processing overlapped it)
    threaded_bridge.shutdown(wait=True)

    # before its first report a job shows no figure; its first report names the phase,
    # which has no count: no figure, "estimating"
    before = [s for s in seen if not s[0]]
    assert all(s[3] == "" and s[4] == "estimating…" for s in before), before
    first_note, _d, _t, done_text, eta_text, row_text = next(s for s in seen if s[0])
    assert "loading the encoder" in first_note
    assert done_text == "" and eta_text == "estimating…"
    assert "loading the encoder" in row_text and "estimating the time left…" in row_text
    for note, done, total, done_text, eta_text, row_text in seen:
        if not note:
            continue
        if "loading the encoder" in note:
            assert done_text == "" and eta_text == "estimating…", (note, done_text, eta_text)
        elif "encoding" in note:
            assert done_text == f"{done} of {total} sentences", (note, done_text)
        elif "building the index" in note:
            assert re.fullmatch(rf"{done} of {total} dialects?", done_text), (note, done_text)
        elif not note.startswith("index"):  # the model's drafts: the three items asked for
            assert done_text == f"{done} of 3 items", (note, done_text)
        if done_text:
            assert done_text in row_text, (done_text, row_text)
    notes = [note for note, *_ in seen]
    assert any("index: encoding" in n for n in notes), notes
    assert any(n and not n.startswith("index") for n in notes), notes  # the model's phase
    assert any(_seconds(eta) is not None for *_, eta, _row in seen), seen  # a figure, once counted

    # while a phase's count stands still, its ETA only runs down (or gives way to "estimating")
    previous: tuple | None = None
    last_eta: int | None = None
    for note, done, total, _done_text, eta_text, _row_text in seen:
        key = (_phase_of(note), done, total)
        eta = _seconds(eta_text)
        if key == previous and eta is not None and last_eta is not None:
            assert eta <= last_eta, (note, done, total, last_eta, eta)
        if key != previous:
            last_eta = None
        if eta is not None:
            last_eta = eta
        previous = key
