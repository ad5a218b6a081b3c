"""Models known to a workspace: local GGUF files and OpenAI-compatible endpoints."""

from __future__ import annotations

import json
import logging
from pathlib import Path

from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)


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
    """Add (or refresh) a GGUF model; idempotent on ``name``. Returns the model id."""
    meta = metadata or {}
    with ws.transaction() as conn:
        if is_default:
            conn.execute("UPDATE models SET is_default = 0")
        conn.execute(
            """INSERT INTO models(name, kind, path, sha256, size_bytes, architecture, quantization,
                   parameters, context_length, has_chat_template, family, load_params,
                   is_default, added_at)
               VALUES (?, 'gguf', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT(name) DO UPDATE SET path=excluded.path, sha256=excluded.sha256,
                   size_bytes=excluded.size_bytes, architecture=excluded.architecture,
                   quantization=excluded.quantization, parameters=excluded.parameters,
                   context_length=excluded.context_length,
                   has_chat_template=excluded.has_chat_template, family=excluded.family,
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
                json.dumps(load_params or {}),
                int(is_default),
                utcnow(),
            ),
        )
    return ws.scalar("SELECT id FROM models WHERE name = ?", (name,))


def default_model(ws: Workspace) -> dict | None:
    rows = ws.query("SELECT * FROM models WHERE is_default = 1 LIMIT 1")
    return rows[0] if rows else None


def ensure_embedded_default(ws: Workspace, progress=None) -> int:
    """Register the embedded Gemma 3 270M as the workspace's default model."""
    from engine.llm.embedded_model import EMBEDDED_NAME, embedded_model_path, embedded_sha256

    row = ws.query("SELECT id FROM models WHERE name = ?", (EMBEDDED_NAME,))
    if row:
        return row[0]["id"]
    path = embedded_model_path()
    has_default = ws.scalar("SELECT count(*) FROM models WHERE is_default = 1")
    metadata = {
        "architecture": "gemma3",
        "quantization": "Q4_K_M",
        "family": "gemma",
        "has_chat_template": False,
    }
    try:
        from engine.llm.gguf_info import inspect_gguf  # richer metadata when available

        metadata.update(inspect_gguf(path).as_metadata())
    except ImportError:
        pass
    return register_gguf(
        ws,
        path,
        name=EMBEDDED_NAME,
        sha256=embedded_sha256(),
        size_bytes=path.stat().st_size,
        metadata=metadata,
        is_default=not has_default,
    )


def update_load_params(ws: Workspace, model_id: int, **changes) -> dict:
    """Merge ``changes`` into a model's saved load_params (``None`` removes a key)."""
    with ws.transaction() as conn:
        row = conn.execute("SELECT load_params FROM models WHERE id = ?", (model_id,)).fetchone()
        if row is None:
            from engine.errors import UserError

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
