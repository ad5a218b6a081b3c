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

from tests.fault_server import LocalServer, read_body, send_json


def expected_text(prompt: str) -> str:
    return "answer-" + hashlib.sha256(prompt.encode()).hexdigest()[:12]


class StubServer(LocalServer):
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
        super().__init__()

    def respond(self, handler) -> None:
        body = json.loads(read_body(handler) or b"{}")
        self.auth_seen.add(handler.headers.get("Authorization", ""))
        prompt = body.get("prompt") or json.dumps(body.get("messages"))
        with self.lock:
            roll = self.rng.random()
        if self.require_auth and handler.headers.get("Authorization") != self.require_auth:
            return self._send(handler, 401, {"error": "bad key"}, prompt)
        if roll < self.p429:
            headers = {"Retry-After": self.retry_after}
            return self._send(handler, 429, {"error": "slow down"}, prompt, headers)
        if roll < self.p429 + self.p500:
            return self._send(handler, 500, {"error": "boom"}, prompt)
        if roll < self.p429 + self.p500 + self.p_timeout:
            time.sleep(self.stall_s)
            return self._send(handler, 200, {"choices": [{"text": "late"}]}, prompt, record=-1)
        text = expected_text(prompt)
        choice = (
            {"message": {"role": "assistant", "content": text}}
            if "messages" in body
            else {"text": text}
        )
        reply = {
            "choices": [{**choice, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 2},
        }
        self._send(handler, 200, reply, prompt)

    def _send(self, handler, status, payload, prompt, headers=None, record=None):
        with self.lock:
            self.calls.append((prompt, status if record is None else record))
        send_json(handler, status, payload, headers)

    def ok_count(self, prompt: str) -> int:
        with self.lock:
            return sum(1 for p, s in self.calls if p == prompt and s == 200)
