"""The OpenAI-compatible wire format: endpoint URLs, request bodies, replies and the timing
headers servers send back. No network here (see :mod:`engine.llm.endpoints.backend`)."""

from __future__ import annotations

import email.utils
import ipaddress
import random
import time
import urllib.parse
from typing import Any

from engine.errors import Setting, UserError, setting
from engine.i18n import _
from engine.llm.endpoints.structured import DEFAULT, schema_fields
from engine.llm.types import Request, Result
from engine.text.redact import redact, url_credentials

KEYRING_USER = "api-key"


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0.0, when - (time.time() if now is None else now))


def backoff_delay(attempt: int, base: float, cap: float, rng: random.Random) -> float:
    """Exponential backoff with full jitter (uniform in [0, min(cap, base * 2**attempt)])."""
    return rng.uniform(0.0, min(cap, base * (2**attempt)))


def _bad_url(url: str, why: str) -> UserError:
    return UserError(f"endpoint URL {redact(url)!r} is not a valid URL ({why})")


def _check_host_and_port(url: str) -> None:
    """A URL whose host or port cannot be parsed is refused when it is added, not on first
    use (``http://[::1:bad/v1`` would otherwise be registered)."""
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port  # raises on a port that is not a number in 0-65535
    except ValueError as exc:
        raise _bad_url(url, str(exc)) from None
    host = parts.hostname
    if not host:
        raise _bad_url(url, "no host")
    if "[" in parts.netloc:  # an IPv6 literal must be a valid address
        try:
            ipaddress.IPv6Address(host.split("%")[0])
        except ValueError:
            raise _bad_url(url, f"{host!r} is not an IPv6 address") from None
    elif any(c.isspace() or c in '<>"{}|\\^`' for c in host):
        raise _bad_url(url, f"{host!r} is not a host name")
    if port == 0:
        raise _bad_url(url, "port 0")
    if parts.query or parts.fragment:
        raise _bad_url(url, "a base URL has no query or fragment")


def normalise_base_url(url: str) -> str:
    url = url.strip().rstrip("/")
    if url_credentials(url):
        raise UserError(
            _(
                "endpoint URL {url!r} contains credentials, which would be stored in the "
                "workspace, logged and shown; give the URL without them and keep the API key "
                "in the OS keyring: keyring set SERVICE {user}, then add the endpoint with "
                "{keyring_service}"
            ).format(
                url=redact(url),
                user=KEYRING_USER,
                keyring_service=setting(Setting.KEYRING_SERVICE, "SERVICE"),
            )
        )
    if not url.startswith(("http://", "https://")):
        raise UserError(
            _("endpoint URL {url!r} must start with http:// or https://").format(url=redact(url))
        )
    _check_host_and_port(url)
    return url[:-3] if url.endswith("/v1") else url


def request_body(req: Request, api_model: str, mode: str = DEFAULT) -> tuple[str, dict]:
    """The path and JSON body of ``req`` for a server that serves ``api_model`` and takes a
    JSON schema in structured-output ``mode`` (:mod:`engine.llm.endpoints.structured`)."""
    s = req.sampler
    body: dict = {
        "model": api_model,
        "max_tokens": s.max_tokens,
        "temperature": s.temperature,
        "seed": s.seed,
    }
    if s.top_p < 1.0:
        body["top_p"] = s.top_p
    if s.top_k > 0:
        body["top_k"] = s.top_k
    if s.repeat_penalty != 1.0:
        body["repeat_penalty"] = s.repeat_penalty
    if s.stop:
        body["stop"] = list(s.stop)
    if req.json_schema:
        body.update(schema_fields(req.json_schema, mode))
    if req.prompt is not None:
        return "/v1/completions", {**body, "prompt": req.prompt}
    return "/v1/chat/completions", {
        **body,
        "messages": [{"role": m.role, "content": m.content} for m in req.messages or ()],
    }


def parse_reply(req: Request, data: Any, elapsed_ms: float) -> Result:
    """The Result of a decoded JSON reply; an error Result when it holds no text."""
    try:
        choice = data["choices"][0]
        text = choice["message"]["content"] if req.messages is not None else choice["text"]
    except (KeyError, IndexError, TypeError):
        return Result(
            req.key,
            None,
            finish_reason="error",
            elapsed_ms=elapsed_ms,
            error="invalid reply: no choices[0] text",
        )
    usage = data.get("usage") or {}
    return Result(
        req.key,
        redact(text or ""),
        prompt_tokens=usage.get("prompt_tokens") or 0,
        completion_tokens=usage.get("completion_tokens") or 0,
        finish_reason=choice.get("finish_reason") or "stop",
        elapsed_ms=elapsed_ms,
    )
