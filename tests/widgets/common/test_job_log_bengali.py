"""Job log lines on the Bengali screen: the engine's marked templates come through the
catalogue, the level names too, and numbers in Bengali digits; the log file keeps English."""

from __future__ import annotations

import logging

import pytest
from PySide6.QtCore import Qt

from engine.i18n import N_, set_language
from widgets.common.job_monitor import JobMonitor

log = logging.getLogger("engine.llm.runtime.worker")


def load_a_model(progress, cancelled):
    log.info(N_("model worker %d ready for %s"), 4321, "gemma")
    log.info(N_("retrieval index reused"))
    return 1


@pytest.fixture
def bengali():
    assert set_language("bn")
    yield
    set_language("en")


def test_a_jobs_log_reads_in_bengali(qtbot, bengali, sync_bridge, caplog):
    caplog.set_level(logging.INFO)
    monitor = JobMonitor(sync_bridge)
    qtbot.addWidget(monitor)
    monitor.show()
    sync_bridge.run(load_a_model, label="load")
    rect = monitor.view.visualRect(monitor.model.index(0, 0))
    qtbot.mouseClick(monitor.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: "প্রস্তুত" in monitor.log_view.toPlainText(), timeout=5000)
    text = monitor.log_view.toPlainText()
    assert "তথ্য" in text and "INFO" not in text
    assert "মডেল-কর্মী ৪৩২১ প্রস্তুত: gemma" in text
    assert "আগের অনুসন্ধান-সূচি ব্যবহার হয়েছে" in text
    assert not any(ch.isascii() and ch.isdigit() for ch in text)  # the clock too
    # the log file's record is the English template with its numbers
    assert "model worker 4321 ready for gemma" in caplog.text
