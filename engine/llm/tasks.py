"""Background task functions of the model manager (Qt-free; run through the task bridge).

Each takes plain values (paths, strings) and opens its own workspace connection, so the
GUI thread's connection is never shared with a worker.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from engine.errors import UserError
from engine.i18n import _
from engine.llm.endpoints.backend import KEYRING_USER
from engine.llm.models.gguf_info import GGUFInfoDict, inspect_gguf
from engine.llm.models.gpu_plan import (
    Gpu,
    OffloadPlanDict,
    best_gpu,
    detect_gpus,
    gguf_shape,
    plan_offload,
)
from engine.llm.models.registry import (
    METADATA_COLUMNS,
    ensure_embedded_default,
    register_endpoint,
    register_gguf,
    update_load_params,
)
from engine.llm.runs.output_mode import keep_probe, probe_mode
from engine.llm.runtime.backend_report import describe_llama_backend
from engine.llm.runtime.vulkan_check import (
    SMOKE_PROMPTS,
    SMOKE_TOKENS,
    Agreement,
    offload_agreement,
)
from engine.llm.runtime.vulkan_devices import cpu_driver_index
from engine.workspace.store import Workspace

if TYPE_CHECKING:  # these load only when their task runs
    from engine.llm.endpoints.probe import Probe
    from engine.llm.models.discovery import DiscoveredModel
    from engine.llm.runtime.try_prompt import TryPromptResult

__all__ = [
    "add_embedded_model_at",
    "add_endpoint_model_at",
    "add_gguf_model_at",
    "discover_models_at",
    "gpu_offload_report",
    "inspect_gguf_file",
    "keyring_problem",
    "keyring_service_for",
    "keep_structured_output_at",
    "offload_plan",
    "probe_structured_output_at",
    "save_gpu_layers_at",
    "store_api_key",
    "try_prompt_at",
    "vulkan_offload_check",
]

log = logging.getLogger(__name__)


class GGUFFile(GGUFInfoDict):
    """:func:`inspect_gguf_file`: the file's metadata and its chat template ('' if none)."""

    chat_template: str


def inspect_gguf_file(path: str, progress=None, known_sha256: str | None = None) -> GGUFFile:
    """Validate a GGUF file, read its metadata and hash it (progress over the bytes).
    ``known_sha256``: the file's hash from a content-addressed store (an Ollama blob is
    named by it), so a file of several GB is not read again."""
    info = inspect_gguf(path, with_sha256=not known_sha256, progress=progress)
    if known_sha256:
        info.sha256 = known_sha256
    return {**info.as_dict(), "chat_template": info.chat_template or ""}


def add_gguf_model_at(
    workspace_path: str, info: dict, name: str, *, is_default: bool = False
) -> int:
    with Workspace(workspace_path, create=False) as ws:
        metadata = {k: info[k] for k in METADATA_COLUMNS}
        return register_gguf(
            ws,
            Path(info["path"]),
            name=name,
            sha256=info["sha256"],
            size_bytes=info["size_bytes"],
            metadata=metadata,
            is_default=is_default,
        )


def add_embedded_model_at(workspace_path: str, progress=None) -> int:
    with Workspace(workspace_path, create=False) as ws:
        return ensure_embedded_default(ws, progress)


def keyring_service_for(name: str) -> str:
    return "upabhasha:" + re.sub(r"\s+", "-", name.strip())


def keyring_problem() -> str | None:
    """Why API keys cannot be stored in the OS keyring here, or None if they can."""
    # lazy: keyring is slow to import (and probes OS back ends)
    import keyring
    from keyring.backends import fail

    backend = keyring.get_keyring()
    if isinstance(backend, fail.Keyring):
        from engine.llm.endpoints.backend import HOW_TO_GET_A_KEYRING

        # the advice is translated through its constant (kept in the catalogue by hand)
        return _("No OS keyring is available on this machine: {how}.").format(
            how=_(HOW_TO_GET_A_KEYRING)
        )
    return None


def store_api_key(service: str, key: str) -> None:
    """Store under the user name the endpoint backend reads the key with."""
    # lazy: keyring is slow to import (and probes OS back ends)
    import keyring

    keyring.set_password(service, KEYRING_USER, key)


def add_endpoint_model_at(
    workspace_path: str,
    name: str,
    base_urls: list[str],
    api_model: str,
    keyring_service: str | None,
    *,
    load_params: dict | None = None,
    is_default: bool = False,
) -> int:
    """Register an OpenAI-compatible endpoint as the CLI's ``models add URL`` does (the same
    :func:`engine.llm.models.registry.register_endpoint`): URLs normalised, chat API assumed,
    ``load_params`` (e.g. concurrency) and the default flag kept."""
    with Workspace(workspace_path, create=False) as ws:
        return register_endpoint(
            ws,
            name,
            base_urls,
            api_model,
            keyring_service=keyring_service,
            load_params=load_params,
            is_default=is_default,
        )


class GpuOffloadReport(TypedDict):
    """:func:`gpu_offload_report`: the llama.cpp build and the GPUs here (``Gpu``'s fields)."""

    supports_gpu_offload: bool
    gpu_build: bool
    backend_message: str
    system_info: str
    llama_cpp_version: str
    gpus: list[dict[str, Any]]
    llama_devices: list[dict[str, Any]]


