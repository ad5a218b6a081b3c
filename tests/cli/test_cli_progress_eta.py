"""The CLI's progress line times the current phase: the ETA of the drafts is their own pace,
not the whole job's time (the index build's half-minute) over the drafts done so far. The
clock is the test's; the lines are what stderr receives off a terminal."""

from __future__ import annotations

import pytest

from app.cli import context
from app.cli.context import CliContext


@pytest.fixture
def clock(monkeypatch):
    now = {"t": 0.0}
    monkeypatch.setattr(context.time, "monotonic", lambda: now["t"])
    return now


def test_the_eta_is_the_current_phases(tmp_path, clock, capsys):
    progress = CliContext(tmp_path / "ws.sqlite").progress_printer("translate")
    for t, done, total, note in (
        (0.0, 0, 0, "index: loading the encoder"),
        (20.0, 0, 109, "index: encoding"),
        (22.0, 109, 109, "index: encoding"),
        (30.0, 0, 3, "gemma: cache"),
        (31.0, 0, 3, "gemma: 1.0 tok/s"),  # decoding begins
        (35.0, 1, 3, "gemma: 2.0 tok/s"),
        (47.0, 2, 3, "gemma: 2.0 tok/s"),
    ):
        clock["t"] = t
        progress(done, total, note)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "translate: 0/0 index: loading the encoder"
    assert "translate: 109/109 index: encoding" in lines
    # 4 s for the first draft, 8 s for two: the drafts' pace, not 35 s over one draft
    assert "translate: 1/3 ETA 8s gemma: 2.0 tok/s" in lines, lines
    assert lines[-1] == "translate: 2/3 ETA 8s gemma: 2.0 tok/s", lines
