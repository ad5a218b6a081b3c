"""Find which structured-output mode an endpoint honours (:mod:`engine.llm.endpoints.structured`).

Each mode is tried in :data:`~engine.llm.endpoints.structured.MODES` order with one cheap
chat request (a few tokens, greedy) whose schema allows exactly one reply,
``{"probe": "upabhasha"}``. A mode is taken when the reply is that object (or, cut off by
the token limit, its beginning): the server constrained the reply. A server that answers
200 but ignores the field (llama-cpp-python's completions API drops ``response_format``
silently) replies with free text, and one that refuses the field answers an error naming
it; both move on to the next mode. ``text`` is taken when the server answers but honours no
field. An error that names none of the fields (a 401, a 404, a 503 without a word of the
request's format) or no connection at all ends the probe without a finding: nothing is
stored, and the next run that needs a schema probes again.

Only the chat API is probed: every step sends an endpoint chat requests (an endpoint is
registered with the chat API assumed).
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field

from engine.llm.endpoints.backend import EndpointBackend, ReplyError
from engine.llm.endpoints.structured import MODES, TEXT, schema_fields
from engine.text.redact import redact

PROBE_SCHEMA = {
    "type": "object",
    "properties": {"probe": {"enum": ["upabhasha"]}},
    "required": ["probe"],
}
PROBE_REPLY = {"probe": "upabhasha"}
_COMPACT = json.dumps(PROBE_REPLY, separators=(",", ":"))
PROBE_PROMPT = "Say hello."
# the reply is about ten tokens; room for the whitespace a JSON grammar allows
PROBE_MAX_TOKENS = 32
# words of an error that refuses the request's format rather than the request
_FORMAT_WORDS = re.compile(
    r"response_format|json_schema|json_object|grammar|guided|schema|input should be|"
    r"extra (?:fields|inputs)|not permitted|unrecognized|unsupported|not supported",
    re.IGNORECASE,
)

TAKEN, IGNORED, REFUSED = "taken", "ignored", "refused"


@dataclass(frozen=True)
class Probe:
    """What a probe found: ``mode`` (None: no finding), each try ``(mode, outcome)``, why it
    ended without a finding, where and when."""

    mode: str | None
    tried: tuple[tuple[str, str], ...] = ()
    reason: str = ""
    url: str = ""
    at: float = field(default_factory=time.time)

    def as_dict(self) -> dict:
        return {
            "mode": self.mode,
            "tried": [list(t) for t in self.tried],
            "reason": self.reason,
            "url": self.url,
            "at": round(self.at),
        }


def honoured(text: str | None, finish_reason: str | None) -> bool:
    """Whether ``text`` is the one reply the probe schema allows (or, cut off by the token
    limit, its beginning)."""
    if not text:
        return False
    try:
        if json.loads(text) == PROBE_REPLY:
            return True
    except ValueError:
        pass
    compact = re.sub(r"\s", "", text)
    return finish_reason == "length" and len(compact) >= 8 and _COMPACT.startswith(compact)


def probe_body(backend: EndpointBackend, mode: str) -> dict:
    body = {
        "model": backend.api_model,
        "max_tokens": PROBE_MAX_TOKENS,
        "temperature": 0.0,
        "seed": 0,
        "messages": [{"role": "user", "content": PROBE_PROMPT}],
    }
    return {**body, **schema_fields(PROBE_SCHEMA, mode)}


def probe_endpoint(backend: EndpointBackend) -> Probe:
    """Try each mode on the backend's first server (see the module docstring)."""
    # lazy: httpx is slow to import
    import httpx

    base = backend.base_urls[0]
    tried: list[tuple[str, str]] = []
    answered = False  # the server answered 200 to some mode
    for mode in MODES:
        if mode == TEXT and answered:
            tried.append((mode, TAKEN))
            return Probe(mode, tuple(tried), url=base)
        try:
            status, raw = backend.post_once(base, "/v1/chat/completions", probe_body(backend, mode))
        except (httpx.HTTPError, ReplyError) as exc:
            why = str(exc) if isinstance(exc, ReplyError) else f"{base}: {type(exc).__name__}"
            return Probe(None, tuple(tried), why, base)
        text = redact(raw[:300].decode("utf-8", "replace"))
        if status == 200:
            answered = True
            try:
                choice = json.loads(raw)["choices"][0]
                reply, finish = choice["message"]["content"], choice.get("finish_reason")
            except (ValueError, KeyError, IndexError, TypeError):
                return Probe(None, tuple(tried), f"{base}: invalid reply (no choices[0])", base)
            if mode == TEXT or honoured(reply, finish):
                tried.append((mode, TAKEN))
                return Probe(mode, tuple(tried), url=base)
            tried.append((mode, IGNORED))
        elif status in (400, 422, 500, 501) and _FORMAT_WORDS.search(text):
            tried.append((mode, REFUSED))
        else:
            return Probe(None, tuple(tried), f"{base}: HTTP {status}: {text[:200]}", base)
    return Probe(None, tuple(tried), f"{base}: no mode was answered", base)
