"""Every request and step bounded: servers on 127.0.0.1 that never answer, or answer HTTP
500 (fault injection), end a step within a bound, name the endpoint and the cause, and
progress shows the retries."""

from __future__ import annotations

import json
import shutil
import threading
import time

import pytest

from app.cli import main
from app.cli.llm import ENDPOINT_DEFAULTS
from engine.llm.endpoints import backend as endpoint_backend
from engine.llm.endpoints.backend import EndpointBackend
from engine.llm.types import Request, Sampler
from tests.fault_server import LocalServer, completion, read_body, send_json


class FaultServer(LocalServer):
    """Answers every request after ``stall`` (never, while ``stall`` is None) with HTTP
    ``status``; counts the requests."""

    def __init__(self, status: int = 200, stall: float | None = None):
        self.status, self.stall, self.calls = status, stall, 0
        self.released = threading.Event()
        super().__init__()

    def respond(self, handler) -> None:
        read_body(handler)
        self.calls += 1
        self.released.wait(self.stall)
        send_json(handler, self.status, completion("late"))

    def stop(self) -> None:
        self.released.set()
        super().stop()


@pytest.fixture
def sleeping():
    server = FaultServer(stall=None)
    yield server
    server.stop()


def _prompts(n: int) -> list[Request]:
    return [Request(key=f"p{i}", prompt=f"q {i}", sampler=Sampler(max_tokens=4)) for i in range(n)]


def test_the_cli_states_the_engines_defaults():
    assert ENDPOINT_DEFAULTS == {
        "connect": endpoint_backend.DEFAULT_CONNECT_TIMEOUT_S,
        "read": endpoint_backend.DEFAULT_READ_TIMEOUT_S,
        "retries": endpoint_backend.DEFAULT_MAX_RETRIES,
    }


def test_a_server_that_never_answers_trips_the_breaker_and_the_rest_fail_fast(sleeping):
    notes: list[str] = []
    backend = EndpointBackend(
        [sleeping.url], "m", name="asleep", read_timeout_s=0.5, backoff_base_s=0.01, seed=1
    )
    start = time.monotonic()
    with backend:
        results = list(backend.generate(_prompts(12), progress=lambda d, t, n: notes.append(n)))
    elapsed = time.monotonic() - start
    assert len(results) == 12 and not any(r.ok for r in results)
    assert all(r.error.startswith("endpoint asleep: ") for r in results)
    assert all("down after 3 failures in a row" in r.error for r in results)
    assert all("read timeout" in r.error for r in results)
    # one wave of 8 timed out; the 4 other items were never sent
    assert sleeping.calls <= 8 + 2, sleeping.calls
    assert elapsed < 0.5 * 4 + 3, elapsed
    assert any("endpoint down" in n for n in notes)


def test_one_item_ends_after_the_breaker_and_progress_shows_retries(sleeping):
    notes: list[str] = []
    with EndpointBackend(
        [sleeping.url], "m", name="asleep", read_timeout_s=0.3, backoff_base_s=0.01
    ) as backend:
        (result,) = backend.generate(_prompts(1), progress=lambda d, t, n: notes.append(n))
    assert sleeping.calls == 3 and "down after 3 failures" in result.error
    assert any("2 retries" in n for n in notes), notes


def test_http_500_trips_the_breaker_without_waiting():
    server = FaultServer(status=500, stall=0)
    try:
        with EndpointBackend([server.url], "m", name="broken", backoff_base_s=0.01) as backend:
            results = list(backend.generate(_prompts(18)))
        assert all("HTTP 500" in r.error and "down after" in r.error for r in results)
        assert server.calls <= 8 + 2, server.calls
    finally:
        server.stop()


def test_a_reply_larger_than_the_bound_is_refused():
    server = FaultServer(stall=0)
    try:
        with EndpointBackend([server.url], "m", name="big", max_reply_bytes=10) as backend:
            (result,) = backend.generate(_prompts(1))
        assert "invalid reply (larger than 10 bytes)" in result.error
        assert server.calls == 1  # not retried: the same reply would come again
    finally:
        server.stop()


class TrickleServer(LocalServer):
    """Sends its reply one byte every 50 ms: no single read ever waits long."""

    def __init__(self):
        self.stop_event = threading.Event()
        super().__init__()

    def respond(self, handler) -> None:
        read_body(handler)
        handler.send_response(200)
        handler.send_header("Content-Length", "100000")
        handler.end_headers()
        while not self.stop_event.is_set():
            try:
                handler.wfile.write(b" ")
                handler.wfile.flush()
            except OSError:
                return
            self.stop_event.wait(0.05)

    def stop(self) -> None:
        self.stop_event.set()
        super().stop()


def test_a_reply_that_trickles_is_cut_off_at_the_whole_reply_bound():
    server = TrickleServer()
    try:
        backend = EndpointBackend(
            [server.url], "m", connect_timeout_s=0.5, read_timeout_s=0.5, max_retries=0
        )
        start = time.monotonic()
        with backend:
            (result,) = backend.generate(_prompts(1))
        assert "timed out after 0.5 s" in result.error
        assert time.monotonic() - start < 5
    finally:
        server.stop()


@pytest.fixture
def workspace(tmp_path):
    from engine.samples.workspace import build_sample_workspace

    path = tmp_path / "ws.sqlite"
    shutil.copy(build_sample_workspace(tmp_path / "sample.sqlite"), path)
    return path


def _run(capsys, *argv) -> tuple[int, str, str]:
    capsys.readouterr()
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse refused the command line
        code = exc.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_step_against_a_sleeping_endpoint_exits_3_naming_endpoint_and_cause(
    workspace, sleeping, capsys
):
    w = ["-w", str(workspace)]
    code, out, err = _run(
        capsys,
        *w,
        *("models", "add", sleeping.url, "--api-model", "m", "--name", "asleep"),
        *("--connect-timeout", "1", "--read-timeout", "0.5", "--max-retries", "2", "--json"),
    )
    assert code == 0, err
    code, out, err = _run(
        capsys, *w, "models", "add", sleeping.url, "--api-model", "m", "--read-timeout", "0"
    )
    assert code == 2 and "--read-timeout" in err
    start = time.monotonic()
    code, out, err = _run(
        capsys,
        *w,
        "generate",
        "--model",
        "asleep",
        "--status",
        "reviewed",
        "--dialect",
        "sylhet",
        "--json",
    )
    elapsed = time.monotonic() - start
    assert code == 3, err
    lines = [line for line in err.splitlines() if line.startswith("upabhasha: incomplete")]
    assert len(lines) == 1, err
    assert "asleep: last error: endpoint asleep: " in lines[0], lines[0]
    assert "read timeout" in lines[0] and "down after 3 failures" in lines[0], lines[0]
    (summary,) = json.loads(out)["runs"]
    assert "read timeout" in summary["last_error"]
    assert elapsed < 30, elapsed
