"""Two `generate` processes on the same run: the second refuses with a clear message while
the first decodes; every item is decoded once (each process used to decode every item)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from app.cli import main
from engine.workspace.store import Workspace
from tests.engine.judging.study_fixture import build_questions
from tests.fault_server import LocalServer, completion, read_body, send_json

REPO = Path(__file__).resolve().parents[2]
CLI = "import sys; from app.cli import main; sys.exit(main(sys.argv[1:]))"


class HeldServer(LocalServer):
    """Holds every completion until released (so the first process is still decoding
    however long the second takes to start); counts the calls."""

    def __init__(self):
        self.calls, self.release = 0, threading.Event()
        super().__init__()

    def respond(self, handler) -> None:
        read_body(handler)
        self.calls += 1
        self.release.wait(120)
        send_json(handler, 200, completion("উত্তর।", finish_reason="stop"))


def test_a_second_process_refuses_while_the_first_decodes(tmp_path):
    server = HeldServer()
    try:
        path = tmp_path / "ws.sqlite"
        with Workspace(path) as ws:
            build_questions(ws)
        assert (
            main(
                [
                    "-w",
                    str(path),
                    "models",
                    "add",
                    server.url,
                    "--api-model",
                    "m",
                    "--name",
                    "ep",
                    "--concurrency",
                    "1",
                ]
            )
            == 0
        )
        argv = [sys.executable, "-c", CLI, "-w", str(path), "generate", "--model", "ep"]
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        first = subprocess.Popen(argv, cwd=REPO, env=env, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with Workspace(path) as ws:
                if ws.scalar("SELECT count(*) FROM runs WHERE lease_owner IS NOT NULL"):
                    break
            time.sleep(0.1)
        second = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, timeout=60)
        server.release.set()
        assert second.returncode == 2, second.stderr
        err = second.stderr.decode()
        assert f"is being decoded by process {first.pid}" in err and "wait for it" in err
        _, first_err = first.communicate(timeout=120)
        assert first.returncode == 0, first_err
        with Workspace(path) as ws:
            assert ws.scalar("SELECT count(*) FROM responses WHERE status = 'done'") == 9
            assert ws.scalar("SELECT lease_owner FROM runs") is None  # released
        assert server.calls == 9  # decoded once
    finally:
        server.release.set()
        server.stop()
