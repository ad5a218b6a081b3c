"""The bias panel shows its probe job's progress from the first report and cancels it with
its own button (a read landing meanwhile leaves Run probes off); the panel is ready for the
next run at once."""

from __future__ import annotations

import threading
import time

from PySide6.QtCore import Qt

from engine.bias.sample import build_bias_sample
from engine.workspace.store import Workspace
from widgets.bias.bias_panel import BiasPanel


def test_probe_progress_and_cancel_from_the_panel(qtbot, tmp_path, monkeypatch, threaded_bridge):
    ws = Workspace(build_bias_sample(tmp_path / "bias.sqlite"), create=False)
    started = threading.Event()

    def slow_probes(ws, models, sets, *, progress=None, cancelled=None, **_kw):
        # fault injection: a model that answers slowly, one probe at a time
        for done in range(1, 1000):
            progress(done, 1000, "probing")
            started.set()
            if cancelled():
                raise InterruptedError("probing cancelled")
            time.sleep(0.02)
        return []

    monkeypatch.setattr("engine.bias.request.run_probes", slow_probes)
    try:
        panel = BiasPanel(ws, threaded_bridge)
        qtbot.addWidget(panel)
        panel.show()
        # the models and sets arrive from a background read
        qtbot.waitUntil(lambda: panel.model.currentData() is not None, timeout=30_000)
        qtbot.waitUntil(panel.run_button.isEnabled, timeout=30_000)
        qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(started.is_set, timeout=30_000)
        qtbot.waitUntil(lambda: panel.job.isVisible() and panel.job.bar.value() > 0, timeout=30_000)
        assert panel.job.note.text().startswith("probing")
        assert not panel.run_button.isEnabled()
        with qtbot.waitSignal(panel.sig_refreshed, timeout=30_000):
            panel.refresh()  # a read landing during the run (as the watcher's tick)
        assert not panel.run_button.isEnabled()  # one probe run at a time
        qtbot.mouseClick(panel.job.cancel_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: panel.run_button.isEnabled(), timeout=30_000)
        assert not panel.job.isVisible() and not threaded_bridge.errors
    finally:
        threaded_bridge.shutdown()  # before the workspace closes
        ws.close()
