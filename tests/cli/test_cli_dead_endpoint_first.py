"""A dead endpoint is found before the expensive work: translate and eval-translation ask the
endpoint once (``GET /models``, bounded by its own timeouts) before they load the encoder and
build the index, and exit 3 naming the endpoint and the cause. Servers on 127.0.0.1 that never
answer or refuse the connection (fault injection, tests/fault_server.py)."""

from __future__ import annotations

import logging
import socket
import threading
import time

import pytest

from app.cli import main
from engine.llm.endpoints.reachable import endpoint_silence
from engine.workspace.store import Workspace
from tests.engine.rag.test_rag_retrieval import SMALL, _insert
from tests.engine.translation.test_translate import _questions
from tests.fault_server import LocalServer, read_body

# generous: the bound the step must keep at any load (the endpoint's timeouts here are 1 + 2 s)
BOUND_S = 300


class SleepingServer(LocalServer):
    """Accepts every connection and answers nothing, GET or POST, until stopped."""

    def __init__(self):
        self.released = threading.Event()
        self.gets = 0
        super().__init__()

    def respond(self, handler) -> None:
        read_body(handler)
        self.released.wait()

    def respond_get(self, handler) -> None:
        self.gets += 1
        self.released.wait()

    def stop(self) -> None:
        self.released.set()
        super().stop()


@pytest.fixture
def sleeping():
    server = SleepingServer()
    yield server
    server.stop()


def _closed_port_url() -> str:
    """A URL on 127.0.0.1 where nothing listens (the connection is refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def _run(capsys, *argv) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def study(tmp_path):
    path = tmp_path / "ws.sqlite"
    with Workspace(path) as ws:
        _insert(ws, SMALL)
        _questions(ws)
    return path


@pytest.mark.parametrize("dead", ["sleeping", "refusing"])
@pytest.mark.parametrize("step", ["translate", "eval-translation"])
def test_a_dead_endpoint_stops_the_step_before_the_encoder_and_index(
    study, sleeping, capsys, caplog, dead, step
):
    url = sleeping.url if dead == "sleeping" else _closed_port_url()
    w = ["-w", str(study)]
    code, _out, err = _run(
        capsys,
        *w,
        *("models", "add", url, "--api-model", "m", "--name", "dead", "--default"),
        *("--connect-timeout", "1", "--read-timeout", "2"),
    )
    assert code == 0, err
    argv = {
        "translate": ["translate", "--questions", "demo", "--dialects", "chittagong"],
        "eval-translation": ["eval-translation", "--dialects", "chittagong"],
    }[step]
    caplog.set_level(logging.INFO)
    start = time.monotonic()
    code, _out, err = _run(capsys, *w, *argv)
    elapsed = time.monotonic() - start
    assert code == 3, err
    (line,) = [x for x in err.splitlines() if x.startswith("upabhasha:")]
    assert "endpoint 'dead' does not answer" in line and "before loading" in line, line
    cause = "no reply within 2 s" if dead == "sleeping" else "cannot connect"
    assert cause in line and url.removesuffix("/v1") in line, line
    # neither the encoder nor the index was touched, and no request was sent
    assert "loaded encoder" not in caplog.text and "built index" not in caplog.text
    assert not list(study.parent.glob("*.index"))
    assert sleeping.gets == (1 if dead == "sleeping" else 0)
    assert elapsed < BOUND_S, elapsed
    with Workspace(study) as ws:
        assert ws.scalar("SELECT count(*) FROM responses") == 0


def test_one_answering_server_of_a_pool_is_enough(sleeping):
    class Answering(LocalServer):
        def respond(self, handler) -> None:  # never asked here
            raise AssertionError("no POST before the step begins")

    answering = Answering()
    try:
        row = {
            "kind": "endpoint",
            "name": "pool",
            "base_urls": f'["{sleeping.url}", "{answering.url}"]',
            "load_params": '{"connect_timeout_s": 1, "read_timeout_s": 600}',
        }
        # returns as soon as the answering server replies (501 to GET), not after 600 s
        assert endpoint_silence(row) is None
        assert endpoint_silence({**row, "kind": "gguf"}) is None
    finally:
        answering.stop()
