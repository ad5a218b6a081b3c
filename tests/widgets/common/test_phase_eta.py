"""The ETA of a job's current phase: none while the phase has no count, a figure that only
runs down while the count stands still, and two phases' counts never mixed (each phase's count
is worded with what it counts). The clock is the test's, so the arithmetic is exact."""

from __future__ import annotations

import pytest

from widgets.common.task_progress import PhaseClock, count_text


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


def test_a_phase_without_a_count_has_no_eta(clock):
    phases = PhaseClock(clock)
    phases.observe(0, 0, "index: loading the encoder")
    for clock.now in (1.0, 10.0, 30.0):
        assert phases.eta() is None
    assert count_text(0, 0, "index: loading the encoder") == ""


def test_the_eta_runs_down_while_the_count_stands_still(clock):
    phases = PhaseClock(clock)
    clock.now = 5.0
    phases.observe(0, 3, "gemma sylhet: cache")
    clock.now = 15.0
    phases.observe(1, 3, "gemma sylhet: 4.0 tok/s")
    assert phases.eta() == pytest.approx(20.0)  # 10 s an item, 2 left
    seen = []
    for clock.now in (16.0, 20.0, 30.0, 34.9):  # stuck on the second item
        seen.append(phases.eta())
    assert seen == sorted(seen, reverse=True) and seen[0] == pytest.approx(19.0)
    clock.now = 35.0
    assert phases.eta() is None  # run down to 0, still stuck: no figure rather than 0:00
    clock.now = 45.0
    phases.observe(2, 3, "gemma sylhet: 3.0 tok/s")
    assert phases.eta() == pytest.approx(20.0)  # a new count: 20 s an item, 1 left


def test_a_new_phase_with_another_count_starts_from_zero(clock):
    phases = PhaseClock(clock)
    phases.observe(0, 0, "index: loading the encoder")
    clock.now = 20.0
    phases.observe(0, 109, "index: encoding")  # the load took 20 s: not the encoding's pace
    clock.now = 21.0
    phases.observe(64, 109, "index: encoding")
    assert phases.eta() == pytest.approx(45 / 64)
    clock.now = 22.0
    phases.observe(109, 109, "index: encoding")
    assert phases.eta() is None  # the phase is done; the next has not counted yet
    assert count_text(109, 109, "index: encoding") == "109 of 109 sentences"
    clock.now = 30.0
    phases.observe(0, 3, "gemma sylhet: cache")
    assert phases.eta() is None and count_text(0, 3, "gemma sylhet: cache") == "0 of 3 items"
    clock.now = 34.0
    phases.observe(1, 3, "gemma sylhet: 5.0 tok/s")
    assert phases.eta() == pytest.approx(8.0)  # 4 s since the phase began, not 34 s / 1
    assert count_text(1, 3, "gemma sylhet: 5.0 tok/s") == "1 of 3 items"


def test_a_model_job_after_its_cache_counts_from_where_the_cache_left_it(clock):
    phases = PhaseClock(clock)
    phases.observe(0, 10, "gemma: cache")
    phases.observe(8, 10, "gemma: cache")  # eight answers from the cache, at once
    clock.now = 6.0
    phases.observe(9, 10, "gemma: 2.0 tok/s")
    assert phases.eta() == pytest.approx(6.0)  # one decoded in 6 s, one left


def test_counts_are_worded_with_their_unit():
    assert count_text(2, 5, "index: building the index") == "2 of 5 dialects"
    assert count_text(1, 1, "index: building the index") == "1 of 1 dialect"
    assert count_text(4, 9, "a phase the table does not name") == "4 of 9"
    assert count_text(1_048_576, 2_097_152, "sha256") == "1,048,576 of 2,097,152"
