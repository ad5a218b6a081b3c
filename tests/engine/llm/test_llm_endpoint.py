"""Endpoint backend: fault matrix on a stub, a pool with one server killed, the real
llama-cpp-python server, and API keys that live only in the OS keyring."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import keyring
import keyring.backend
import pytest

from engine.errors import UserError
from engine.llm.endpoints.backend import (
    EndpointBackend,
    backoff_delay,
    read_api_key,
    retry_after_seconds,
)
from engine.llm.runs.jobs import run_job
from engine.llm.runs.run import open_run
from engine.llm.types import Message, Request, Sampler
from tests.engine.llm.endpoint_stub import StubServer, expected_text

REPO = Path(__file__).resolve().parents[3]


def endpoint_row(ws, name, urls, **extra) -> dict:
    with ws.transaction() as conn:
        conn.execute(
            "INSERT INTO models(name, kind, base_urls, api_model, keyring_service, "
            "load_params, added_at) VALUES (?, 'endpoint', ?, 'stub-model', ?, ?, 'now')",
            (name, json.dumps(urls), extra.pop("keyring_service", None), json.dumps(extra)),
        )
    return ws.query("SELECT * FROM models WHERE name = ?", (name,))[0]


def prompts(n):
    return [
        Request(key=f"e{i:03d}", prompt=f"question {i}", sampler=Sampler(max_tokens=8))
        for i in range(n)
    ]


def test_retry_after_and_backoff():
    import random

    assert retry_after_seconds("3") == 3.0
    assert retry_after_seconds(None) is None and retry_after_seconds("soon") is None
    date = "Wed, 21 Oct 2037 07:28:00 GMT"
    now = retry_after_seconds(date, now=2139722880.0 - 5)  # 5 s before that date
    assert 4.0 <= now <= 6.0
    rng = random.Random(1)
    delays = [backoff_delay(a, 0.5, 4.0, rng) for a in range(10)]
    assert all(0 <= d <= min(4.0, 0.5 * 2**a) for a, d in enumerate(delays))


def test_fault_matrix_every_item_exactly_once(workspace):
    stub = StubServer(p429=0.30, p500=0.05, p_timeout=0.02, retry_after="1", stall_s=1.5, seed=3)
    try:
        row = endpoint_row(
            workspace,
            "stub",
            [stub.url],
            concurrency=8,
            read_timeout_s=0.5,
            breaker_failures=50,  # faults on purpose: this test is about retries
            backoff_base_s=0.05,
            backoff_max_s=0.5,
            max_retries=12,
        )
        run = open_run(workspace, "answer", row, {"template": "faults"})
        from engine.llm.runtime.factory import open_backend

        with open_backend(row) as backend:
            s = run_job(workspace, run, backend, prompts(60), batch_size=7)
        assert s.complete and s.errors == 0, s
        rows = workspace.query(
            "SELECT item_key, text, attempts FROM responses WHERE run_id = ?", (run,)
        )
        assert len(rows) == 60 and all(r["attempts"] == 1 for r in rows)
        assert all(r["text"] == expected_text(f"question {int(r['item_key'][1:])}") for r in rows)
        statuses = [st for _, st in stub.calls]
        assert statuses.count(429) >= 10 and statuses.count(500) >= 1  # faults really happened
    finally:
        stub.stop()


def test_retry_after_is_honoured():
    stub = StubServer(p429=1.0, retry_after="1")
    try:
        with EndpointBackend([stub.url], "m", max_retries=1, backoff_base_s=0.0) as b:
            t = time.monotonic()
            result = list(b.generate(prompts(1)))[0]
            assert time.monotonic() - t >= 0.95
        assert not result.ok and "429" in result.error
    finally:
        stub.stop()


def test_pool_survives_a_killed_server(workspace):
    a, b = StubServer(seed=1), StubServer(seed=2)
    row = endpoint_row(
        workspace,
        "pool",
        [a.url, b.url],
        concurrency=4,
        read_timeout_s=2,
        backoff_base_s=0.05,
        backoff_max_s=0.2,
    )
    run = open_run(workspace, "answer", row, {"template": "pool"})
    from engine.llm.runtime.factory import open_backend

    try:
        with open_backend(row) as backend:
            seen = []

            def progress(done, total, note):
                seen.append(done)
                if done == 10:
                    threading.Thread(target=a.stop).start()

            # slow the servers a little so the kill lands mid-run
            s = run_job(workspace, run, backend, prompts(80), batch_size=5, progress=progress)
        assert s.complete and s.errors == 0
        assert (
            workspace.scalar(
                "SELECT count(*) FROM responses WHERE run_id = ? AND status = 'done'", (run,)
            )
            == 80
        )
        assert len(b.calls) > 40  # the survivor took over
    finally:
        b.stop()


def test_api_key_only_from_keyring_never_stored(workspace, memory_keyring, tmp_path):
    canary = "sk-CANARY-" + os.urandom(6).hex()
    memory_keyring.set_password("upabhasha-test", "api-key", canary)
    stub = StubServer(require_auth=f"Bearer {canary}")
    log_dir = Path(os.environ["UPABHASHA_LOG_DIR"])
    handler = logging.FileHandler(log_dir / "endpoint-canary.log")
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)  # httpx/httpcore debug logs included
    try:
        row = endpoint_row(
            workspace, "keyed", [stub.url], keyring_service="upabhasha-test", backoff_base_s=0.01
        )
        run = open_run(workspace, "answer", row, {"template": "canary"})
        from engine.llm.runtime.factory import open_backend

        with open_backend(row) as backend:
            reqs = prompts(5) + [Request(key="chat", messages=(Message("user", "hi"),))]
            s = run_job(workspace, run, backend, reqs)
        assert s.complete, s
        # a wrong key fails per item, with no key in the message
        memory_keyring.set_password("upabhasha-test", "api-key", canary + "x")
        with open_backend(row, max_retries=0) as backend:
            bad = list(backend.generate(prompts(1)))[0]
        assert not bad.ok and "401" in bad.error and canary not in bad.error
    finally:
        root.removeHandler(handler)
        handler.close()
        root.setLevel(old_level)
        stub.stop()
    assert f"Bearer {canary}" in stub.auth_seen
    files = [workspace.path, Path(str(workspace.path) + "-wal"), *log_dir.rglob("*")]
    assert Path(str(workspace.path) + "-wal").exists()
    for f in files:
        if f.is_file():
            assert canary.encode() not in f.read_bytes(), f


def test_missing_keyring_or_key_is_a_clear_error(memory_keyring):
    with pytest.raises(UserError, match="no API key in the OS keyring"):
        read_api_key("nothing-here")
    from keyring.backends import fail

    keyring.set_keyring(fail.Keyring())
    with pytest.raises(UserError, match="no OS keyring is available"):
        read_api_key("svc")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def real_llama_server(gguf, *extra_args: str):
    """llama-cpp-python's server (``python -m engine.llm.runtime.llama_server``) on 127.0.0.1
    serving ``gguf``; yields its URL once it answers."""
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "engine.llm.runtime.llama_server",
            "--model",
            str(gguf),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--n_ctx",
            "2048",
            *extra_args,
        ],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300  # a loaded machine, or a parallel test worker
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                if httpx.get(url + "/v1/models", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.3)
        else:
            pytest.fail("llama-cpp-python server did not start")
        yield url
    finally:
        proc.terminate()
        proc.wait(20)


@pytest.mark.slow
def test_real_llama_cpp_server(workspace, embedded_gguf):
    with real_llama_server(embedded_gguf) as url:
        row = endpoint_row(workspace, "real", [url + "/v1"], concurrency=2, read_timeout_s=60)
        run = open_run(workspace, "answer", row, {"template": "real"})
        from engine.llm.runtime.factory import open_backend

        reqs = [
            Request(
                key=f"r{i}",
                prompt=f"Question: what is {i} + {i}?\nAnswer:",
                sampler=Sampler(max_tokens=8, stop=("\n",)),
            )
            for i in range(4)
        ]
        with open_backend(row) as backend:
            s = run_job(workspace, run, backend, reqs)
        assert s.complete and s.errors == 0
        rows = workspace.query(
            "SELECT text, completion_tokens FROM responses WHERE run_id = ?", (run,)
        )
        assert all(r["completion_tokens"] and r["completion_tokens"] <= 8 for r in rows)
