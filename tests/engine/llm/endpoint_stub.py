"""A fault-injecting OpenAI-compatible stub server for endpoint tests (fault injection only).

Answers /v1/completions and /v1/chat/completions with a text derived from the prompt; on a
seeded share of calls it answers 429 with Retry-After, 500, or stalls past the client's
timeout. It records every call so tests can check what completed and how often.
"""

from __future__ import annotations

import hashlib
import json
import random
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def expected_text(prompt: str) -> str:
    return "answer-" + hashlib.sha256(prompt.encode()).hexdigest()[:12]


class StubServer:
    def __init__(
        self,
        *,
        p429=0.0,
        p500=0.0,
        p_timeout=0.0,
        retry_after="1",
        stall_s=2.0,
        seed=0,
        require_auth: str | None = None,
    ):
        self.p429, self.p500, self.p_timeout = p429, p500, p_timeout
        self.retry_after, self.stall_s, self.require_auth = retry_after, stall_s, require_auth
        self.rng, self.lock = random.Random(seed), threading.Lock()
        self.calls: list[tuple[str, int]] = []  # (prompt, status)
        self.auth_seen: set[str] = set()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                stub.auth_seen.add(self.headers.get("Authorization", ""))
                prompt = body.get("prompt") or json.dumps(body.get("messages"))
                with stub.lock:
                    roll = stub.rng.random()
                if stub.require_auth and self.headers.get("Authorization") != stub.require_auth:
                    return self._send(401, {"error": "bad key"}, prompt)
                if roll < stub.p429:
                    return self._send(
                        429, {"error": "slow down"}, prompt, {"Retry-After": stub.retry_after}
                    )
                if roll < stub.p429 + stub.p500:
                    return self._send(500, {"error": "boom"}, prompt)
                if roll < stub.p429 + stub.p500 + stub.p_timeout:
                    time.sleep(stub.stall_s)
                    return self._send(200, {"choices": [{"text": "late"}]}, prompt, record=-1)
                text = expected_text(prompt)
                choice = (
                    {"message": {"role": "assistant", "content": text}}
                    if "messages" in body
                    else {"text": text}
                )
                self._send(
                    200,
                    {
                        "choices": [{**choice, "finish_reason": "stop"}],
                        "usage": {"prompt_tokens": 3, "completion_tokens": 2},
                    },
                    prompt,
                )

            def _send(self, status, payload, prompt, headers=None, record=None):
                with stub.lock:
                    stub.calls.append((prompt, status if record is None else record))
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def ok_count(self, prompt: str) -> int:
        with self.lock:
            return sum(1 for p, s in self.calls if p == prompt and s == 200)

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
