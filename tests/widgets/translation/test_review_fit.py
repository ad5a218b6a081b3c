"""The review panel's actions are on screen at 1366×768 without scrolling: they sit below
the scrolled detail, and a click on one decides."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton

from app.main_window import MainWindow
from app.settings import Settings


def test_review_actions_are_visible_in_a_1366x768_window(qtbot, review_ws, sync_bridge):
    # a real retrieval shows eight exemplars, not the fixture's one
    vid = review_ws.scalar("SELECT id FROM variants WHERE provenance = 'machine'")
    record = json.loads(review_ws.scalar("SELECT retrieval FROM variants WHERE id = ?", (vid,)))
    record["exemplars"] = [{**record["exemplars"][0], "rank": r + 1} for r in range(8)]
    with review_ws.transaction() as conn:
        conn.execute(
            "UPDATE variants SET retrieval = ? WHERE id = ?",
            (json.dumps(record, ensure_ascii=False), vid),
        )
    window = MainWindow(Settings(reviewer_name="Rahim"), bridge=sync_bridge, save=lambda s: None)
    qtbot.addWidget(window)
    window.showNormal()
    window.resize(1366, 700)  # 768 less a task bar and the title bar
    window.open_workspace(review_ws.path)
    window.show_panel("review")
    panel = window.panels["review"]
    assert panel.select_variant(vid)
    qtbot.waitUntil(lambda: panel.detail.isVisible(), timeout=5000)
    buttons = [b for b in panel.detail.findChildren(QToolButton) if b.defaultAction() is not None]
    assert len(buttons) >= 4
    for button in buttons:
        # wholly visible: not clipped by a scroll area's viewport nor by the window
        assert button.isVisible(), button.text()
        shown = button.visibleRegion().boundingRect()
        assert shown.size() == button.size(), (button.text(), shown, button.size())
        corner = button.mapTo(window, button.rect().bottomRight())
        assert window.rect().contains(corner), button.text()
    accept = next(b for b in buttons if b.defaultAction() is panel.accept_action)
    qtbot.mouseClick(accept, Qt.MouseButton.LeftButton)
    assert review_ws.scalar("SELECT status FROM variants WHERE id = ?", (vid,)) == "gold"
