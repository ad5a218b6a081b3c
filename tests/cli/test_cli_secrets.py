"""Secrets never echo: a real HTTP server on 127.0.0.1 that echoes the API key back (in a
401 body and inside its answers) leaves no trace of the key in stored responses, stdout,
stderr, the log, the workspace file or an export; credentials in endpoint URLs are refused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.cli import main
from engine.text.redact import MASK, redact, register_secret, url_credentials
from engine.workspace.store import Workspace
from tests.engine.judging.study_fixture import build_questions
from tests.fault_server import LocalServer, completion, read_body, send_json


class EchoServer(LocalServer):
    """OpenAI-compatible enough: ``reject`` → 401 whose body quotes the Authorization
    header; otherwise a completion whose text quotes it too."""

    def __init__(self):
        self.reject = True
        self.answer = ""  # a fixed answer text instead of the echo
        self.echo_chars: int | None = None  # echo only the key's first N characters
        self.calls = 0
        super().__init__()

    def respond(self, handler) -> None:
        read_body(handler)
        self.calls += 1
        auth = handler.headers.get("Authorization", "")
        if self.echo_chars is not None:  # "Bearer " + the key's first N characters
            auth = auth[: 7 + self.echo_chars]
        if self.reject:
            send_json(handler, 401, {"error": f"invalid credentials: {auth}", "hint": auth[7:]})
            return
        text = self.answer or f"উত্তর। (debug: header was {auth}; key {auth[7:]})"
        reply = completion(text) | {"usage": {"prompt_tokens": 3, "completion_tokens": 5}}
        send_json(handler, 200, reply)


@pytest.fixture
def echo():
    server = EchoServer()
    yield server
    server.stop()


def _run(capsys, argv) -> tuple[int, str]:
    capsys.readouterr()
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_an_echoing_server_never_gets_the_key_stored_shown_logged_or_exported(
    tmp_path, capsys, memory_keyring, echo
):
    canary = "sk-CANARY" + os.urandom(8).hex()
    memory_keyring.set_password("echo-svc", "api-key", canary)
    path = tmp_path / "ws.sqlite"
    with Workspace(path) as ws:
        build_questions(ws)
    w = ["-w", str(path)]
    add = ["models", "add", echo.url, "--api-model", "echo", "--keyring-service", "echo-svc"]
    code, text = _run(capsys, [*w, *add, "--name", "echo"])
    assert code == 0, text

    # 1. the server refuses and quotes the key in its 401 body
    gen = [*w, "generate", "--model", "echo", "--max-tokens", "16"]
    code, text = _run(capsys, [*gen, "--json"])
    assert code == 3 and echo.calls >= 9
    assert canary not in text
    code, text = _run(capsys, ["-v", *gen])
    assert code == 3 and canary not in text and "incomplete" in text
    with Workspace(path) as ws:
        errors = [r["error"] for r in ws.query("SELECT error FROM responses")]
    assert len(errors) == 9 and all("HTTP 401" in e and MASK in e for e in errors)
    assert not any(canary in e or canary[3:] in e for e in errors)

    # 2. the server answers and quotes the key inside the answer text
    echo.reject = False
    code, text = _run(capsys, gen)
    assert code == 0 and canary not in text, text
    with Workspace(path) as ws:
        texts = [r["text"] for r in ws.query("SELECT text FROM responses")]
        cached = [r["text"] for r in ws.query("SELECT text FROM response_cache")]
    assert len(texts) == 9 and all(t.startswith("উত্তর।") and MASK in t for t in texts)
    assert not any(canary in t for t in texts + cached)

    # 3. exports, the log and the workspace file itself
    for fmt in ("csv", "jsonl"):
        out = tmp_path / f"responses.{fmt}"
        code, text = _run(capsys, [*w, "export", "responses", str(out)])
        assert code == 0 and canary not in out.read_text(encoding="utf-8-sig")
    code, text = _run(capsys, [*w, "models", "list", "--json"])
    assert code == 0 and canary not in text
    log_dir = Path(os.environ["UPABHASHA_LOG_DIR"])
    files = [path, Path(str(path) + "-wal"), *log_dir.rglob("*")]
    for f in files:
        if f.is_file():
            assert canary.encode() not in f.read_bytes(), f


@pytest.mark.parametrize(
    "url",
    [
        "http://admin:sk-live-abcdef123456@127.0.0.1:9/v1",
        "https://tok_abcdef123456@api.example.org/v1",
        "https://api.example.org/v1?api_key=abcdef123456",
    ],
)
def test_credentials_in_an_endpoint_url_are_refused_pointing_to_the_keyring(tmp_path, capsys, url):
    path = tmp_path / "ws.sqlite"
    Workspace(path).close()
    code, text = _run(capsys, ["-w", str(path), "models", "add", url, "--api-model", "m"])
    assert code == 2
    assert "contains credentials" in text and "keyring set" in text
    assert "abcdef123456" not in text
    with Workspace(path) as ws:
        assert ws.scalar("SELECT count(*) FROM models") == 0


def test_redact_masks_credential_shapes_and_leaves_text_alone():
    register_secret("opaque-Key-9f8e7d")
    cases = {
        "Authorization: Bearer abc.def-123456": f"Authorization: Bearer {MASK}",
        "authorization=secretvalue1": f"authorization={MASK}",
        "got bearer eyJhbGciOi.x.y back": f"got bearer {MASK} back",
        "key sk-proj-AbC123xyz_987 rejected": f"key sk-{MASK} rejected",
        "http://user:pw123@host:8080/v1": f"http://{MASK}@host:8080/v1",
        '{"api_key": "abcd1234efgh"}': f'{{"api_key": "{MASK}"}}',
        "X-Api-Key=zzzzzzzz&x=1": f"X-Api-Key={MASK}&x=1",
        "echo opaque-Key-9f8e7d!": f"echo {MASK}!",
    }
    for raw, want in cases.items():
        assert redact(raw) == want, raw
    untouched = [
        "কৃত্রিম বুদ্ধিমত্তা হলো যন্ত্রের শেখার ক্ষমতা।",
        "token count 5, max_tokens 64, finish_reason length",
        "http://127.0.0.1:8080/v1/completions: HTTP 500",
        'give every criterion 5 {"confidence": 5}',
        "the password policy requires rotation",
    ]
    for text in untouched:
        assert redact(text) == text
    assert redact(None) is None and redact(5) == 5
    assert url_credentials("http://u:p@h/v1") and not url_credentials("http://h:80/v1")


def test_log_lines_and_tracebacks_are_masked():
    import io
    import logging

    from engine.text.redact import RedactingFilter

    register_secret("log-canary-5a5a5a")
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(message)s"))
    handler.addFilter(RedactingFilter())
    log = logging.getLogger("test.redact")
    log.addHandler(handler)
    try:
        log.warning("server said %s", "bad key log-canary-5a5a5a")
        try:
            raise RuntimeError("401: Bearer log-canary-5a5a5a")
        except RuntimeError:
            log.exception("call failed for http://u:log-canary-5a5a5a@h/v1")
    finally:
        log.removeHandler(handler)
    text = stream.getvalue()
    assert "log-canary" not in text
    assert "server said bad key ***" in text and "RuntimeError: 401: Bearer ***" in text


def test_an_echoed_prefix_of_the_key_is_masked_everywhere(tmp_path, capsys, memory_keyring, echo):
    """A server quoting the first 16 of the key's 29 characters (also URL-encoded and in
    base64): no 8-character piece of the key is stored, shown, logged or exported."""
    import base64
    from urllib.parse import quote

    canary = "sk-" + os.urandom(13).hex()[:26]  # 29 characters
    prefix = canary[:16]
    memory_keyring.set_password("prefix-svc", "api-key", canary)
    echo.echo_chars = 16
    path = tmp_path / "ws.sqlite"
    with Workspace(path) as ws:
        build_questions(ws)
    w = ["-w", str(path)]
    add = ["models", "add", echo.url, "--api-model", "echo", "--keyring-service", "prefix-svc"]
    assert _run(capsys, [*w, *add, "--name", "echo"])[0] == 0
    gen = [*w, "generate", "--model", "echo", "--max-tokens", "16"]
    code, text = _run(capsys, ["-v", *gen])
    assert code == 3 and prefix[3:11] not in text
    echo.reject = False
    echo.answer = (
        f"উত্তর। key {prefix[3:]} url {quote(prefix, safe='')} "
        f"b64 {base64.b64encode(prefix.encode()).decode()}"
    )
    code, text = _run(capsys, ["-v", *gen])
    assert code == 0 and prefix[3:11] not in text
    code, text = _run(capsys, [*w, "models", "inspect", "echo"])
    outputs = [text]
    for fmt in ("csv", "jsonl"):
        out = tmp_path / f"responses.{fmt}"
        assert _run(capsys, [*w, "export", "responses", str(out)])[0] == 0
        outputs.append(out.read_text(encoding="utf-8-sig"))
    with Workspace(path) as ws:
        stored = [str(r) for r in ws.conn.execute("SELECT text, error FROM responses")]
    assert len(stored) == 9 and all(MASK in r for r in stored)
    log_dir = Path(os.environ["UPABHASHA_LOG_DIR"])
    outputs += [f.read_text(errors="replace") for f in log_dir.rglob("*") if f.is_file()]
    pieces = [canary[i : i + 8] for i in range(3, len(canary) - 7)]
    b64 = base64.b64encode(prefix.encode()).decode()[4:16]
    for blob in [
        *outputs,
        *stored,
        (
            path.read_bytes() + Path(str(path) + "-wal").read_bytes()
            if Path(str(path) + "-wal").exists()
            else path.read_bytes()
        ).decode("utf-8", "replace"),
    ]:
        assert not any(p in blob for p in pieces[:6]), blob[:200]
        assert b64 not in blob


def test_no_keyring_message_says_how_to_install_one(tmp_path, capsys, echo):
    import keyring
    from keyring.backends import fail

    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        path = tmp_path / "ws.sqlite"
        with Workspace(path) as ws:
            build_questions(ws)
        w = ["-w", str(path)]
        add = ["models", "add", echo.url, "--api-model", "echo", "--keyring-service", "none"]
        code, text = _run(capsys, [*w, *add, "--name", "echo"])
    finally:
        keyring.set_keyring(previous)
    assert code == 2 and text.count("\n") == 1
    assert "no OS keyring" in text and "pip install keyrings.alt" in text
