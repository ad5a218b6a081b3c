"""Is an endpoint there at all? Asked once, before a step prepares anything expensive.

A step that prepares locally first (translate and eval-translation load an encoder and build
or open a retrieval index, which takes a minute or more) would otherwise learn that its
endpoint is dead only after that work, and then only after its first requests time out. One
``GET {base}/v1/models`` to each of the endpoint's servers, in parallel and bounded by the
endpoint's own connect and read timeouts, says whether any of them answers: any HTTP reply
counts (a 401 without a key, a 404 or 501 of a server without that route all show a server
that answers). A server that refuses the connection or never replies is the dead endpoint
the step would meet, and the step stops before it begins (:class:`StepIncomplete`: nothing
was done, running it again resumes).

No API key is sent: a hosted API's 401 answers the question, and the key stays where it is.
A batch export or import (a recording or replaying backend serves) asks no server.
"""

from __future__ import annotations

import json
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

from engine.errors import StepIncomplete
from engine.i18n import _
from engine.llm.endpoints.batch_backends import serving_factory
from engine.llm.endpoints.limits import DEFAULT_CONNECT_TIMEOUT_S, DEFAULT_READ_TIMEOUT_S
from engine.llm.endpoints.openai_wire import normalise_base_url
from engine.text.redact import redact


def _why_silent(base: str, connect_s: float, read_s: float) -> str | None:
    """Why the server at ``base`` does not answer (None: it answers)."""
    import httpx  # lazy: slow to import

    try:
        with httpx.Client(timeout=httpx.Timeout(read_s, connect=connect_s)) as client:
            client.get(base + "/v1/models")
    except httpx.ConnectTimeout:
        return _("no connection within {s:g} s").format(s=connect_s)
    except httpx.ConnectError as exc:
        return _("cannot connect ({error})").format(error=exc)
    except httpx.TimeoutException:
        return _("no reply within {s:g} s").format(s=read_s)
    except httpx.HTTPError as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def endpoint_silence(model_row: dict) -> str | None:
    """Why none of the endpoint ``model_row``'s servers answers, naming the endpoint and each
    server's cause; None when one answers, for a local model, and while a batch serves."""
    if model_row.get("kind") != "endpoint" or serving_factory() is not None:
        return None
    params = json.loads(model_row.get("load_params") or "{}")
    connect_s = float(params.get("connect_timeout_s", DEFAULT_CONNECT_TIMEOUT_S))
    read_s = float(params.get("read_timeout_s", DEFAULT_READ_TIMEOUT_S))
    bases = [normalise_base_url(u) for u in json.loads(model_row.get("base_urls") or "[]")]
    if not bases:
        return None  # the backend itself refuses an endpoint without a URL
    causes: dict[str, str] = {}
    # not a with-block: its exit would wait for the slowest server after one has answered
    pool = ThreadPoolExecutor(len(bases))
    try:
        pending = {pool.submit(_why_silent, b, connect_s, read_s): b for b in bases}
        while pending:
            done, _rest = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                why = future.result()
                if why is None:  # one server answers: the step may begin
                    return None
                causes[pending.pop(future)] = why
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    servers = "; ".join(f"{base}: {why}" for base, why in causes.items())
    return redact(
        _("endpoint {name!r} does not answer ({servers})").format(
            name=model_row.get("name"), servers=servers
        )
    )


def require_answering(*model_rows: dict | None) -> None:
    """Stop the step before it prepares anything when one of its endpoints does not
    answer (:class:`StepIncomplete`: nothing was done; the same command resumes)."""
    for row in model_rows:
        silence = endpoint_silence(row) if row else None
        if silence is not None:
            raise StepIncomplete(
                _("{silence}; the step stopped before loading its encoder or index").format(
                    silence=silence
                )
            )
