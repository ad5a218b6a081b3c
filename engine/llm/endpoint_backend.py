"""OpenAI-compatible HTTP endpoints (vLLM, llama.cpp server, Ollama, TGI, hosted APIs).

Requests go out ``concurrency`` at a time over a pool of base URLs taken round-robin. A
429/503 waits as long as ``Retry-After`` asks (capped); other failures (5xx, timeouts,
refused connections) back off exponentially with full jitter and move to the next server,
so a pool keeps working when one server dies. An item that still fails after
``max_retries`` comes back as an error result, never as an empty answer.

The API key is read only from the OS keyring (``keyring_service``) and lives only in the
request headers: it is never stored, logged or put into an error message. It registers
itself with :mod:`engine.text.redact`, so a server that echoes it back (a 401 body quoting the
header) is masked in every error, log line and stored response. Credentials inside an
endpoint URL are refused: they would be stored, logged and shown.
"""

from __future__ import annotations

import email.utils
import itertools
import json
import logging
import random
import threading
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

from engine.errors import UserError
from engine.i18n import _
from engine.llm.types import CancelFn, ModelInfo, ProgressFn, Request, Result
from engine.text.redact import redact, register_secret, url_credentials

log = logging.getLogger(__name__)

KEYRING_USER = "api-key"
RETRY_STATUS = {429, 500, 502, 503, 504}


# What to do without a keyring backend, said the same way by the CLI and the GUI.
HOW_TO_GET_A_KEYRING = (
    "install or unlock a keyring backend: on Linux a Secret Service such as GNOME Keyring "
    "(e.g. 'sudo apt install gnome-keyring') or KWallet, on macOS the Keychain, on Windows "
    "the Credential Locker; or 'pip install keyrings.alt' for a file-based keyring "
    "(less safe), then store the key with 'keyring set SERVICE api-key'"
)


def read_api_key(service: str) -> str:
    """The API key stored in the OS keyring under ``service`` (user ``api-key``)."""
    # lazy: keyring is slow to import (and probes OS back ends)
    import keyring
    from keyring.errors import KeyringError, NoKeyringError

    try:
        key = keyring.get_password(service, KEYRING_USER)
    except NoKeyringError:
        raise UserError(
            f"no OS keyring is available to read the API key (service {service!r}); "
            + HOW_TO_GET_A_KEYRING
        ) from None
    except KeyringError as exc:
        raise UserError(
            _("the OS keyring refused to give the API key for {service!r}: {error}").format(
                service=service, error=type(exc).__name__
            )
        ) from None
    if not key:
        raise UserError(
            _(
                "no API key in the OS keyring for service {service!r} (user {user!r}); store "
                "one with: keyring set {service} {user}"
            ).format(service=service, user=KEYRING_USER)
        )
    register_secret(key)
    return key


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


def normalise_base_url(url: str) -> str:
    url = url.strip().rstrip("/")
    if url_credentials(url):
        raise UserError(
            _(
                "endpoint URL {url!r} contains credentials, which would be stored in the "
                "workspace, logged and shown; give the URL without them and keep the API key "
                "in the OS keyring: keyring set SERVICE {user}, then add the endpoint with "
                "--keyring-service SERVICE"
            ).format(url=redact(url), user=KEYRING_USER)
        )
    if not url.startswith(("http://", "https://")):
        raise UserError(
            _("endpoint URL {url!r} must start with http:// or https://").format(url=redact(url))
        )
    return url[:-3] if url.endswith("/v1") else url


class _Failure(Exception):
    def __init__(
        self,
        message: str,
        retry_after: float | None = None,
        retryable: bool = True,
        unreachable: bool = False,
    ):
        super().__init__(message)
        self.retry_after, self.retryable, self.unreachable = retry_after, retryable, unreachable


