"""The review grid's Order control, driven by keyboard and mouse: the dialect check runs through the bridge and
the flagged drafts come first, each with its one line of explanation."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from engine.workspace.store import Workspace, utcnow
from widgets.translation.review_panel import ReviewPanel

QUESTIONS = [  # (question, chittagong draft): q1 fine, q2 a copy, q3 standard Bengali
    ("তুমি কোথায় যাচ্ছ?", "তুঁই হডে যাইত্তা লাগ্যো?"),
    ("কম্পিউটার কাকে বলে এবং এটি কীভাবে কাজ করে?", "কম্পিউটার কাকে বলে এবং এটি কীভাবে কাজ করে?"),
    ("আজ আবহাওয়া কেমন?", "আমার বড় বোনের আজকে মন ভালো নেই"),
]


@pytest.fixture
def drafts_ws(tmp_path):
    ws = Workspace(tmp_path / "w.sqlite")
    with ws.transaction() as conn:
        conn.execute("INSERT INTO question_sets(name, created_at) VALUES ('s', ?)", (utcnow(),))
        for n, (question, draft) in enumerate(QUESTIONS, start=1):
            conn.execute(
                "INSERT INTO questions(set_id, ext_id, text, text_key) VALUES (1, ?, ?, ?)",
                (f"q{n}", question, f"k{n}"),
            )
            conn.execute(
                "INSERT INTO variants(question_id, dialect, text, provenance, status, "
                "updated_at) VALUES (?, 'chittagong', ?, 'machine', 'draft', ?)",
                (n, draft, utcnow()),
            )
    yield ws
    ws.close()


def _choose(qtbot, combo, text: str) -> None:
    """Step the Order control to ``text`` with the arrow keys, as a keyboard user does."""
    row = combo.findText(text)
    assert row >= 0, text
    combo.setFocus()
    key = Qt.Key.Key_Down if row > combo.currentIndex() else Qt.Key.Key_Up
    for _ in range(abs(row - combo.currentIndex())):
        qtbot.keyClick(combo, key)
    qtbot.waitUntil(lambda: combo.currentIndex() == row, timeout=5000)


def _rows(panel) -> list[str]:
    model = panel.model
    return [
        model.headerData(r, Qt.Orientation.Vertical).split()[0] for r in range(model.rowCount())
    ]


def test_order_by_need_checks_in_the_background_and_puts_flagged_drafts_first(
    qtbot, drafts_ws, sync_bridge
):
    panel = ReviewPanel(drafts_ws, reviewer="রহিম", bridge=sync_bridge)
    qtbot.addWidget(panel)
    panel.resize(1200, 700)
    panel.show()
    assert _rows(panel) == ["q1", "q2", "q3"]
    assert drafts_ws.scalar("SELECT count(*) FROM draft_checks") == 0  # nothing checked yet

    combo = panel.order_box.order
    tip = combo.toolTip()  # the flag's measured figures, in-domain beside other collections
    assert "held-out Vashantor" in tip and "BlanCK" in tip and "Not measured" in tip
    _choose(qtbot, combo, "by need: flagged drafts first")
    qtbot.waitUntil(lambda: _rows(panel)[-1] == "q1", timeout=10000)
    assert set(_rows(panel)[:2]) == {"q2", "q3"}
    assert drafts_ws.scalar("SELECT count(*) FROM draft_checks") == 3
    assert any(t.label == "Dialect check of the drafts" for t in sync_bridge._tasks.values())

    # the draft in view shows its flag, probability and why
    qtbot.mouseClick(
        panel.view.viewport(),
        Qt.MouseButton.LeftButton,
        pos=panel.view.visualRect(panel.model.index(_rows(panel).index("q2"), 0)).center(),
    )
    line = panel.order_box.check_line.text()
    assert line.startswith("⚑ flagged") and "copy: chrF++ 100" in line and "%" in line

    _choose(qtbot, combo, "flagged drafts only")
    qtbot.waitUntil(lambda: len(_rows(panel)) == 2, timeout=10000)
    assert set(_rows(panel)) == {"q2", "q3"}

    _choose(qtbot, combo, "question order")
    qtbot.waitUntil(lambda: _rows(panel) == ["q1", "q2", "q3"], timeout=10000)
