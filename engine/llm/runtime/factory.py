"""A backend for a row of the ``models`` table."""

from __future__ import annotations

import json
import logging

from engine.errors import Step, UserError, step
from engine.llm.endpoints.backend import EndpointBackend
from engine.llm.models.gguf_info import checked_model_path
from engine.llm.models.settings import split_options
from engine.llm.runtime.local_backend import LocalGGUFBackend
from engine.llm.types import Backend

log = logging.getLogger(__name__)


def local_options(model_row: dict, **options) -> dict:
    """The model's saved ``load_params`` overridden by call options."""
    saved = model_row.get("load_params") or "{}"
    saved = json.loads(saved) if isinstance(saved, str) else dict(saved)
    return {**saved, **{k: v for k, v in options.items() if v is not None}}


def open_backend(model_row: dict, **options) -> Backend:
    """Open the backend of ``model_row`` (kind 'gguf' or 'endpoint').

    Local options: the fields of :class:`~engine.llm.models.settings.Schedule` and
    :class:`~engine.llm.models.settings.LoadOptions`. Endpoint options: see
    :class:`~engine.llm.endpoints.backend.EndpointBackend`.
    """
    kind = model_row.get("kind")
    if kind == "gguf":
        if not model_row.get("path"):
            raise UserError(f"model {model_row.get('name')!r} has no file path")
        try:  # this model's own file: missing, moved, a folder, unreadable
            checked_model_path(model_row["path"])
        except UserError as exc:
            raise UserError(
                f"model {model_row.get('name')!r}: {exc} (moved or deleted? register it again "
                f"with {step(Step.ADD_MODEL)})"
            ) from None
        schedule, load = split_options(local_options(model_row, **options))
        return LocalGGUFBackend(
            model_row["path"],
            name=model_row.get("name"),
            sha256=model_row.get("sha256"),
            schedule=schedule,
            load=load,
        )
    if kind == "endpoint":
        return EndpointBackend.from_row(model_row, **options)
    raise UserError(f"model {model_row.get('name')!r} has unknown kind {kind!r}")
