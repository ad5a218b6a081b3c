"""Run Python's cyclic garbage collector on the GUI thread only.

If the collector runs inside a worker thread (it runs wherever an allocation crosses the
threshold), it may destroy Qt wrappers that belong to the GUI thread, which crashes
PySide6 (seen here: a segfault while a worker imported llama_cpp during shutdown). The
guard disables automatic collection and collects from a GUI-thread timer instead, the
recipe used by several PyQt applications.
"""

from __future__ import annotations

import gc
import logging

from PySide6.QtCore import QObject, QTimer

log = logging.getLogger(__name__)

INTERVAL_MS = 500


class GarbageCollector(QObject):
    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS):
        super().__init__(parent)
        self.threshold = gc.get_threshold()
        gc.disable()
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.check)
        self.timer.start()

    def check(self) -> None:
        """Collect the generations whose counts crossed the usual thresholds."""
        counts = gc.get_count()
        for generation in (2, 1, 0):
            if counts[generation] > self.threshold[generation]:
                gc.collect(generation)
                return

    def stop(self) -> None:
        self.timer.stop()
        gc.enable()
