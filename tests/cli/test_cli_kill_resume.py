"""Kills during real commands (bench/kill_resume.py measures every command)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time

import pytest

from app.cli import main
from engine.workspace.store import Workspace
from tests.engine.understanding.conftest import insert_pairs


@pytest.mark.slow
def test_a_worker_killed_while_loading_is_a_model_that_did_not_load(tmp_path, capsys):
    """Found by the bench: a model worker killed while it loaded the model made run-task exit
    2 ("error"), as for a mistyped option, and said nothing of resuming; it is a model that
    did not load: exit 3, the model and the signal named, and the next run finishes."""
    ws = str(tmp_path / "ws.sqlite")
    assert main(["-w", ws, "init"]) == 0
    with Workspace(ws) as w:
        insert_pairs(w)
    argv = ["-w", ws, "run-task", "dialect-to-standard", "--limit", "1", "--max-tokens", "4"]
    stop = threading.Event()

    def kill_the_loading_worker() -> None:
        while not stop.is_set():
            for child in multiprocessing.active_children():
                if child.name.startswith("model-worker") and child.pid:
                    os.kill(child.pid, signal.SIGKILL)  # before it has said "ready"
                    return
            time.sleep(0.002)

    killer = threading.Thread(target=kill_the_loading_worker)
    killer.start()
    try:
        code = main(argv)
    finally:
        stop.set()
        killer.join()
    err = capsys.readouterr().err
    assert code == 3, err
    assert "did not load" in err and "SIGKILL" in err and "run the same command again" in err
    assert main(argv) == 0
    with Workspace(ws) as w:
        assert w.scalar("SELECT count(*) FROM responses WHERE status = 'done'") > 0
        assert not w.scalar("SELECT count(*) FROM responses WHERE status = 'error'")
