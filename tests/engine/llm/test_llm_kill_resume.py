"""kill -9 at random moments, then restart: every item exactly once, integrity ok."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.workspace.store import Workspace

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[3]
N_ITEMS = 24


def start(ws_path: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.engine.llm.job_child", str(ws_path), str(N_ITEMS)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def done_count(ws_path: Path) -> int:
    ws = Workspace(ws_path)
    try:
        return ws.scalar("SELECT count(*) FROM responses WHERE status = 'done'") or 0
    finally:
        ws.close()


def test_kill_9_resume(tmp_path, embedded_gguf):
    ws_path = tmp_path / "kill.sqlite"
    Workspace(ws_path).close()
    rng = random.Random(20240611)
    kills = 0
    for _ in range(4):
        before = done_count(ws_path)
        proc = start(ws_path)
        # wait until this attempt has written something, then kill at a random moment
        deadline = time.monotonic() + 120
        while done_count(ws_path) == before and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(rng.uniform(0.0, 1.5))
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)  # the job process and its model worker
            kills += 1
        proc.wait(30)
    assert kills >= 2
    proc = start(ws_path)
    out, _ = proc.communicate(timeout=300)
    assert b"complete" in out
    ws = Workspace(ws_path)
    try:
        assert ws.integrity_ok()
        rows = ws.query("SELECT item_key, status, count(*) AS n FROM responses GROUP BY item_key")
        assert len(rows) == N_ITEMS
        assert all(r["n"] == 1 and r["status"] == "done" for r in rows)
        assert ws.scalar("SELECT count(*) FROM runs") == 1
    finally:
        ws.close()
