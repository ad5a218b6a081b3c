"""Models known to a workspace: local GGUF files and OpenAI-compatible endpoints.

The one owner of the ``models`` table. The CLI (``upabhasha models …`` and every command that
takes ``--model``/``--judge``), the GUI's model manager and the background tasks all find
and register models here, so a lookup, a default and an upsert behave the same everywhere.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, TypedDict

from engine.errors import Setting, Step, UserError, setting, step
from engine.llm.endpoints.limits import checked_endpoint_limits
from engine.llm.endpoints.openai_wire import normalise_base_url
from engine.llm.models.embedded_model import EMBEDDED_NAME, embedded_model_path, embedded_sha256
from engine.llm.models.gguf_info import inspect_gguf
from engine.text.text_rules import checked_name
from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)

# the columns of ``models`` a GGUF file's metadata fills (gguf_info.GGUFInfo.as_metadata)
METADATA_COLUMNS = (
    "architecture",
    "quantization",
    "parameters",
    "context_length",
    "has_chat_template",
    "family",
)


class ModelRow(TypedDict):
    """A row of the ``models`` table (``kind`` gguf: ``path`` and the file's metadata;
    endpoint: ``base_urls`` and ``api_model``; JSON columns as stored text)."""

    id: int
    name: str
    kind: str
    path: str | None
    sha256: str | None
    size_bytes: int | None
    architecture: str | None
    quantization: str | None
    parameters: int | None
    context_length: int | None
    has_chat_template: int
    family: str
    base_urls: str  # JSON list
    api_model: str | None
    keyring_service: str | None
    load_params: str  # JSON object
    is_default: int
    added_at: str


def find_model(
    ws: Workspace, name_or_id: str | int | None = None, *, embedded_fallback: bool = False
) -> dict:
    """The ``models`` row named ``name_or_id`` (a workspace name, or an id as an int or as
    digits when no model has that name); ``None``: the workspace's default model.

    Without a default model, ``embedded_fallback`` registers the embedded Gemma 3 270M (as
    ``upabhasha init`` does) instead of refusing.
    """
    if name_or_id is None or name_or_id == "":
        row = default_model(ws)
        if row is None and embedded_fallback:
            ensure_embedded_default(ws)
            row = default_model(ws)
        if row is None:
            raise UserError(
                f"no default model: name one with {setting(Setting.MODEL)}/"
                f"{setting(Setting.JUDGE_MODEL)}, or make one the default "
                f"({step(Step.ADD_DEFAULT_MODEL)}; {step(Step.LIST_MODELS)})"
            )
        return row
    if isinstance(name_or_id, int) and not isinstance(name_or_id, bool):
        rows = ws.query("SELECT * FROM models WHERE id = ?", (name_or_id,))
        if not rows:
            raise UserError(f"no model {name_or_id} in this workspace ({step(Step.LIST_MODELS)})")
        return rows[0]
    name = str(name_or_id)
    rows = ws.query("SELECT * FROM models WHERE name = ?", (name,))
    if not rows and name.isdigit():
        rows = ws.query("SELECT * FROM models WHERE id = ?", (int(name),))
    if not rows:
        known = ", ".join(r["name"] for r in ws.query("SELECT name FROM models ORDER BY id"))
        raise UserError(
            f"no model named {name!r} in this workspace (known: {known or 'none'}; "
            f"{step(Step.LIST_MODELS)})"
        )
    return rows[0]


def default_model(ws: Workspace) -> dict | None:
    rows = ws.query("SELECT * FROM models WHERE is_default = 1 ORDER BY id LIMIT 1")
    return rows[0] if rows else None


def all_models(ws: Workspace) -> list[dict]:
    return ws.query("SELECT * FROM models ORDER BY id")


def register_gguf(
    ws: Workspace,
    path: Path,
    *,
    name: str,
    sha256: str,
    size_bytes: int,
    metadata: dict | None = None,
    is_default: bool = False,
    load_params: dict | None = None,
) -> int:
    """Add (or refresh) a GGUF model; idempotent on ``name``. Returns the model id.

    A refresh keeps the saved ``load_params`` unless new ones are given, and a default
    model stays the default."""
    name = _checked_name(name)
    if not sha256:
        raise UserError(f"model {name!r}: a GGUF model needs its sha256")
    meta = metadata or {}
    with ws.transaction() as conn:
        if is_default:
            conn.execute("UPDATE models SET is_default = 0")
        conn.execute(
            """INSERT INTO models(name, kind, path, sha256, size_bytes, architecture, quantization,
                   parameters, context_length, has_chat_template, family, load_params,
                   is_default, added_at)
               VALUES (?, 'gguf', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT(name) DO UPDATE SET kind='gguf', path=excluded.path,
                   sha256=excluded.sha256, size_bytes=excluded.size_bytes,
                   architecture=excluded.architecture, quantization=excluded.quantization,
                   parameters=excluded.parameters, context_length=excluded.context_length,
                   has_chat_template=excluded.has_chat_template, family=excluded.family,
                   load_params=CASE WHEN ? THEN excluded.load_params ELSE models.load_params END,
                   is_default=max(models.is_default, excluded.is_default)""",
            (
                name,
                str(path),
                sha256,
                size_bytes,
                meta.get("architecture"),
                meta.get("quantization"),
                meta.get("parameters"),
                meta.get("context_length"),
                int(bool(meta.get("has_chat_template"))),
                meta.get("family", ""),
                json.dumps(load_params or {}, sort_keys=True),
                int(is_default),
                utcnow(),
                int(load_params is not None),
            ),
        )
    return ws.scalar("SELECT id FROM models WHERE name = ?", (name,))


def register_endpoint(
    ws: Workspace,
    name: str,
    base_urls: list[str],
    api_model: str,
    *,
    keyring_service: str | None = None,
    load_params: dict | None = None,
    is_default: bool = False,
) -> int:
    """Add (or refresh) an OpenAI-compatible endpoint; idempotent on ``name``. URLs are
    normalised (no trailing ``/v1``), the chat API is assumed. ``load_params`` (e.g.
    ``{"concurrency": 8}``) replace the saved ones when given; ``None`` keeps them.
    Returns the model id."""
    name = _checked_name(name)
    checked_endpoint_limits(load_params or {})
    if not api_model or not api_model.strip():
        raise UserError(
            f"an endpoint needs {setting(Setting.API_MODEL)} (the model name the server serves)"
        )
    urls = [normalise_base_url(u) for u in base_urls if u and u.strip()]
    if not urls:
        raise UserError(f"endpoint {name!r} needs at least one base URL")
    with ws.transaction() as conn:
        if is_default:
            conn.execute("UPDATE models SET is_default = 0")
        conn.execute(
            """INSERT INTO models(name, kind, base_urls, api_model, keyring_service,
                   load_params, has_chat_template, is_default, added_at)
               VALUES (?, 'endpoint', ?, ?, ?, ?, 1, ?, ?)
               ON CONFLICT(name) DO UPDATE SET kind = 'endpoint', base_urls = excluded.base_urls,
                   api_model = excluded.api_model, keyring_service = excluded.keyring_service,
                   load_params = CASE WHEN ? THEN excluded.load_params
                                 ELSE models.load_params END,
                   is_default = max(models.is_default, excluded.is_default)""",
            (
                name,
                json.dumps(urls),
                api_model.strip(),
                keyring_service,
                json.dumps(load_params or {}, sort_keys=True),
                int(is_default),
                utcnow(),
                int(load_params is not None),
            ),
        )
    return ws.scalar("SELECT id FROM models WHERE name = ?", (name,))


def _checked_name(name: str) -> str:
    if not (name or "").strip():
        raise UserError("a model needs a name in this workspace")
    return checked_name(name, "model name")


def ensure_embedded_default(ws: Workspace, progress=None) -> int:
    """Register the embedded Gemma 3 270M as the workspace's default model.

    ``progress(done, 3, note)`` names the steps: assembling (or verifying) the file, reading
    its header, registering — so the GUI's dialog moves instead of sitting at 0 %."""

    def step(done: int, note: str) -> None:
        if progress:
            progress(done, 3, note)

    row = ws.query("SELECT id FROM models WHERE name = ?", (EMBEDDED_NAME,))
    if row:
        step(3, "already registered")
        return row[0]["id"]
    step(0, "assembling the model file")
    path = embedded_model_path()
    step(1, "reading the GGUF header")
    has_default = ws.scalar("SELECT count(*) FROM models WHERE is_default = 1")
    metadata = {
        "architecture": "gemma3",
        "quantization": "Q4_K_M",
        "family": "gemma",
        "has_chat_template": False,
    }
    try:  # richer metadata when the gguf package is installed
        metadata.update(inspect_gguf(path).as_metadata())
    except ImportError:
        pass
    step(2, "registering")
    model_id = register_gguf(
        ws,
        path,
        name=EMBEDDED_NAME,
        sha256=embedded_sha256(),
        size_bytes=path.stat().st_size,
        metadata=metadata,
        is_default=not has_default,
    )
    step(3, "done")
    return model_id


def update_load_params(ws: Workspace, model_id: int, **changes) -> dict[str, Any]:
    """Merge ``changes`` into a model's saved load_params (``None`` removes a key)."""
    with ws.transaction() as conn:
        row = conn.execute("SELECT load_params FROM models WHERE id = ?", (model_id,)).fetchone()
        if row is None:
            raise UserError(f"no model with id {model_id}")
        params = json.loads(row[0] or "{}")
        params.update(changes)
        params = {k: v for k, v in params.items() if v is not None}
        conn.execute(
            "UPDATE models SET load_params = ? WHERE id = ?",
            (json.dumps(params, sort_keys=True), model_id),
        )
    log.info("model %s load_params: %s", model_id, params)
    return params
