"""OpenAI-compatible HTTP endpoints (vLLM, llama.cpp server, Ollama, TGI, hosted APIs).

Requests go out ``concurrency`` at a time over a pool of base URLs taken round-robin. A
429/503 waits as long as ``Retry-After`` asks (capped); other failures (5xx, timeouts,
refused connections) back off exponentially with full jitter and move to the next server,
so a pool keeps working when one server dies. An item that still fails after
``max_retries`` comes back as an error result naming the cause, never as an empty answer.

Every request is bounded: a connect timeout, a read timeout for the whole reply and a size
limit. A circuit breaker per server counts faults in a row (timeouts, 5xx, refused
connections, invalid replies; a success resets it): at ``breaker_failures`` the server is
down for the rest of the step, and once every server is down the step's remaining items
fail at once, so a step against a server that never answers ends in minutes whatever its
size. The wire format is :mod:`engine.llm.endpoints.openai_wire`.

The API key is read only from the OS keyring (``keyring_service``) and lives only in the
request headers: it is never stored, logged or put into an error message. It registers
itself with :mod:`engine.text.redact`, so a server that echoes it back (a 401 body quoting the
header) is masked in every error, log line and stored response. Credentials inside an
endpoint URL are refused: they would be stored, logged and shown.
"""

from __future__ import annotations

import inspect
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
from engine.llm.endpoints.limits import (
    DEFAULT_CONNECT_TIMEOUT_S,
    DEFAULT_MAX_RETRIES,
    DEFAULT_READ_TIMEOUT_S,
)
from engine.llm.endpoints.openai_wire import (
    KEYRING_USER,
    backoff_delay,
    normalise_base_url,
    parse_reply,
    request_body,
    retry_after_seconds,
)
from engine.llm.endpoints.structured import DEFAULT as DEFAULT_STRUCTURED_OUTPUT
from engine.llm.endpoints.structured import checked_mode
from engine.llm.types import CancelFn, ModelInfo, ProgressFn, Request, Result
from engine.text.redact import redact, register_secret

log = logging.getLogger(__name__)

RETRY_STATUS = {429, 500, 502, 503, 504}
# Bounds of every request (README states them; ``models add`` and the Models panel set them
# per endpoint, :mod:`engine.llm.endpoints.limits`). A reply is waited for at most connect +
# read timeout; a single item against a server that never answers ends after
# ``BREAKER_FAILURES`` read timeouts plus backoff.
BREAKER_FAILURES = 3
MAX_REPLY_BYTES = 16 * 1024 * 1024


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


class ReplyError(Exception):
    """A request that got no usable reply (the public face of one failed attempt)."""


class _Failure(ReplyError):
    """One failed attempt. ``fault``: a timeout, a 5xx, a refused connection or an invalid
    reply, which the circuit breaker counts (a 429 is the server pacing us, not a fault)."""

    def __init__(
        self,
        message: str,
        retry_after: float | None = None,
        *,
        retryable: bool = True,
        unreachable: bool = False,
        fault: bool = True,
    ):
        super().__init__(message)
        self.retry_after, self.retryable = retry_after, retryable
        self.unreachable, self.fault = unreachable, fault


