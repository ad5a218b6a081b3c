"""Ctrl-C (SIGINT, delivered while the step waits for its model's first reply) before a
step stored any result leaves no empty ``open`` run behind, as a model that did not load
leaves none: the step exits 130 and the workspace holds no run of it.

Found by these tests: ``judge`` interrupted in its judging rounds left its empty run open."""

from __future__ import annotations

import json
import os
import signal
import threading

import pytest

from app.cli import main
from engine.judging.rubric import CRITERION_KEYS
from engine.workspace.store import Workspace
from tests.cli.test_cli_model_did_not_load import _run
from tests.cli.test_cli_secrets import EchoServer
from tests.engine.judging.study_fixture import build_questions


class InterruptingServer(EchoServer):
    """The echo server; once ``interrupt`` is set, the next request first sends SIGINT to
    this process (as one Ctrl-C would), so the step is interrupted waiting for the reply."""

    def __init__(self):
        super().__init__()
        self.reject, self.interrupt = False, False
        self.once = threading.Lock()

    def respond(self, handler) -> None:
        with self.once:  # one signal, however many requests are in flight
            if self.interrupt:
                self.interrupt = False
                os.kill(os.getpid(), signal.SIGINT)
        super().respond(handler)


@pytest.fixture
def ctrl_c_reaches_the_step():
    """SIGINT as a terminal's Ctrl-C finds a fresh CLI process: Python's default handler, and
    not blocked in this thread (the server's threads, started after, inherit its mask). Both
    tests once ran the whole step and exited 0 in one pytest worker beside two CPU-bound
    processes, as if the signal never arrived there; what earlier test left the worker so
    was not found, so the precondition is set here, and put back."""
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    blocked = signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])
    yield
    signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    signal.signal(signal.SIGINT, handler)


@pytest.fixture
def server(ctrl_c_reaches_the_step):
    s = InterruptingServer()
    yield s
    s.stop()


@pytest.fixture
def workspace(tmp_path, server, capsys) -> list[str]:
    w = ["-w", str(tmp_path / "ws.sqlite")]
    assert main([*w, "init"]) == 0
    add = ["models", "add", server.url, "--api-model", "echo", "--name", "echo", "--default"]
    code, text = _run(capsys, *w, *add)
    assert code == 0, text
    return w


def _runs(w: list[str]) -> list[dict]:
    with Workspace(w[1]) as ws:
        return ws.query("SELECT id, kind, status FROM runs ORDER BY id")


def test_run_prompts_interrupted_before_its_first_reply_leaves_no_run(
    workspace, server, tmp_path, capsys
):
    w = workspace
    prompts = tmp_path / "prompts.txt"
    prompts.write_text("এক\nদুই\n", encoding="utf-8")
    server.answer, server.interrupt = "এক", True
    code, text = _run(capsys, *w, "run-prompts", str(prompts))
    assert code == 130, text
    assert "interrupted" in text
    assert _runs(w) == []
    # the same command then runs it whole
    code, text = _run(capsys, *w, "run-prompts", str(prompts), "--json")
    assert code == 0, text
    assert json.loads(text)["summary"]["done_now"] == 2


def test_judge_interrupted_before_its_first_verdict_leaves_no_run(workspace, server, capsys):
    w = workspace
    with Workspace(w[1]) as ws:
        build_questions(ws)
    server.answer = "ঢাকা বাংলাদেশের রাজধানী এবং সবচেয়ে বড় শহর।"
    code, text = _run(capsys, *w, "generate", "--max-tokens", "8")
    assert code == 0, text
    answers = _runs(w)
    server.answer = json.dumps(
        {"chain_of_thought_reasoning": "ঠিক।", **dict.fromkeys(CRITERION_KEYS, 4), "confidence": 4},
        ensure_ascii=False,
    )
    server.interrupt = True
    code, text = _run(capsys, *w, "judge")
    assert code == 130, text
    assert _runs(w) == answers  # no empty judge run
    code, text = _run(capsys, *w, "judge", "--json")
    assert code == 0, text
    assert json.loads(text)["judged_now"] == 6
