"""Every model step's request kind, by step name: what a batch file's stored request can be.

A study with a model step adds its request class here (its own stage defines and runs it).
"""

from __future__ import annotations

from engine.answering.request import GenerateRequest
from engine.bias.request import ProbeRequest
from engine.judging.request import JudgeRequest
from engine.llm.runs.step_request import StepRequest
from engine.llm.runs.step_request import request_from_json as _request_from_json
from engine.translation.request import EvalTranslationRequest, TranslateRequest
from engine.understanding.request import RunTaskRequest

REQUESTS: tuple[type[StepRequest], ...] = (
    GenerateRequest,
    TranslateRequest,
    EvalTranslationRequest,
    ProbeRequest,
    RunTaskRequest,
    JudgeRequest,
)
STEPS: tuple[str, ...] = tuple(kind.STEP for kind in REQUESTS)


def request_from_json(data: object) -> StepRequest:
    """The request ``data`` (a stored or exported request's JSON) holds, every value checked."""
    return _request_from_json(REQUESTS, data)
