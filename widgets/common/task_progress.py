"""The ``progress(done, total, note)`` callable the task bridge hands to worker code: throttled
to the bridge's interval, a new phase (a note that differs in more than its numbers) delivered
at once, and the last value never lost (:meth:`ThrottledProgress.flush` when the task ends).

On the GUI side, :class:`PhaseClock` keeps each task's ETA to its current phase, and
:func:`count_text` words a phase's count with its unit, so the counts of two phases ("109 of
109 sentences" encoded, then "1 of 3 items" drafted) are never read as one."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from typing import Any

from engine.i18n import N_, _, digits, ngettext

# the words of the engine's progress notes (English, as the CLI prints them), shown in the
# interface language; longest first, so a phrase is translated before a word inside it
_PHASE_WORDS = sorted(
    (
        N_("loading the encoder"),
        N_("building the index"),
        N_("retrieving exemplars"),
        N_("sentence scores"),
        N_("correlations"),
        N_("self-check"),
        N_("encoding"),
        N_("index"),
        N_("check"),
        N_("tok/s"),
    ),
    key=len,
    reverse=True,
)
_PHASE = re.compile("|".join(rf"(?<![\w-]){re.escape(w)}(?![\w-])" for w in _PHASE_WORDS))


# a number standing alone ("3/10", "12.5"), not one inside a name ("gemma-3-270m")
_NUMBER = re.compile(r"(?<![\w-])\d[\d.,]*(?![\w-])")


def shown_note(note: str) -> str:
    """An engine progress note as the window shows it: its phase words and numbers in the
    interface language, names as they are (the units of :func:`count_text` are read from
    the English note)."""
    note = _PHASE.sub(lambda m: _(m.group(0)), note)
    return _NUMBER.sub(lambda m: digits(m.group(0)), note)


def _phase_of(note: str) -> str:
    """A note without its numbers: "encoding 3/10" and "encoding 4/10" are one phase."""
    return _NUMBERS.sub("", note)


_NUMBERS = re.compile(r"[\d.,/%]+")

# what a phase counts, read from the engine's notes (a model job's notes are its rate, its
# cache and estimate, or how it ended); a phase not named here is counted without a unit
_UNITS: tuple[tuple[re.Pattern, Callable[[int, int], str]], ...] = (
    (
        re.compile(r"\bencoding\b"),
        lambda done, total: ngettext(
            "{done} of {total} sentence", "{done} of {total} sentences", total
        ),
    ),
    (
        re.compile(r"\bbuilding the index\b|\bself-check\b"),
        lambda done, total: ngettext(
            "{done} of {total} dialect", "{done} of {total} dialects", total
        ),
    ),
    (
        re.compile(r"tok/s|\bcache$|\bestimate:|: (done|stopped)$|\bcalibration\b|exemplars"),
        lambda done, total: ngettext("{done} of {total} item", "{done} of {total} items", total),
    ),
)


def count_text(done: int, total: int, note: str) -> str:
    """A phase's count in words, with what it counts ('' while the phase has no count)."""
    if total <= 0:
        return ""
    shown = {"done": digits(f"{done:,}"), "total": digits(f"{total:,}")}
    for pattern, words in _UNITS:
        if pattern.search(note):
            return words(done, total).format(**shown)
    return _("{done} of {total}").format(**shown)


class PhaseClock:
    """The ETA of a task's current phase, read on the GUI thread.

    A phase starts with its first report when that counts nothing yet, else where the previous
    phase's last report was (the work of the new phase began then), with the count it had then when the total is the same (a resumed job, a model job
    after its cache), else from 0, so two phases' counts never mix. At each count the ETA is
    the phase's pace times what is left; between counts it only runs down, so a phase stuck on
    one item never shows a figure that climbs. None (shown as "estimating") while the phase
    has no count, once its count is complete, or once the run-down reaches 0.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self.phase: tuple[str, int] | None = None
        self.started_at = clock()
        self.done_at_start = 0
        self.last_report_at = self.started_at
        self.last_done = self.last_total = 0
        self.eta_at_count: float | None = None
        self.counted_at = self.started_at

    def observe(self, done: int, total: int, note: str) -> None:
        now = self.clock()
        phase = (_phase_of(note), total)
        if phase != self.phase or done < self.last_done:
            self.phase = phase
            self.started_at = self.last_report_at
            same_count = total == self.last_total and done >= self.last_done
            self.done_at_start = self.last_done if same_count else 0
            if done == self.done_at_start:  # a phase that says so as it begins starts now
                self.started_at = now
            self.eta_at_count = None
        if done != self.last_done or self.eta_at_count is None:
            counted = done - self.done_at_start
            took = now - self.started_at
            if total > done and counted > 0 and took > 0:
                self.eta_at_count = took / counted * (total - done)
            else:
                self.eta_at_count = None
            self.counted_at = now
        self.last_report_at, self.last_done, self.last_total = now, done, total

    def eta(self) -> float | None:
        """Seconds left in the current phase, or None while there is no honest figure."""
        if self.eta_at_count is None:
            return None
        left = self.eta_at_count - (self.clock() - self.counted_at)
        return left if left > 0 else None


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
