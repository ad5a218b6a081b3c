"""The GUI's study actions stop at an incomplete step: the message stays on the status bar
and the next step's panel is not brought forward."""

from __future__ import annotations

from PySide6.QtWidgets import QMainWindow

from app.study_actions import StudyActions


class Window(QMainWindow):
    def __init__(self):
        super().__init__()
        self.workspace = None
        self.panels: dict = {}
        self.shown: list[str] = []
        self.refreshed = 0

    def show_panel(self, name: str) -> None:
        self.shown.append(name)

    def refresh_status(self) -> None:
        self.refreshed += 1


class ReviewPanel:
    def __init__(self):
        self.reloaded = 0

    def reload(self):
        self.reloaded += 1


def test_incomplete_translation_stops_and_says_so(qtbot):
    w = Window()
    qtbot.addWidget(w)
    w.panels["review"] = ReviewPanel()
    actions = StudyActions(w)
    actions.after_translation({"items": 36, "failed": 31, "complete": False})
    assert w.shown == [] and w.panels["review"].reloaded == 0
    message = w.statusBar().currentMessage()
    assert "incomplete" in message and "31" in message and "again" in message
    actions.after_translation({"items": 36, "failed": 0, "complete": True})
    assert w.shown == ["review"] and w.panels["review"].reloaded == 1


def test_incomplete_generation_stops(qtbot):
    w = Window()
    qtbot.addWidget(w)
    actions = StudyActions(w)
    actions.after_generation(
        {"items": 48, "done_before": 0, "done_now": 40, "complete": False, "model": "m"}
    )
    assert "8 item(s)" in w.statusBar().currentMessage()
    assert w.refreshed == 1
