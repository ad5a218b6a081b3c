"""LoRA adapters as models: a base GGUF plus an adapter GGUF (llama.cpp applies it at run
time), registered as a model of its own so base and adapted models compare in one table.

The adapter's path and scale live in the new model's ``load_params``; its sha256 joins the
model identity (run keys, response cache) and the run card records path, scale and sha256
(engine.llm.runs.run). The file is checked before it is registered: a GGUF whose
``general.type`` is ``adapter`` and ``adapter.type`` is ``lora``, for the base model's
architecture.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from engine.errors import UserError
from engine.files.user_files import check_regular_file
from engine.llm.models.gguf_info import read_gguf_header
from engine.llm.models.registry import METADATA_COLUMNS, find_model, register_gguf
from engine.workspace.store import Workspace

_ADAPTER_KEYS = re.compile(r"^(general\.(type|architecture)|adapter\.(type|lora\.alpha))$")


def check_adapter(path: Path, architecture: str | None) -> dict:
    check_regular_file(path, "adapter file")
    header = read_gguf_header(path, _ADAPTER_KEYS)  # GGUFInvalid names the file and why
    meta = header.metadata
    kind, adapter, arch = (
        meta.get("general.type"),
        meta.get("adapter.type"),
        meta.get("general.architecture"),
    )
    if kind != "adapter" or adapter != "lora":
        raise UserError(
            f"{path}: not a LoRA adapter GGUF (general.type={kind!r}, adapter.type={adapter!r})"
        )
    if architecture and arch and arch != architecture:
        raise UserError(f"{path}: adapter for {arch!r}, but the base model is {architecture!r}")
    return {
        "architecture": arch,
        "alpha": meta.get("adapter.lora.alpha"),
        "tensors": len(header.tensors),
    }


def add_adapter_model(
    ws: Workspace, base_name: str, adapter: str | Path, *, name: str, scale: float = 1.0
) -> dict:
    check_regular_file(adapter, "adapter file")  # a symbolic link loop too, before resolving
    base = find_model(ws, base_name)
    if base["kind"] != "gguf":
        raise UserError(f"model {base_name!r} is an endpoint; adapters apply to local GGUF models")
    if ws.scalar("SELECT 1 FROM models WHERE name = ?", (name,)):
        raise UserError(f"a model named {name!r} exists already")
    path = Path(adapter).resolve()
    info = check_adapter(path, base.get("architecture"))
    params = json.loads(base.get("load_params") or "{}")
    params |= {"lora_path": str(path), "lora_scale": float(scale)}
    register_gguf(
        ws,
        Path(base["path"]),
        name=name,
        sha256=base["sha256"],
        size_bytes=base["size_bytes"],
        metadata={key: base[key] for key in METADATA_COLUMNS},
        load_params=params,
    )
    return {"name": name, "base": base_name, "adapter": str(path), "scale": scale, **info}
