"""Every model step's request kind, by step name: what a batch file's stored request can be.

Each stage declares its model steps (``REQUESTS`` in its engine/<stage>/schema.py, gathered
by engine.workspace.stages); the classes load here, when a request is built or read back.
"""

from __future__ import annotations

from engine.llm.runs.step_request import StepRequest
from engine.llm.runs.step_request import request_from_json as _request_from_json
from engine.workspace import stages


def request_kinds() -> tuple[type[StepRequest], ...]:
    """Every stage's request classes, in stage order."""
    kinds = []
    for step, path in stages.requests().items():
        kind = stages.load(path)
        if not (isinstance(kind, type) and issubclass(kind, StepRequest)) or kind.STEP != step:
            raise TypeError(f"{path} is not the request of the step {step!r}")
        kinds.append(kind)
    return tuple(kinds)


def step_names() -> tuple[str, ...]:
    """The model steps a batch file can carry (their requests' ``STEP``)."""
    return stages.model_steps()


def request_from_json(data: object) -> StepRequest:
    """The request ``data`` (a stored or exported request's JSON) holds, every value checked."""
    return _request_from_json(request_kinds(), data)
