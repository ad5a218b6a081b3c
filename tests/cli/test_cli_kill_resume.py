"""The core of bench/kill_resume.py on one command: ``package import`` of two full review
packages (one transaction), ``kill -9``ed twice at seeded moments and rerun until it exits 0,
equals the uninterrupted import row for row (ids and wall-clock columns aside), loses and
duplicates nothing, and the workspace passes ``PRAGMA integrity_check`` after every kill.
The full figures (every command, model workers killed too, concurrency): the bench."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from app.cli import main
from engine.workspace.store import Workspace
from tests.engine.understanding.conftest import insert_pairs

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_package_import_killed_twice_equals_an_uninterrupted_one(tmp_path, shared_data):
    sys.path.insert(0, str(BENCH))
    import kill_resume as kr

    cmd = next(c for c in kr.commands(quick=True) if c.name == "package import")
    base = kr.build_base(tmp_path, quick=True, needs={"annotation"})
    res, _ = kr.measure(cmd, tmp_path, base, kills=2, seed=5)
    assert res["kills"] == 2 and res["integrity_ok"] == "2/2"
    assert res["final_integrity_ok"] == f"{res['rounds']}/{res['rounds']}"
    assert res["errors"] == []
    assert res["compared"] > 14_000 and res["equal"] == res["compared"]
    assert res["lost"] == res["duplicated"] == res["differ"] == res["other_rows_differ"] == 0


@contextlib.contextmanager
def worker_killed_while_loading():
    """SIGKILL the first model worker this process starts, before it has said "ready"."""
    with workers_killed(once=True):
        yield


@contextlib.contextmanager
def workers_killed(when=lambda: True, once=False):
    """SIGKILL every model worker this process starts once ``when()`` holds (``once``: only
    the first), polling every 2 ms."""
    stop = threading.Event()

    def kill() -> None:
        while not stop.is_set():
            ready = None
            for child in multiprocessing.active_children():
                if child.name.startswith("model-worker") and child.pid and child.is_alive():
                    if ready is None:
                        ready = when()
                    if ready:
                        with contextlib.suppress(ProcessLookupError):  # it died meanwhile
                            os.kill(child.pid, signal.SIGKILL)
                        if once:
                            return
            time.sleep(0.002)

    killer = threading.Thread(target=kill)
    killer.start()
    try:
        yield
    finally:
        stop.set()
        killer.join()


@pytest.mark.slow
def test_a_worker_killed_while_loading_is_a_model_that_did_not_load(tmp_path, capsys):
    """Found by the bench: a model worker killed while it loaded the model made run-task and
    replicate exit 2 ("error"), as for a mistyped option, and say nothing of resuming; it is
    a model that did not load: exit 3, the signal named, and the next run finishes."""
    ws = str(tmp_path / "ws.sqlite")
    assert main(["-w", ws, "init"]) == 0
    with Workspace(ws) as w:
        insert_pairs(w)
    argv = ["-w", ws, "run-task", "dialect-to-standard", "--limit", "1", "--max-tokens", "4"]
    with worker_killed_while_loading():
        code = main(argv)
    err = capsys.readouterr().err
    assert code == 3, err
    assert "did not load" in err and "SIGKILL" in err and "run the same command again" in err
    assert main(argv) == 0
    with Workspace(ws) as w:
        assert w.scalar("SELECT count(*) FROM responses WHERE status = 'done'") > 0
        assert not w.scalar("SELECT count(*) FROM responses WHERE status = 'error'")
        run = w.scalar("SELECT max(id) FROM runs")
    capsys.readouterr()
    with worker_killed_while_loading():
        code = main(["-w", ws, "replicate", str(run), "--sample", "1"])
    err = capsys.readouterr().err
    assert code == 3 and "partial replication" in err and "SIGKILL" in err, err
    assert main(["-w", ws, "replicate", str(run), "--sample", "1"]) == 0


@pytest.mark.slow
def test_judge_with_its_worker_killed_while_loading_is_incomplete_not_an_error(tmp_path, capsys):
    """judge runs its own job loop (not engine.llm.runs.model_runs): a judge model that did not
    load is still a step to resume (exit 3), not a mistake in the command (exit 2). The
    answers come from a real server on 127.0.0.1 (Bengali, so the script gate passes them
    to the judge); the judge is the embedded model."""
    from tests.cli.test_cli_secrets import EchoServer
    from tests.engine.judging.study_fixture import build_questions

    ws = str(tmp_path / "ws.sqlite")
    assert main(["-w", ws, "init"]) == 0
    with Workspace(ws) as w:
        build_questions(w)
    server = EchoServer()
    try:
        server.reject = False
        server.answer = "ঢাকা বাংলাদেশের রাজধানী এবং সবচেয়ে বড় শহর।"
        add = ["models", "add", server.url, "--api-model", "echo", "--name", "echo"]
        assert main(["-w", ws, *add]) == 0
        assert main(["-w", ws, "generate", "--model", "echo", "--max-tokens", "8"]) == 0
    finally:
        server.stop()
    capsys.readouterr()
    with worker_killed_while_loading():
        code = main(["-w", ws, "judge"])
    out, err = capsys.readouterr()
    assert code == 3, out + err
    assert "incomplete: judge:" in err and "SIGKILL" in err and "run the same command again" in err
