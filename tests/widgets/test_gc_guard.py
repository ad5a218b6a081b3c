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


def test_full_collections_wait_for_the_long_lived_objects_to_grow(qapp):
    """Generation 2's counter alone no longer triggers a full collection (a visible
    stall with a large heap): as CPython does, only 25 % more long-lived objects do."""
    guard = GarbageCollector(interval_ms=60_000)
    try:
        gc.collect()
        guard.long_lived = len(gc.get_objects(2))
        for _ in range(guard.threshold[2] + 1):  # many generation 1 collections ...
            gc.collect(1)
        assert gc.get_count()[2] > guard.threshold[2]
        guard.check()
        assert guard.full_collections == 0  # ... but few survivors: no full one
        survivors = [[i] for i in range(guard.long_lived // 3)]  # tracked, long-lived
        gc.collect(1)
        gc.collect(1)  # promoted to generation 2
        for _ in range(guard.threshold[2] + 1):
            gc.collect(0)
            gc.collect(1)
        guard.check()
        assert guard.full_collections == 1
        assert guard.long_lived >= len(survivors)
    finally:
        guard.stop()