def _llama_gpus(backend: Mapping[str, Any]) -> list[Gpu]:
    """The GPUs llama.cpp itself sees (its Vulkan, CUDA or Metal devices), as ``Gpu``, and the
    Vulkan drivers that run on the CPU, which it skips (marked, never proposed)."""
    seen = [
        Gpu(
            name=d["description"] or d["name"],
            free_bytes=d["free_bytes"] or None,
            total_bytes=d["total_bytes"] or None,
            kind=d["backend"].lower(),
            vendor=d["vendor"],
            cpu_driver=d["cpu_driver"],
        )
        for d in backend["devices"]
        if d["type"] != "CPU"
    ]
    names = {g.name for g in seen}
    return seen + [
        Gpu(d["name"], None, None, "vulkan", vendor=d["vendor"], cpu_driver=True)
        for d in backend.get("vulkan_devices", [])
        if d["type"] == "CPU" and d["name"] not in names
    ]


def gpu_offload_report() -> GpuOffloadReport:
    """Whether this llama.cpp build can offload layers to a GPU (imports llama_cpp lazily),
    the start-up backend message, which GPUs are here with their free memory (nvidia-smi,
    Apple) and which llama.cpp sees (its Vulkan, CUDA or Metal devices)."""
    # lazy: llama.cpp's native library loads only when a local model is used
    import llama_cpp

    backend = describe_llama_backend()
    info = llama_cpp.llama_print_system_info()
    info = info.decode("utf-8", "replace") if isinstance(info, bytes) else str(info)
    return {
        "supports_gpu_offload": backend["gpu_build"] and not backend["fallback"],
        "gpu_build": backend["gpu_build"],
        "backend_message": backend["message"],
        "system_info": info.strip(),
        "llama_cpp_version": backend["llama_cpp"],
        "gpus": [dataclasses.asdict(g) for g in detect_gpus()],
        "llama_devices": [dataclasses.asdict(g) for g in _llama_gpus(backend)],
    }


def vulkan_offload_check(model_path: str, *, short: bool = True) -> Agreement | None:
    """With a Vulkan driver that runs on the CPU here (lavapipe, as in CI), the model decoded
    with every layer on it against the CPU backend (engine.llm.runtime.vulkan_check); None
    without such a driver. ``short``: the smoke test's two prompts, else the full set."""
    index = cpu_driver_index()
    if index is None:
        return None
    if short:
        return offload_agreement(
            model_path, device_index=index, prompts=SMOKE_PROMPTS, n_tokens=SMOKE_TOKENS
        )
    return offload_agreement(model_path, device_index=index)


def offload_plan(model_path: str, report: Mapping[str, Any]) -> OffloadPlanDict:
    """The proposed n_gpu_layers and context for a GGUF model, given gpu_offload_report():
    on llama.cpp's own device when it sees one (the memory it will allocate from), else on
    what nvidia-smi or Apple report."""
    gpu = best_gpu([Gpu(**g) for g in report.get("llama_devices", [])]) or best_gpu(
        [Gpu(**g) for g in report.get("gpus", [])]
    )
    return plan_offload(
        gguf_shape(model_path), gpu, supports_offload=report["supports_gpu_offload"]
    ).as_dict()


def save_gpu_layers_at(workspace_path: str, model_id: int, n_gpu_layers: int) -> dict[str, Any]:
    """The model's load parameters once ``n_gpu_layers`` is saved (by name)."""
    with Workspace(workspace_path, create=False) as ws:
        return update_load_params(ws, model_id, n_gpu_layers=n_gpu_layers)


def try_prompt_at(
    workspace_path: str, model_id: int, prompt: str, max_tokens: int = 128, *, cancelled=None
) -> TryPromptResult:
    """The Models panel's test prompt (:func:`engine.llm.runtime.try_prompt.try_prompt`)."""
    from engine.llm.runtime.try_prompt import try_prompt

    with Workspace(workspace_path, create=False) as ws:
        rows = ws.query("SELECT * FROM models WHERE id = ?", (model_id,))
    if not rows:
        raise UserError(f"no model {model_id} in this workspace")
    return try_prompt(rows[0], prompt, max_tokens=max_tokens, cancelled=cancelled)


def discover_models_at(
    workspace_path: str, extra_folders: list[str], *, cancelled=None
) -> list[DiscoveredModel]:
    """GGUF models on this computer (:mod:`engine.llm.models.discovery`), each with
    ``registered``: the workspace already has a model on that file."""
    from engine.llm.models.discovery import discover_models

    found = discover_models(extra_folders, cancelled=cancelled)
    with Workspace(workspace_path, create=False) as ws:
        paths = [r["path"] for r in ws.query("SELECT path FROM models WHERE path IS NOT NULL")]
    registered = {_resolved(p) for p in paths}
    return [{**m.as_dict(), "registered": _resolved(m.path) in registered} for m in found]


def _resolved(path: str) -> str:
    try:
        return str(Path(path).resolve())
    except OSError:
        return path


def probe_structured_output_at(workspace_path: str, model_id: int) -> Probe:
    """Find how an endpoint takes a JSON schema (``upabhasha models probe``): its requests,
    a few tokens each; writes nothing (:func:`keep_structured_output_at` keeps a finding)."""
    with Workspace(workspace_path, create=False) as ws:
        rows = ws.query("SELECT * FROM models WHERE id = ? AND kind = 'endpoint'", (model_id,))
    if not rows:
        raise UserError(f"no endpoint {model_id} in this workspace")
    return probe_mode(rows[0])


def keep_structured_output_at(workspace_path: str, model_id: int, probe: Probe) -> None:
    """Keep what :func:`probe_structured_output_at` found with the endpoint (nothing when
    it found nothing)."""
    with Workspace(workspace_path, create=False) as ws:
        keep_probe(ws, {"id": model_id}, probe)
