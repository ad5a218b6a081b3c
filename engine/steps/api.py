"""The steps' front door: the model steps as requests (their kinds, a stored request read
back), and what the workspace keeps of batches exported before batches kept their request
(a front end that can read their command lines converts them).

Batch export and import run in the background: :mod:`engine.steps.tasks`. Front ends import
these two modules, never the package's others (.importlinter).
"""

from __future__ import annotations

from engine.llm.batch.pricing import describe_estimate
from engine.llm.batch.runner import BatchImport, BatchManifest
from engine.llm.batch.store import legacy_batches, set_batch_request
from engine.llm.endpoints.batch_wire import DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES
from engine.llm.runs.step_request import RequestError, StepRequest
from engine.steps.kinds import request_from_json, request_kinds, step_names

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_LINES",
    "BatchImport",
    "BatchManifest",
    "RequestError",
    "StepRequest",
    "describe_estimate",
    "legacy_batches",
    "request_from_json",
    "request_kinds",
    "set_batch_request",
    "step_names",
]