class EndpointBackend:
    def __init__(
        self,
        base_urls: list[str],
        api_model: str,
        *,
        name: str = "",
        keyring_service: str | None = None,
        concurrency: int = 8,
        connect_timeout_s: float = DEFAULT_CONNECT_TIMEOUT_S,
        read_timeout_s: float = DEFAULT_READ_TIMEOUT_S,
        max_retries: int = DEFAULT_MAX_RETRIES,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 30.0,
        retry_after_max_s: float = 120.0,
        breaker_failures: int = BREAKER_FAILURES,
        max_reply_bytes: int = MAX_REPLY_BYTES,
        seed: int | None = None,
        structured_output: str = DEFAULT_STRUCTURED_OUTPUT,
    ):
        if not base_urls:
            raise UserError(_("endpoint {name!r} has no base URL").format(name=name or api_model))
        self.base_urls = [normalise_base_url(u) for u in base_urls]
        self.api_model, self.name = api_model, name or api_model
        self.concurrency, self.max_retries = max(1, concurrency), max(0, max_retries)
        self.connect_timeout_s, self.read_timeout_s = connect_timeout_s, read_timeout_s
        self.backoff_base_s, self.backoff_max_s = backoff_base_s, backoff_max_s
        self.retry_after_max_s = retry_after_max_s
        self.breaker_failures, self.max_reply_bytes = max(1, breaker_failures), max_reply_bytes
        self._headers = {"Content-Type": "application/json"}
        if keyring_service:
            self._headers["Authorization"] = "Bearer " + read_api_key(keyring_service)
        self._next = itertools.count()
        self._down_until: dict[str, float] = {}  # servers that refused a connection
        self.down_cooldown_s = 10.0
        self._faults_in_a_row: dict[str, int] = {}
        self._broken: dict[str, str] = {}  # server -> its last fault, once the breaker tripped
        self.retries = 0  # attempts repeated so far, for progress
        self._stop = threading.Event()  # cancel or close: no more waiting between attempts
        self._lock = threading.Lock()
        self._rng = random.Random(seed)
        self._client = None
        # how a request's JSON schema is sent (engine.llm.endpoints.structured)
        self.structured_output = checked_mode(structured_output)

    @classmethod
    def from_row(cls, row: dict, **options) -> EndpointBackend:
        saved = json.loads(row.get("load_params") or "{}")
        # other steps keep their own settings beside these (prices, say)
        saved = {k: v for k, v in saved.items() if k in _OPTIONS}
        return cls(
            json.loads(row.get("base_urls") or "[]"),
            row.get("api_model") or "",
            name=row.get("name") or "",
            keyring_service=row.get("keyring_service"),
            **{**saved, **options},
        )

    def info(self) -> ModelInfo:
        # another structured-output mode may give other replies: its own response cache
        mode = self.structured_output
        return ModelInfo(
            model_id=f"endpoint:{self.name}#{self.api_model}"
            + ("" if mode == DEFAULT_STRUCTURED_OUTPUT else f"~{mode}"),
            name=self.name,
            has_chat_template=True,
        )

    def card(self) -> dict:
        return {
            "base_urls": self.base_urls,
            "api_model": self.api_model,
            "concurrency": self.concurrency,
            "structured_output": self.structured_output,
        }

    @property
    def down(self) -> bool:
        """Whether every server of this endpoint tripped its circuit breaker."""
        with self._lock:
            return len(self._broken) == len(self.base_urls)

    # -- one request -----------------------------------------------------------------------
    def _client_(self):
        # lazy: httpx is slow to import
        import httpx

        if self._client is None:
            self._client = httpx.Client(
                timeout=httpx.Timeout(self.read_timeout_s, connect=self.connect_timeout_s),
                headers=self._headers,
                limits=httpx.Limits(max_connections=self.concurrency * 2),
            )
        return self._client

    def _body(self, req: Request) -> tuple[str, dict]:
        return request_body(req, self.api_model, self.structured_output)

    def _pick(self) -> str | None:
        """The next server round-robin, skipping ones that recently refused connections;
        None when every server's breaker tripped."""
        with self._lock:
            alive = [b for b in self.base_urls if b not in self._broken]
            if not alive:
                return None
            now = time.monotonic()
            for _attempt in range(len(alive)):
                base = alive[next(self._next) % len(alive)]
                if self._down_until.get(base, 0.0) <= now:
                    return base
            return base  # all look down: try anyway

    def _record(self, base: str, failure: _Failure | None) -> None:
        """Count a fault toward ``base``'s breaker (a success resets it); at
        ``breaker_failures`` in a row the server is down for the rest of this step."""
        with self._lock:
            if failure is None:
                self._faults_in_a_row[base] = 0
                return
            if not failure.fault:
                return
            count = self._faults_in_a_row[base] = self._faults_in_a_row.get(base, 0) + 1
            if count >= self.breaker_failures and base not in self._broken:
                self._broken[base] = str(failure)
                log.warning(
                    "endpoint %s: %s is down after %d failures in a row (%s)",
                    self.name,
                    base,
                    count,
                    redact(str(failure)),
                )

    def _down_message(self) -> str:
        with self._lock:
            last = "; ".join(self._broken.values())
        return (
            f"down after {self.breaker_failures} failures in a row (the last: {last}); the "
            "step's remaining items were not sent"
        )

    def _attempt(self, base: str, path: str, body: dict) -> dict:
        # lazy: httpx is slow to import
        import httpx

        deadline = time.monotonic() + self.connect_timeout_s + self.read_timeout_s
        try:
            with self._client_().stream("POST", base + path, json=body) as resp:
                if resp.status_code in RETRY_STATUS:
                    wait_s = retry_after_seconds(resp.headers.get("Retry-After"))
                    raise _Failure(
                        f"{base}: HTTP {resp.status_code}",
                        wait_s if resp.status_code in (429, 503) else None,
                        fault=resp.status_code != 429,
                    )
                raw = self._read_reply(base, resp, deadline)
        except httpx.ConnectTimeout:
            raise _Failure(
                f"{base}: no connection within {self.connect_timeout_s:g} s (connect timeout)",
                unreachable=True,
            ) from None
        except httpx.TimeoutException:
            raise _Failure(
                f"{base}: timed out after {self.read_timeout_s:g} s waiting for the reply (read timeout)"
            ) from None
        except httpx.TransportError as exc:
            raise _Failure(
                f"{base}: cannot connect ({type(exc).__name__})",
                unreachable=True,
            ) from None
        if resp.status_code >= 400:
            text = redact(raw[:200].decode("utf-8", "replace"))
            raise _Failure(f"{base}: HTTP {resp.status_code}: {text}", retryable=False, fault=False)
        try:
            return json.loads(raw)
        except ValueError:
            raise _Failure(f"{base}: invalid reply (not JSON)") from None

    def post_once(self, base: str, path: str, body: dict) -> tuple[int, bytes]:
        """One request, no retry, whatever its status: the status and the reply's bytes,
        bounded as every reply is (a probe reads refusals too). Raises ``httpx.HTTPError``
        when no reply came, :class:`ReplyError` for a reply over the bounds."""
        deadline = time.monotonic() + self.connect_timeout_s + self.read_timeout_s
        with self._client_().stream("POST", base + path, json=body) as resp:
            return resp.status_code, self._read_reply(base, resp, deadline)

    def _read_reply(self, base: str, resp, deadline: float) -> bytes:
        """The reply's bytes, bounded in size and in time (a server that trickles a byte at
        a time would never meet the per-read timeout)."""
        chunks, size = [], 0
        for chunk in resp.iter_bytes():
            size += len(chunk)
            if size > self.max_reply_bytes:
                raise _Failure(
                    f"{base}: invalid reply (larger than {self.max_reply_bytes:,} bytes)",
                    retryable=False,
                )
            if time.monotonic() > deadline:
                raise _Failure(
                    f"{base}: timed out after {self.read_timeout_s:g} s waiting for the reply "
                    "(read timeout)"
                )
            chunks.append(chunk)
        return b"".join(chunks)

    def _run_one(self, req: Request) -> Result:
        path, body = self._body(req)
        start, last = time.monotonic(), ""
        for attempt in range(self.max_retries + 1):
            base = self._pick()
            if base is None:
                last = self._down_message()
                break
            try:
                data = self._attempt(base, path, body)
            except _Failure as exc:
                last = str(exc)
                self._record(base, exc)
                if exc.unreachable:
                    with self._lock:
                        self._down_until[base] = time.monotonic() + self.down_cooldown_s
                if not exc.retryable or attempt == self.max_retries or self.down:
                    if self.down:
                        last = self._down_message()
                    break
                with self._lock:
                    jitter = backoff_delay(
                        attempt, self.backoff_base_s, self.backoff_max_s, self._rng
                    )
                    self.retries += 1
                delay = (
                    min(exc.retry_after, self.retry_after_max_s)
                    if exc.retry_after is not None
                    else jitter
                )
                log.info("%s: %s; retry %d in %.2f s", req.key, last, attempt + 1, delay)
                if self._stop.wait(delay):
                    break
                continue
            self._record(base, None)
            return parse_reply(req, data, (time.monotonic() - start) * 1000)
        return Result(
            req.key,
            None,
            finish_reason="error",
            elapsed_ms=(time.monotonic() - start) * 1000,
            error=redact(f"endpoint {self.name}: {last}"),
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
        total, done, shown = len(todo), 0, -1
        pending = iter(todo)
        self._stop.clear()
        with ThreadPoolExecutor(self.concurrency, thread_name_prefix="endpoint") as pool:
            in_flight: set[Future] = set()
            while True:
                if cancelled and cancelled():
                    self._stop.set()  # no more waiting between attempts
                while len(in_flight) < self.concurrency and not self._stop.is_set():
                    req = next(pending, None)
                    if req is None:
                        break
                    in_flight.add(pool.submit(self._run_one, req))
                if not in_flight:
                    return
                # wake every second: a cancel is seen, and retries show while nothing ends
                finished, in_flight = wait(in_flight, timeout=1.0, return_when=FIRST_COMPLETED)
                for fut in finished:
                    done += 1
                    yield fut.result()
                if progress and (finished or self.retries != shown):
                    shown = self.retries
                    progress(done, total, self._progress_note(len(in_flight)))

    def _progress_note(self, in_flight: int) -> str:
        note = _("{n} in flight").format(n=in_flight)
        if self.retries:
            note += ", " + _("{n} retries").format(n=self.retries)
        if self.down:
            note += ", " + _("endpoint down")
        return note

    def close(self) -> None:
        self._stop.set()
        if self._client is not None:
            self._client.close()
            self._client = None

    def __enter__(self) -> EndpointBackend:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# What an endpoint's saved load_params may set: the constructor's tuning keywords.
_OPTIONS = set(inspect.signature(EndpointBackend.__init__).parameters) - {
    "self",
    "base_urls",
    "api_model",
    "name",
    "keyring_service",
}
