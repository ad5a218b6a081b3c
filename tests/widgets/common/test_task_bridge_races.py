"""The panels' race in the bridge: a job started with ``supersedes=key`` returns the report it
read after its last write; the reads with ``replace=key`` started before it returned are
dropped however late they come back, and a read started after it returned is kept."""

from __future__ import annotations

import threading
import time


def held_read(name: str, started: threading.Event, release: threading.Event) -> str:
    started.set()
    release.wait(30)  # fault injection: a read that comes back late
    return name


def report_of_the_job() -> str:
    return "read after the job's last write"


def test_a_read_started_before_the_job_returned_never_replaces_its_report(qtbot, threaded_bridge):
    shown: list[str] = []
    started, release = threading.Event(), threading.Event()
    try:
        old = threaded_bridge.run(
            held_read,
            args=("read during the job", started, release),
            on_done=shown.append,
            replace="report",
            quiet=True,
        )
        assert started.wait(30)
        job = threaded_bridge.run(report_of_the_job, on_done=shown.append, supersedes="report")
        qtbot.waitUntil(lambda: job.state == "done", timeout=30_000)
        assert shown == ["read after the job's last write"]
        assert old.superseded
    finally:
        release.set()
    qtbot.waitUntil(lambda: not old.running, timeout=30_000)  # it came back, after the job
    assert shown == ["read after the job's last write"] and not threaded_bridge.errors


def test_a_read_started_after_the_job_returned_is_kept(qtbot, threaded_bridge):
    shown: list[str] = []
    job = threaded_bridge.run(report_of_the_job, on_done=shown.append, supersedes="report")
    # the job has returned and its end waits in this thread's queue: no event is processed
    deadline = time.monotonic() + 30
    while job.returned_at is None:
        assert time.monotonic() < deadline, "the job did not return"
        threading.Event().wait(0.001)
    assert job.running
    later = threaded_bridge.run(
        lambda: "read after it", on_done=shown.append, replace="report", quiet=True
    )
    qtbot.waitUntil(lambda: len(shown) == 2, timeout=30_000)
    assert sorted(shown) == ["read after it", "read after the job's last write"]  # both kept
    assert not later.superseded and not threaded_bridge.errors
