"""The GUI's study actions stop at an incomplete step: the message stays on the status bar
and the next step's signal (which brings its panel forward) is not sent."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from app.study_actions import StudyActions


def actions_and_record(qtbot, sync_bridge):
    parent = QWidget()
    qtbot.addWidget(parent)
    actions = StudyActions(parent, sync_bridge)
    got: dict[str, list] = {"status": [], "translated": [], "generated": []}
    actions.sig_status_message.connect(lambda text, ms: got["status"].append((text, ms)))
    actions.sig_translated.connect(got["translated"].append)
    actions.sig_generated.connect(got["generated"].append)
    return actions, got


def test_incomplete_translation_stops_and_says_so(qtbot, sync_bridge):
    actions, got = actions_and_record(qtbot, sync_bridge)
    actions.after_translation({"items": 36, "failed": 31, "complete": False})
    assert got["translated"] == []
    (message, ms), *_ = got["status"]
    assert "incomplete" in message and "31" in message and "again" in message
    assert ms == 0  # it stays until the next message
    complete = {"items": 36, "failed": 0, "complete": True}
    actions.after_translation(complete)
    assert got["translated"] == [complete]


def test_incomplete_generation_stops(qtbot, sync_bridge):
    actions, got = actions_and_record(qtbot, sync_bridge)
    actions.after_generation(
        {"items": 48, "done_before": 0, "done_now": 40, "complete": False, "model": "m"}
    )
    assert got["generated"] == []
    assert "8 item(s)" in got["status"][0][0]
