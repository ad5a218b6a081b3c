"""A model worker whose parent was killed with SIGKILL stops quietly: no traceback, and
it ends instead of decoding on for nobody."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.workspace.store import Workspace
from tests.engine.llm.test_llm_kill_resume import done_count

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[3]


def test_a_worker_whose_parent_died_ends_without_a_traceback(tmp_path, embedded_gguf):
    ws_path = tmp_path / "orphan.sqlite"
    Workspace(ws_path).close()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.engine.llm.job_child", str(ws_path), "200"],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,  # the worker inherits it: EOF once both are gone
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 180
        while done_count(ws_path) == 0 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert proc.poll() is None, "the job ended before the test could kill it"
        os.kill(proc.pid, signal.SIGKILL)  # the parent only: its worker is orphaned
        start = time.monotonic()
        err = proc.stderr.read().decode(errors="replace")  # until the worker exits too
        assert time.monotonic() - start < 60
        assert "Traceback" not in err and "BrokenPipeError" not in err, err
        assert "Exception ignored" not in err, err
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(30)
