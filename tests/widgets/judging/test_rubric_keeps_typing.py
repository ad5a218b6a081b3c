"""A rubric being edited in the Judge panel survives the panel's refresh when a judge run
finishes elsewhere: the judges table follows, the typed description and a criterion statement
still open in its cell editor stay, and the unsaved rubric is the one the panel judges with."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit

from app.main_window import MainWindow
from app.settings import Settings
from engine.judging import store
from engine.judging.run import judge_answers
from engine.workspace.store import Workspace
from tests.engine.judging.study_fixture import build_study
from tests.engine.judging.test_judging_run import VALID, ScriptedBackend, judge_model

WAIT_MS = 8000


def test_a_judge_run_finished_elsewhere_keeps_the_rubric_being_typed(qtbot, workspace, sync_bridge):
    build_study(workspace)
    judge_model(workspace)
    window = MainWindow(Settings(), bridge=sync_bridge, save=lambda s: None)
    qtbot.addWidget(window)
    window.resize(1400, 860)
    window.show()
    assert window.open_workspace(workspace.path)
    window.watcher._timer.setInterval(50)
    window.show_panel("judge")
    judge = window.panels["judge"]
    editor = judge.editor
    assert judge.judges.rowCount() == 0
    description = editor.description.text()
    qtbot.mouseClick(editor.description, Qt.MouseButton.LeftButton)
    QTest.keyClick(editor.description, Qt.Key.Key_End)
    QTest.keyClicks(editor.description, " (draft)")
    # a criterion's statement, its cell editor still open when the refresh comes
    table = editor.criteria
    cell = table.visualRect(table.model().index(0, 3)).center()
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    statement = table.item(0, 3).text()
    QTest.keyClick(table, Qt.Key.Key_F2)
    cell_editor = table.viewport().findChild(QLineEdit)
    assert cell_editor is not None and cell_editor.isVisible()
    QTest.keyClick(cell_editor, Qt.Key.Key_End)
    QTest.keyClicks(cell_editor, " in the dialect")
    assert cell_editor.cursorPosition() == len(statement) + len(" in the dialect")

    one = store.answer_pairs(workspace)[0]["dialect_response_id"]
    with Workspace(workspace.path, create=False) as other:  # another program judges one
        judge_answers(
            other,
            judge_model(other),
            only_response_ids={one},
            backend_factory=lambda ws, run_id: ScriptedBackend(lambda req, n: VALID),
        )
    qtbot.waitUntil(lambda: judge.judges.rowCount() == 1, timeout=WAIT_MS)  # followed
    assert table.viewport().findChild(QLineEdit) is cell_editor  # still open, as typed
    assert cell_editor.isVisible()
    assert cell_editor.text() == statement + " in the dialect"
    assert cell_editor.cursorPosition() == len(cell_editor.text())
    assert editor.description.text() == description + " (draft)"
    QTest.keyClick(cell_editor, Qt.Key.Key_Return)  # the delegate commits it (queued)
    qtbot.waitUntil(lambda: table.item(0, 3).text() != statement, timeout=WAIT_MS)
    data = editor.to_dict()
    assert data["criteria"][0]["statement"] == statement + " in the dialect"
    assert data["description"] == description + " (draft)"
    assert judge.rubric is not None and editor.error == ""
