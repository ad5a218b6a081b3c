"""The structured-output mode of a run: how its JSON schema reaches its endpoint.

A run that asks an endpoint for JSON (a judge's verdict, a constrained task label) records in
its card the mode its endpoint takes (:mod:`engine.llm.endpoints.structured`), found once by a
probe and kept with the endpoint; the backend the run decodes with, online or as batch files,
sends the schema that way (:func:`with_mode`). A mode other than ``json_schema`` is part of the
run key (the request differs, and so may the replies); ``json_schema`` is not, so runs opened
before modes existed keep their keys.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence

from engine.errors import UserError
from engine.llm.endpoints import batch_backends
from engine.llm.endpoints.backend import EndpointBackend
from engine.llm.endpoints.probe import Probe, probe_endpoint
from engine.llm.endpoints.structured import DEFAULT, KEY, PROBE_KEY, checked_mode
from engine.llm.models.registry import update_load_params
from engine.llm.types import Request
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)

CARD_KEY = KEY  # the run card's field


def constrains(card: dict, requests: Sequence[Request] | None) -> bool:
    """Whether a run sends a JSON schema: its requests carry one, or (requests not given) its
    card names the schema."""
    if requests is not None:
        return any(r.json_schema for r in requests)
    return bool(card.get("schema"))


def _saved(ws: Workspace, model_row: dict) -> dict:
    raw = None
    if model_row.get("id") is not None:
        raw = ws.scalar("SELECT load_params FROM models WHERE id = ?", (model_row["id"],))
    raw = raw if raw is not None else model_row.get("load_params")
    saved = json.loads(raw or "{}") if isinstance(raw, str) else dict(raw or {})
    return saved if isinstance(saved, dict) else {}


def stored_mode(ws: Workspace, model_row: dict) -> str | None:
    """The mode found for the endpoint and kept with it, or None (not probed yet)."""
    mode = _saved(ws, model_row).get(KEY)
    return checked_mode(mode) if mode is not None else None


def stored_probe(ws: Workspace, model_row: dict) -> dict | None:
    """What the last probe of the endpoint found (``Probe.as_dict``), or None."""
    probe = _saved(ws, model_row).get(PROBE_KEY)
    return probe if isinstance(probe, dict) else None


def probe_mode(model_row: dict) -> Probe:
    """Probe the endpoint now; writes nothing. A missing API key is no finding: the step
    says so itself."""
    try:
        backend = EndpointBackend.from_row(model_row, max_retries=0)
    except UserError as exc:
        return Probe(None, reason=str(exc))
    with backend:
        return probe_endpoint(backend)


def keep_probe(ws: Workspace, model_row: dict, probe: Probe) -> None:
    """Keep a finding with the endpoint (a probe without one keeps the endpoint as it was)."""
    if probe.mode is not None and model_row.get("id") is not None:
        update_load_params(ws, model_row["id"], **{KEY: probe.mode, PROBE_KEY: probe.as_dict()})
        log.info("endpoint %s takes structured output as %s", model_row.get("name"), probe.mode)
    else:
        log.warning(
            "endpoint %s: structured output not found (%s); %s is sent",
            model_row.get("name"),
            probe.reason,
            DEFAULT,
        )


def find_mode(ws: Workspace, model_row: dict) -> Probe:
    """Probe the endpoint now and keep a finding with it."""
    probe = probe_mode(model_row)
    keep_probe(ws, model_row, probe)
    return probe


def endpoint_mode(ws: Workspace, model_row: dict, *, may_probe: bool = True) -> str:
    """The endpoint's mode: the one kept with it, else probed now (``may_probe``; never while
    batch results are replayed, which contact no server), else ``json_schema``."""
    mode = stored_mode(ws, model_row)
    if mode is not None:
        return mode
    if may_probe and batch_backends.replaying_runs() is None:
        found = find_mode(ws, model_row).mode
        if found is not None:
            return found
    return DEFAULT


def card_with_mode(
    ws: Workspace,
    model_row: dict,
    card: dict,
    requests: Sequence[Request] | None = None,
    *,
    may_probe: bool = True,
) -> dict:
    """``card`` with the run's mode (:data:`CARD_KEY`) when it asks an endpoint for JSON."""
    if model_row.get("kind") != "endpoint" or not constrains(card, requests):
        return card
    if CARD_KEY in card:
        return card
    return {**card, CARD_KEY: endpoint_mode(ws, model_row, may_probe=may_probe)}


def keyed_card(card: dict) -> dict:
    """The part of a card a run key hashes: the default mode left out (keys stay as before)."""
    if card.get(CARD_KEY) == DEFAULT:
        return {k: v for k, v in card.items() if k != CARD_KEY}
    return card


def run_mode(card: dict) -> str:
    """The mode a run sends schemas in (``json_schema`` for a run that records none: it sends
    no schema, or it was opened before modes existed)."""
    return checked_mode(card.get(CARD_KEY, DEFAULT))


def with_mode(model_row: dict, card: dict) -> dict:
    """``model_row`` whose backend sends schemas in the run's mode (:func:`run_mode`)."""
    if model_row.get("kind") != "endpoint":
        return model_row
    saved = model_row.get("load_params") or "{}"
    saved = json.loads(saved) if isinstance(saved, str) else dict(saved)
    saved[KEY] = run_mode(card)
    return {**model_row, "load_params": json.dumps(saved, sort_keys=True)}
