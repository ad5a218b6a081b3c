"""The LLM stage's front door: the models of a workspace (find, list, register), GGUF
inspection, opening a backend, running a job of prompts and reading its responses, and the
llama.cpp build report, a test prompt to one model (:mod:`engine.llm.runtime.try_prompt`) and the
GGUF models other tools keep on this computer (:mod:`engine.llm.models.discovery`).

Every model lookup of a front end goes through :func:`find_model` (a name, an id or the
default). Background work of the model manager is in :mod:`engine.llm.tasks`. Front ends
import these two modules, never the stage's others (.importlinter).
"""

from __future__ import annotations

from typing import TypedDict, cast

from engine.llm.batch.pricing import (
    cost_estimate,
    describe_estimate,
    describe_price,
    model_price,
    parse_discount,
    parse_price,
    price_fields,
    set_price,
)
from engine.llm.endpoints.backend import BREAKER_FAILURES, read_api_key
from engine.llm.endpoints.batch_wire import DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES
from engine.llm.endpoints.limits import (
    CONNECT_TIMEOUT,
    ENDPOINT_LIMITS,
    MAX_RETRIES,
    READ_TIMEOUT,
    checked_endpoint_limits,
)
from engine.llm.endpoints.structured import DEFAULT as DEFAULT_STRUCTURED_OUTPUT
from engine.llm.endpoints.structured import MODES as STRUCTURED_OUTPUT_MODES
from engine.llm.models.discovery import FoundModel, discover_models, model_folders
from engine.llm.models.embedded_model import data_dir
from engine.llm.models.gguf_info import checked_model_path, inspect_gguf
from engine.llm.models.gpu_plan import Gpu
from engine.llm.models.registry import (
    ModelRow,
    all_models,
    default_model,
    ensure_embedded_default,
    find_model,
    register_endpoint,
    register_gguf,
)
from engine.llm.runs.backend import backend_for_run
from engine.llm.runs.jobs import run_job, run_job_on_model
from engine.llm.runs.output_mode import find_mode, stored_mode, stored_probe
from engine.llm.runs.prompt_file_request import RunPromptsRequest, RunPromptsResult
from engine.llm.runs.replicate import replications
from engine.llm.runs.responses import run_responses
from engine.llm.runs.run import library_versions, open_run
from engine.llm.runtime.backend_report import describe_llama_backend, log_llama_backend
from engine.llm.runtime.factory import open_backend
from engine.llm.runtime.try_prompt import describe_template, try_prompt
from engine.llm.types import Message, Request, Sampler
from engine.workspace.store import Workspace

__all__ = [
    "BREAKER_FAILURES",
    "CONNECT_TIMEOUT",
    "ENDPOINT_LIMITS",
    "MAX_RETRIES",
    "READ_TIMEOUT",
    "checked_endpoint_limits",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_LINES",
    "FoundModel",
    "Gpu",
    "Message",
    "ModelRow",
    "Request",
    "RunPromptsRequest",
    "RunPromptsResult",
    "Sampler",
    "all_models",
    "backend_for_run",
    "checked_model_path",
    "data_dir",
    "default_model",
    "describe_llama_backend",
    "describe_template",
    "discover_models",
    "ensure_embedded_default",
    "find_model",
    "find_models",
    "inspect_gguf",
    "library_versions",
    "log_llama_backend",
    "model_folders",
    "models_default_first",
    "open_backend",
    "open_run",
    "read_api_key",
    "register_endpoint",
    "register_gguf",
    "replications",
    "run_job",
    "run_job_on_model",
    "run_responses",
    "try_prompt",
    "cost_estimate",
    "describe_estimate",
    "describe_price",
    "model_price",
    "parse_discount",
    "parse_price",
    "price_fields",
    "set_price",
    "DEFAULT_STRUCTURED_OUTPUT",
    "STRUCTURED_OUTPUT_MODES",
    "StructuredOutput",
    "structured_output",
    "find_structured_output",
]


class StructuredOutput(TypedDict):
    """How a model takes a JSON schema (:mod:`engine.llm.endpoints.structured`): ``mode``
    (``grammar`` for a local model, None for an endpoint not probed yet, which is sent
    ``json_schema``), ``found``: whether the probe just run found it, ``probe``: what the
    endpoint's last probe found (each try, when, where; None before the first)."""

    name: str
    kind: str
    mode: str | None
    found: bool
    probe: dict | None
    reason: str


def structured_output(ws: Workspace, model: dict) -> StructuredOutput:
    """What is kept of how ``model`` takes a JSON schema; contacts no server."""
    local = model["kind"] != "endpoint"
    return {
        "name": model["name"],
        "kind": model["kind"],
        "mode": "grammar" if local else stored_mode(ws, model),
        "found": False,
        "probe": None if local else stored_probe(ws, model),
        "reason": "",
    }


def find_structured_output(ws: Workspace, model: dict) -> StructuredOutput:
    """Probe an endpoint now for the structured-output form it takes and keep a finding
    (what a run that needs a schema does once by itself); a local model is not probed."""
    if model["kind"] != "endpoint":
        return structured_output(ws, model)
    probe = find_mode(ws, model)
    return {
        **structured_output(ws, model),
        "found": probe.mode is not None,
        "reason": probe.reason,
    }


def find_models(ws: Workspace, names: list[str] | None) -> list[ModelRow]:
    """The ``models`` rows of ``names`` in that order (each through :func:`find_model`);
    no names: the workspace's default model."""
    found = [find_model(ws, name) for name in names] if names else [find_model(ws)]
    return cast("list[ModelRow]", found)


def models_default_first(ws: Workspace) -> list[ModelRow]:
    """Every model, the default one first, then in the order they were added."""
    models = sorted(all_models(ws), key=lambda m: (not m["is_default"], m["id"]))
    return cast("list[ModelRow]", models)
