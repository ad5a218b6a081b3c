"""kill -9 in the middle of a suite, then the same suite again: it resumes, decodes only what
no stored reply covers, and its card is the card of a suite never interrupted."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from engine.workspace.store import Workspace
from tests.cli.batch_tools import copy_workspace

from . import planted

REPO = Path(__file__).resolve().parents[3]
PER_DIALECT = 12
PROBES = 2 * PER_DIALECT * 7  # per item: order, retest, 3 neutral changes, 2 wrong answers


def start(ws_path: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.engine.validity.validity_child",
            str(ws_path),
            str(PER_DIALECT),
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def probe_replies(ws_path: Path) -> int:
    with Workspace(ws_path) as ws:
        return ws.scalar(
            "SELECT count(*) FROM responses r JOIN runs ON runs.id = r.run_id "
            "WHERE runs.kind = 'judge_validity' AND r.status = 'done'"
        )


def finish(ws_path: Path) -> dict:
    proc = start(ws_path)
    out, _ = proc.communicate(timeout=300)
    return json.loads(out.decode().strip().splitlines()[-1])


def figures(card: dict) -> list:
    return card["dialects"]


def test_kill_9_mid_suite_then_resume(tmp_path):
    ws_path = tmp_path / "killed.sqlite"
    with Workspace(ws_path) as ws:
        planted.build(ws, 16)
        planted.judge_run(ws, planted.order_blind)
    untouched = tmp_path / "untouched.sqlite"
    copy_workspace(ws_path, untouched)

    proc = start(ws_path)
    deadline = time.monotonic() + 120
    while probe_replies(ws_path) < 8 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the suite ended before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)  # mid-run: some replies stored, no card
    proc.wait(30)
    stored = probe_replies(ws_path)
    assert 0 < stored < PROBES
    with Workspace(ws_path) as ws:
        assert ws.scalar("SELECT count(*) FROM validity_cards") == 0

    resumed = finish(ws_path)
    run = resumed["runs"][0]
    assert run["complete"] and run["items"] == PROBES
    assert run["done_before"] == stored and resumed["asked"] == PROBES - stored
    assert probe_replies(ws_path) == PROBES

    whole = finish(untouched)
    assert whole["asked"] == PROBES
    assert figures(resumed["card"]) == figures(whole["card"])
