"""What an annotator or the adjudicator typed and has not decided survives every refresh of
their panel: a package merged from the File menu (its one change notice), decisions written by
another program, an item decided elsewhere. The lists follow; the typed text, its cursor, the
comment stay, with a note when the item moved underneath."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox

from app.main_window import MainWindow
from app.settings import Settings
from engine.annotation.adjudication import adjudicate
from engine.annotation.sources import PackageQueue, WorkspaceQueue
from engine.annotation.tasks import import_packages_at
from engine.workspace.store import Workspace
from tests.widgets.annotation.test_annotation_panels import (  # noqa: F401 (fixture)
    _import_via_menu,
    field,
)

WAIT_MS = 8000
TYPED = "my gold "  # typed at the start of the text, the cursor after it
COMMENT = "checked with the speaker"


@pytest.fixture
def window(qtbot, sync_bridge, field, monkeypatch):
    """The lab workspace open with Shuvo's decisions in it; Karim's package not merged."""
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: None)
    lab, _karim, _shuvo = field
    with Workspace(lab) as ws:
        queue = WorkspaceQueue(ws)
        for item in queue.queue("Shuvo"):
            queue.record(item["item_id"], "Shuvo", "accept", score=4)
    win = MainWindow(Settings(reviewer_name="Lead"), bridge=sync_bridge, save=lambda s: None)
    qtbot.addWidget(win)
    win.resize(1400, 800)
    win.show()
    assert win.open_workspace(lab)
    return win


def click_row(qtbot, widget, row: int) -> None:
    widget.scrollToItem(widget.item(row))
    rect = widget.visualItemRect(widget.item(row))
    qtbot.mouseClick(widget.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert widget.currentRow() == row


def type_at_start(editor, comment) -> str:
    """Type at the start of the text and into the comment; the text as typed."""
    editor.setFocus()
    QTest.keyClick(editor, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(editor, TYPED)
    QTest.keyClicks(comment, COMMENT)
    assert editor.textCursor().position() == len(TYPED)
    return editor.toPlainText()


def assert_kept(editor, comment, typed: str) -> None:
    assert editor.toPlainText() == typed
    assert editor.textCursor().position() == len(TYPED)
    assert comment.text() == COMMENT


def karim_fills_his_package(field) -> None:
    package = PackageQueue(field[1])
    for item in package.queue("Karim"):
        package.record(item["item_id"], "Karim", "edit", text="কারিমের রূপ", score=2)


def test_a_package_merged_from_the_menu_keeps_the_annotators_typing(
    qtbot, window, field, monkeypatch
):
    karim_fills_his_package(field)
    annotation = window.panels["annotation"]
    window.show_panel("annotation")
    window.watcher.stop()  # no tick in between: the merge's notice does it
    annotation.annotator.setCurrentText("Karim")  # Karim works in the lab too, meanwhile
    assert annotation.progress.value() == 0
    click_row(qtbot, annotation.list, 1)
    item = annotation.current["item_id"]
    typed = type_at_start(annotation.text, annotation.comment)
    _import_via_menu(window, monkeypatch, field[1])
    # the list followed: his merged decisions are his now
    assert annotation.progress.value() == len(annotation.items) > 0
    assert annotation.current["item_id"] == item and annotation.list.currentRow() == 1
    assert_kept(annotation.text, annotation.comment, typed)
    # his stored decision on this very item moved under the typing: it says so
    assert annotation.stored_note.isVisibleTo(annotation)
    assert "changed meanwhile" in annotation.stored_note.text()


def test_own_decisions_are_announced_once_and_not_read_back(qtbot, window, field):
    annotation, adjudication = window.panels["annotation"], window.panels["adjudication"]
    window.show_panel("annotation")
    window.watcher.stop()
    annotation.annotator.setCurrentText("Karim")
    notices = []
    window.watcher.sig_change.connect(notices.append)
    items = annotation.items
    assert not adjudication._dirty
    annotation.text.setFocus()
    QTest.keyClicks(annotation.text, "typed")
    qtbot.mouseClick(annotation.buttons["edit"], Qt.MouseButton.LeftButton)
    (notice,) = notices
    assert notice.origin == "annotation" and notice.topics == {"decisions"}
    assert notice.ids == {items[0]["item_id"]}
    assert annotation.items is items  # updated in place, not read again
    assert adjudication._dirty  # adjudication follows the same notice


def test_adjudication_keeps_the_typed_gold_text_while_the_queue_changes(qtbot, window, field):
    karim_fills_his_package(field)
    import_packages_at(str(field[0]), [str(field[1])])  # the CLI merged it
    adjudication = window.panels["adjudication"]
    window.show_panel("adjudication")
    window.watcher._timer.setInterval(50)
    qtbot.waitUntil(lambda: adjudication.list.count() > 2, timeout=WAIT_MS)
    before = adjudication.list.count()
    click_row(qtbot, adjudication.list, 1)
    item = adjudication.detail["id"]
    typed = type_at_start(adjudication.text, adjudication.comment)
    other_item = adjudication.list.item(0).data(Qt.ItemDataRole.UserRole)
    with Workspace(field[0], create=False) as other:
        # Shuvo changes his mind on another item to agree with Karim: it leaves the queue
        WorkspaceQueue(other).record(other_item, "Shuvo", "edit", text="কারিমের রূপ", score=2)
    qtbot.waitUntil(lambda: adjudication.list.count() == before - 1, timeout=WAIT_MS)
    assert adjudication.detail["id"] == item
    assert adjudication.list.currentItem().data(Qt.ItemDataRole.UserRole) == item
    assert_kept(adjudication.text, adjudication.comment, typed)
    assert not adjudication.stored_note.isVisibleTo(adjudication)
    with Workspace(field[0], create=False) as other:
        # Karim changes his edit of this very item: the typing stays, a note says so
        WorkspaceQueue(other).record(item, "Karim", "edit", text="কারিমের নতুন রূপ", score=2)
    qtbot.waitUntil(lambda: adjudication.stored_note.isVisibleTo(adjudication), timeout=WAIT_MS)
    # the decisions shown are read again
    assert "কারিমের নতুন রূপ" in [d["text"] for d in adjudication.detail["decisions"]]
    assert_kept(adjudication.text, adjudication.comment, typed)
    with Workspace(field[0], create=False) as other:  # another program adjudicates it
        adjudicate(other, item, "Rina", "accept")
    qtbot.waitUntil(lambda: "decided meanwhile" in adjudication.stored_note.text(), timeout=WAIT_MS)
    assert item not in [
        adjudication.list.item(r).data(Qt.ItemDataRole.UserRole)
        for r in range(adjudication.list.count())
    ]
    assert_kept(adjudication.text, adjudication.comment, typed)
    # deciding it saves what was typed, and the panel moves on
    adjudication.adjudicator.setFocus()
    QTest.keyClick(adjudication.adjudicator, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(adjudication.adjudicator, "Lead")
    qtbot.mouseClick(adjudication.buttons["edit"], Qt.MouseButton.LeftButton)
    with Workspace(field[0], create=False) as other:
        text = other.scalar(
            "SELECT v.text FROM variants v JOIN annotation_items i ON i.target_id = v.id "
            "WHERE i.id = ?",
            (item,),
        )
    assert text == typed.strip()
    assert adjudication.detail["id"] != item and not adjudication.unsaved()
    assert not adjudication.stored_note.isVisibleTo(adjudication)
