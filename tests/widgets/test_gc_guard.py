"""Cyclic garbage is collected on the GUI thread, never in a worker."""

from __future__ import annotations

import gc
import threading

from app.gc_guard import GarbageCollector


class Cycle:
    def __init__(self):
        self.me = self


def test_collection_happens_on_the_gui_thread_timer(qapp, qtbot):
    collected_on = []

    def spy(phase, info):
        if phase == "stop" and info["collected"]:
            collected_on.append(threading.current_thread())

    guard = GarbageCollector(interval_ms=10)
    gc.callbacks.append(spy)
    try:
        assert not gc.isenabled()
        for _ in range(guard.threshold[0] + 50):
            Cycle()
        qtbot.waitUntil(lambda: bool(collected_on), timeout=3000)
        assert set(collected_on) == {threading.main_thread()}
    finally:
        gc.callbacks.remove(spy)
        guard.stop()
    assert gc.isenabled()
