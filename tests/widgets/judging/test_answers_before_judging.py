"""The answers panel lists generated answers before any judge has run: the generate dialog is
driven by typing and clicking on a copy of the sample workspace with the embedded model, and
the panel (shown beside it, following the workspace watcher) lists the new answers with empty
judgment columns."""

from __future__ import annotations

import shutil

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from engine.workspace.store import Workspace
from widgets.answering.generate_dialog import GenerateDialog
from widgets.common.dialog_parts import checked_data
from widgets.judging.answers_panel import AnswersPanel


def tick(qtbot, listing, data) -> None:
    """Click the item carrying ``data`` and press Space, as a person ticks it."""
    row = next(i for i in range(listing.count()) if listing.item(i).data(256) == data)
    rect = listing.visualItemRect(listing.item(row))
    qtbot.mouseClick(listing.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    QTest.keyClick(listing, Qt.Key.Key_Space)


def type_into(qtbot, spin, text: str) -> None:
    qtbot.mouseClick(spin.lineEdit(), Qt.MouseButton.LeftButton)
    QTest.keyClick(spin, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(spin, text)
    QTest.keyClick(spin, Qt.Key.Key_Return)


@pytest.fixture
def sample_ws(sample_db, tmp_path, embedded_gguf):
    from engine.llm.models.registry import ensure_embedded_default

    path = tmp_path / "sample.sqlite"
    shutil.copy(sample_db, path)
    ws = Workspace(path, create=False)
    ensure_embedded_default(ws)
    yield ws
    ws.close()


@pytest.mark.slow
def test_generated_answers_are_listed_before_any_judge_run(qtbot, sample_ws, sync_bridge):
    from widgets.common.workspace_watcher import WorkspaceWatcher

    watcher = WorkspaceWatcher(sample_ws.path, interval_ms=50)
    panel = AnswersPanel(sample_ws, sync_bridge, watcher=watcher)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitUntil(lambda: panel.count.text() == "0 answers", timeout=10_000)

    dialog = GenerateDialog(sample_ws, sync_bridge)
    qtbot.addWidget(dialog)
    dialog.show()
    # the sample's dialect variants are reviewed, none gold: the dialog ticks reviewed itself
    assert checked_data(dialog.statuses) == ["reviewed"]
    type_into(qtbot, dialog.limit, "1")
    type_into(qtbot, dialog.max_tokens, "8")
    assert (dialog.limit.value(), dialog.max_tokens.value()) == (1, 8)
    with qtbot.waitSignal(dialog.sig_finished, timeout=300_000) as finished:
        qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    assert finished.args[0]["complete"] and not sync_bridge.errors

    answers = sample_ws.scalar(
        "SELECT count(*) FROM responses r JOIN variants v ON v.id = r.variant_id "
        "WHERE v.dialect != 'standard' AND r.status = 'done'"
    )
    assert answers > 0
    assert sample_ws.scalar("SELECT count(*) FROM judgments") == 0
    qtbot.waitUntil(lambda: len(panel.model.ids) == answers, timeout=20_000)
    assert panel.count.text() == f"{answers} answers"
    assert panel.model.data(panel.model.index(0, 0)) == sample_ws.scalar(
        "SELECT name FROM models WHERE is_default = 1"
    )
    assert [panel.model.data(panel.model.index(0, c)) for c in (3, 4, 5, 6, 7)] == [
        "—",
        "—",
        "—",
        "",
        "",
    ]
    panel.view.setFocus()
    QTest.keyClick(panel.view, Qt.Key.Key_Down)  # the first row becomes current
    qtbot.waitUntil(lambda: panel.current_answer() is not None, timeout=5_000)
    assert panel.current_judgment() is None
    assert panel.detail.verdict.text().startswith("Not judged yet")
    assert panel.detail.answers[1].toPlainText()  # the generated dialect answer
    assert panel.detail.answers[0].toPlainText()  # and the same run's standard answer
    assert not panel.detail.override_box.isEnabled()
    watcher.close()
