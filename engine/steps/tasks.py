"""A model step's request run, or written as OpenAI Batch files and its results taken back:
the background entry points of the CLI's ``batch`` command and of the desktop's batch
actions alike, and the one runner of any stage's request (:func:`run_request_at`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.llm.batch.pricing import CostEstimate
from engine.llm.batch.runner import (
    BatchImport,
    BatchManifest,
    estimate_step,
    export_step,
    import_results,
)
from engine.llm.endpoints.batch_wire import DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES
from engine.llm.runs.step_request import StepRequest
from engine.llm.types import CancelFn, ProgressFn
from engine.steps.kinds import request_kinds
from engine.workspace.store import Workspace

__all__ = ["estimate_batch_at", "export_batch_at", "import_batch_at", "run_request_at"]


def run_request_at(
    workspace_path: str,
    request: StepRequest,
    *,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> Any:
    """Run ``request`` (any stage's model step) on its own workspace connection: the step's
    typed result. A study needs no runner of its own: its command, its dialog and a batch
    file all come here or to :meth:`StepRequest.run`."""
    with Workspace(workspace_path, create=False) as ws:
        return request.run(ws, progress=progress, cancelled=cancelled)


def estimate_batch_at(workspace_path: str, request: StepRequest) -> CostEstimate:
    """Tokens, time and cost per model of what ``request`` would send, online and as a batch."""
    with Workspace(workspace_path, create=False) as ws:
        return estimate_step(ws, request)


def export_batch_at(
    workspace_path: str,
    request: StepRequest,
    out_dir: str | Path,
    *,
    target_model: str | None = None,
    max_lines: int = DEFAULT_MAX_LINES,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> BatchManifest:
    """Write what ``request`` would send as batch files in ``out_dir``; the manifest."""
    with Workspace(workspace_path, create=False) as ws:
        return export_step(
            ws,
            request,
            Path(out_dir),
            target_model=target_model,
            max_lines=max_lines,
            max_bytes=max_bytes,
        )


def import_batch_at(workspace_path: str, paths: list[str | Path]) -> BatchImport:
    """Take in result files of exported batches and replay their requests: per file what
    was accepted and refused, and how many items are still missing."""
    with Workspace(workspace_path, create=False) as ws:
        return import_results(ws, request_kinds(), [Path(p) for p in paths])
