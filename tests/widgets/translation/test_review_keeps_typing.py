"""A reviewer's typed, unsaved gold text survives every refresh of the review grid: a
translation job finishing (its one change notice), another reviewer's save, an import. The
rest of the grid follows; the typed text, its cursor and the comment stay."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.main_window import MainWindow
from app.settings import Settings
from engine.samples import study as sample_study
from engine.translation.review import set_variant_text
from engine.workspace.store import Workspace, utcnow
from engine.workspace.variants import add_history, upsert_machine_draft
from tests.widgets.conftest import MACHINE_TEXT
from tests.widgets.keyboard import type_text

WAIT_MS = 8000
TYPED_START = "ভালো "  # typed at the start of the gold text, the cursor after it
COMMENT = "needs a second look"


@pytest.fixture
def window(qtbot, sync_bridge, review_ws):
    win = MainWindow(Settings(reviewer_name="Rina"), bridge=sync_bridge, save=lambda s: None)
    qtbot.addWidget(win)
    win.resize(1400, 800)
    win.show()
    assert win.open_workspace(review_ws.path)
    win.show_panel("review")
    return win


def machine_variant(ws) -> int:
    return ws.scalar("SELECT id FROM variants WHERE provenance = 'machine'")


def type_an_edit(qtbot, window, variant: int) -> None:
    """Click the variant's cell, then type at the start of the gold text and a comment,
    saving nothing."""
    review = window.panels["review"]
    index = review.model.index_of_variant(variant)
    review.view.scrollTo(index)
    cell = review.view.visualRect(index).center()
    qtbot.mouseClick(review.view.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    assert review.current_variant == variant
    editor = review.detail.editor
    editor.setFocus()
    QTest.keyClick(editor, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    type_text(editor, TYPED_START)
    QTest.keyClicks(review.detail.comment, COMMENT)
    assert editor.toPlainText() == TYPED_START + MACHINE_TEXT
    assert editor.textCursor().position() == len(TYPED_START)


def assert_typing_kept(review) -> None:
    editor = review.detail.editor
    assert editor.toPlainText() == TYPED_START + MACHINE_TEXT
    assert editor.textCursor().position() == len(TYPED_START)
    assert review.detail.comment.text() == COMMENT
    assert review.detail.unsaved()


def untranslated_question(ws, dialect: str) -> int:
    return ws.scalar(
        "SELECT q.id FROM questions q WHERE NOT EXISTS (SELECT 1 FROM variants v "
        "WHERE v.question_id = q.id AND v.dialect = ?) ORDER BY q.id LIMIT 1",
        (dialect,),
    )


def test_a_finished_translation_refreshes_the_grid_and_keeps_the_typed_gold_text(
    qtbot, window, review_ws
):
    review = window.panels["review"]
    window.watcher.stop()  # no tick in between: the finished job's notice does it
    variant = machine_variant(review_ws)
    type_an_edit(qtbot, window, variant)
    question = untranslated_question(review_ws, "sylhet")
    notices = []
    window.watcher.sig_change.connect(notices.append)
    # the job's last drafts, stored by the translation's own writer on its own connection
    with Workspace(review_ws.path, create=False) as job, job.transaction() as conn:
        draft = upsert_machine_draft(
            conn,
            question_id=question,
            dialect="sylhet",
            text="নতুন খসড়া",
            exemplar_ids="[]",
            retrieval="{}",
            run_id=1,
            now=utcnow(),
        )
        add_history(
            conn, draft, at=utcnow(), actor="run:1", action="machine-translate",
            old_text=None, new_text="নতুন খসড়া", old_status=None, new_status="draft", comment="",
        )  # fmt: skip
    assert not review.model.index_of_variant(draft).isValid()  # not shown before the notice
    # what the translate dialog's end announces (its sig_finished is connected to this)
    window.study.after_translation({"items": 1, "written": 1, "errors": 0, "complete": True})
    (notice,) = notices
    assert notice.origin == "translate" and "variants" in notice.topics
    index = review.model.index_of_variant(draft)
    assert index.isValid() and "নতুন খসড়া" in review.model.data(index)  # the grid followed
    assert window.tabs.currentWidget() is review
    assert review.current_variant == variant
    assert_typing_kept(review)
    assert not review.detail.stored_note.isVisibleTo(review)  # its own text did not move
    stored = review_ws.scalar("SELECT text FROM variants WHERE id = ?", (variant,))
    assert stored == MACHINE_TEXT  # nothing was saved for the reviewer


def test_another_reviewers_save_of_the_same_variant_keeps_the_typing_and_says_so(
    qtbot, window, review_ws
):
    review = window.panels["review"]
    window.watcher._timer.setInterval(50)
    variant = machine_variant(review_ws)
    type_an_edit(qtbot, window, variant)
    with Workspace(review_ws.path, create=False) as other:
        set_variant_text(other, variant, "অন্যজনের রূপ", actor="Karim")
    qtbot.waitUntil(lambda: review.detail.stored_note.isVisibleTo(review), timeout=WAIT_MS)
    assert_typing_kept(review)
    assert "stored text changed" in review.detail.stored_note.text()
    assert "অন্যজনের রূপ" in review.detail.history.toPlainText()
    index = review.model.index_of_variant(variant)
    assert review.model.data(index) == "অন্যজনের রূপ"  # the grid shows what is stored
    # saving puts the typed text over it, and the note goes
    review.save_action.trigger()
    assert (
        review_ws.scalar("SELECT text FROM variants WHERE id = ?", (variant,))
        == (TYPED_START + MACHINE_TEXT).strip()
    )
    assert not review.detail.stored_note.isVisibleTo(review) and not review.detail.unsaved()


def test_a_question_import_refreshes_the_sets_and_keeps_the_typing(qtbot, window, review_ws):
    review = window.panels["review"]
    window.watcher.stop()
    variant = machine_variant(review_ws)
    type_an_edit(qtbot, window, variant)
    sets = review.set_filter.count()
    with Workspace(review_ws.path, create=False) as other:
        sample_study.add_synthetic_questions(other, 3, ["sylhet"])
    window.study.after_import({"name": sample_study.SYNTHETIC_SET, "inserted": 3})
    assert review.set_filter.count() == sets + 1
    assert_typing_kept(review)


def test_navigating_away_shows_the_next_variant_afresh(qtbot, window, review_ws):
    """Only a refresh keeps what was typed: choosing another cell shows that cell's text."""
    review = window.panels["review"]
    variant = machine_variant(review_ws)
    type_an_edit(qtbot, window, variant)
    review.prev_action.trigger()
    assert review.current_variant not in (None, variant)
    assert review.detail.editor.toPlainText() == review.detail.shown_text
    assert not review.detail.unsaved()
    # the edit was never saved
    assert review_ws.scalar("SELECT text FROM variants WHERE id = ?", (variant,)) == MACHINE_TEXT
    assert review.detail.editor.textCursor().atEnd()  # as a cell is always shown