class EndpointBackend:
    def __init__(
        self,
        base_urls: list[str],
        api_model: str,
        *,
        name: str = "",
        keyring_service: str | None = None,
        concurrency: int = 8,
        timeout_s: float = 120.0,
        max_retries: int = 8,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 30.0,
        retry_after_max_s: float = 120.0,
        seed: int | None = None,
    ):
        if not base_urls:
            raise UserError(_("endpoint {name!r} has no base URL").format(name=name or api_model))
        self.base_urls = [normalise_base_url(u) for u in base_urls]
        self.api_model, self.name = api_model, name or api_model
        self.concurrency, self.timeout_s, self.max_retries = (
            max(1, concurrency),
            timeout_s,
            max_retries,
        )
        self.backoff_base_s, self.backoff_max_s = backoff_base_s, backoff_max_s
        self.retry_after_max_s = retry_after_max_s
        self._headers = {"Content-Type": "application/json"}
        if keyring_service:
            self._headers["Authorization"] = "Bearer " + read_api_key(keyring_service)
        self._next = itertools.count()
        self._down_until: dict[str, float] = {}  # servers that refused a connection
        self.down_cooldown_s = 10.0
        self._lock = threading.Lock()
        self._rng = random.Random(seed)
        self._client = None

    @classmethod
    def from_row(cls, row: dict, **options) -> EndpointBackend:
        saved = json.loads(row.get("load_params") or "{}")
        return cls(
            json.loads(row.get("base_urls") or "[]"),
            row.get("api_model") or "",
            name=row.get("name") or "",
            keyring_service=row.get("keyring_service"),
            **{**saved, **options},
        )

    def info(self) -> ModelInfo:
        return ModelInfo(
            model_id=f"endpoint:{self.name}#{self.api_model}",
            name=self.name,
            has_chat_template=True,
        )

    def card(self) -> dict:
        return {
            "base_urls": self.base_urls,
            "api_model": self.api_model,
            "concurrency": self.concurrency,
        }

    # -- one request -----------------------------------------------------------------------
    def _client_(self):
        # lazy: httpx is slow to import
        import httpx

        if self._client is None:
            self._client = httpx.Client(
                timeout=self.timeout_s,
                headers=self._headers,
                limits=httpx.Limits(max_connections=self.concurrency * 2),
            )
        return self._client

    def _body(self, req: Request) -> tuple[str, dict]:
        s = req.sampler
        body = {
            "model": self.api_model,
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
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "reply", "schema": req.json_schema},
            }
        if req.prompt is not None:
            return "/v1/completions", {**body, "prompt": req.prompt}
        return "/v1/chat/completions", {
            **body,
            "messages": [{"role": m.role, "content": m.content} for m in req.messages or ()],
        }

    def _pick(self) -> str:
        """The next server round-robin, skipping ones that recently refused connections."""
        with self._lock:
            now = time.monotonic()
            for _attempt in range(len(self.base_urls)):
                base = self.base_urls[next(self._next) % len(self.base_urls)]
                if self._down_until.get(base, 0.0) <= now:
                    return base
            return base  # all look down: try anyway

    def _attempt(self, base: str, path: str, body: dict) -> dict:
        # lazy: httpx is slow to import
        import httpx

        try:
            resp = self._client_().post(base + path, json=body)
        except httpx.TimeoutException:
            raise _Failure(f"{base}: timed out after {self.timeout_s:.0f} s") from None
        except httpx.TransportError as exc:
            raise _Failure(f"{base}: {type(exc).__name__}", unreachable=True) from None
        if resp.status_code in RETRY_STATUS:
            wait_s = retry_after_seconds(resp.headers.get("Retry-After"))
            raise _Failure(
                f"{base}: HTTP {resp.status_code}",
                wait_s if resp.status_code in (429, 503) else None,
            )
        if resp.status_code >= 400:
            body = redact(resp.text)[:200]
            raise _Failure(f"{base}: HTTP {resp.status_code}: {body}", retryable=False)
        try:
            return resp.json()
        except ValueError:
            raise _Failure(f"{base}: the reply is not JSON") from None

    def _run_one(self, req: Request) -> Result:
        path, body = self._body(req)
        start, last = time.monotonic(), ""
        for attempt in range(self.max_retries + 1):
            base = self._pick()
            try:
                data = self._attempt(base, path, body)
            except _Failure as exc:
                last = str(exc)
                if exc.unreachable:
                    with self._lock:
                        self._down_until[base] = time.monotonic() + self.down_cooldown_s
                if not exc.retryable or attempt == self.max_retries:
                    break
                with self._lock:
                    jitter = backoff_delay(
                        attempt, self.backoff_base_s, self.backoff_max_s, self._rng
                    )
                delay = (
                    min(exc.retry_after, self.retry_after_max_s)
                    if exc.retry_after is not None
                    else jitter
                )
                log.info("%s: %s; retry %d in %.2f s", req.key, last, attempt + 1, delay)
                time.sleep(delay)
                continue
            return self._parse(req, data, start)
        return Result(
            req.key,
            None,
            finish_reason="error",
            elapsed_ms=(time.monotonic() - start) * 1000,
            error=redact(f"endpoint {self.name}: {last}"),
        )

    @staticmethod
    def _parse(req: Request, data: dict, start: float) -> Result:
        try:
            choice = data["choices"][0]
            text = choice["message"]["content"] if req.messages is not None else choice["text"]
        except (KeyError, IndexError, TypeError):
            return Result(
                req.key, None, finish_reason="error", error="endpoint reply has no choices[0] text"
            )
        usage = data.get("usage") or {}
        return Result(
            req.key,
            redact(text or ""),
            prompt_tokens=usage.get("prompt_tokens") or 0,
            completion_tokens=usage.get("completion_tokens") or 0,
            finish_reason=choice.get("finish_reason") or "stop",
            elapsed_ms=(time.monotonic() - start) * 1000,
        )

    # -- Backend protocol ------------------------------------------------------------------
    def generate(
        self,
        requests: Iterable[Request],
        *,
        progress: ProgressFn | None = None,
        cancelled: CancelFn | None = None,
    ) -> Iterator[Result]:
        todo = list(requests)
        total, done = len(todo), 0
        pending = iter(todo)
        with ThreadPoolExecutor(self.concurrency, thread_name_prefix="endpoint") as pool:
            in_flight: set[Future] = set()
            while True:
                while len(in_flight) < self.concurrency and not (cancelled and cancelled()):
                    req = next(pending, None)
                    if req is None:
                        break
                    in_flight.add(pool.submit(self._run_one, req))
                if not in_flight:
                    return
                finished, in_flight = wait(in_flight, return_when=FIRST_COMPLETED)
                for fut in finished:
                    done += 1
                    yield fut.result()
                if progress:
                    progress(done, total, f"{len(in_flight)} in flight")

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def __enter__(self) -> EndpointBackend:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
