"""Run Python's cyclic garbage collector on the GUI thread only.

If the collector runs inside a worker thread (it runs wherever an allocation crosses the
threshold), it may destroy Qt wrappers that belong to the GUI thread, which crashes
PySide6 (seen here: a segfault while a worker imported llama_cpp during shutdown). The
guard disables automatic collection and collects from a GUI-thread timer instead, the
recipe used by several PyQt applications.

A full (generation 2) collection walks every tracked object — with matplotlib, scipy and
a paper-scale study loaded, long enough to be a visible stall. CPython's own
collector therefore runs it only when the objects promoted to the oldest generation since
the last full collection exceed 25 % of those that survived it; the guard keeps that rule
(counting the oldest generation with ``gc.get_objects(2)``, cheap beside a collection) instead of collecting
everything whenever generation 2's counter passes its threshold.
"""

from __future__ import annotations

import gc
import logging

from PySide6.QtCore import QObject, QTimer

log = logging.getLogger(__name__)

INTERVAL_MS = 100  # small, frequent young collections: each one short
LONG_LIVED_GROWTH = 0.25


class GarbageCollector(QObject):
    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS):
        super().__init__(parent)
        self.threshold = gc.get_threshold()
        # objects in generation 2 after the last full collection; those of start-up count as
        # long-lived already (else the first check always ran a full collection)
        self.long_lived = len(gc.get_objects(2))
        self.full_collections = 0
        gc.disable()
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.check)
        self.timer.start()

    def check(self) -> None:
        """Collect the generations whose counts crossed the usual thresholds."""
        counts = gc.get_count()
        if counts[2] > self.threshold[2] and self._long_lived_grew():
            gc.collect(2)
            self.long_lived = len(gc.get_objects(2))
            self.full_collections += 1
        elif counts[1] > self.threshold[1]:
            gc.collect(1)
        elif counts[0] > self.threshold[0]:
            gc.collect(0)

    def _long_lived_grew(self) -> bool:
        """CPython's rule for a full collection (gcmodule.c, long_lived_pending)."""
        return len(gc.get_objects(2)) - self.long_lived > self.long_lived * LONG_LIVED_GROWTH

    def stop(self) -> None:
        self.timer.stop()
        gc.enable()
