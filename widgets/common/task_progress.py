"""The ``progress(done, total, note)`` callable the task bridge hands to worker code: throttled
to the bridge's interval, a new phase (a note that differs in more than its numbers) delivered
at once, and the last value never lost (:meth:`ThrottledProgress.flush` when the task ends)."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from typing import Any


def _phase_of(note: str) -> str:
    """A note without its numbers: "encoding 3/10" and "encoding 4/10" are one phase."""
    return _NUMBERS.sub("", note)


_NUMBERS = re.compile(r"[\d.,/%]+")


class ThrottledProgress:
    """One task's progress reports, sent on with ``emit(task, done, total, note, tokens)``."""

    def __init__(
        self, task: Any, emit: Callable[[Any, int, int, str, Any], None], interval_s: float
    ):
        self.task, self.emit, self.interval_s = task, emit, interval_s
        self.last_emit = 0.0
        self.pending: tuple | None = None
        self.lock = threading.Lock()
        # a job of several runs (one per model) reports each run's tokens from 0: summed here,
        # before throttling, so no run's last count is lost to a dropped report
        self.tokens_reported = self.tokens_before = 0
        self.last_phase: str | None = None

    def __call__(self, done: int, total: int, note: str = "", **metrics) -> None:
        now = time.monotonic()
        tokens = metrics.get("tokens")
        with self.lock:
            if tokens is not None:
                if tokens < self.tokens_reported:
                    self.tokens_before += self.tokens_reported
                self.tokens_reported = tokens
                tokens = self.tokens_before + tokens
            snapshot = (done, total, note, tokens)
            phase = _phase_of(note)
            new_phase = phase != self.last_phase
            self.last_phase = phase
            if not new_phase and done < total and now - self.last_emit < self.interval_s:
                self.pending = snapshot
                return
            self.pending = None
            self.last_emit = now
        self.emit(self.task, *snapshot)

    def flush(self) -> None:
        with self.lock:
            snapshot, self.pending = self.pending, None
        if snapshot is not None:
            self.emit(self.task, *snapshot)
