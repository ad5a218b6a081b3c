"""The run-task step's request: its defaults (the CLI's and the Tasks panel's), every value
checked and named, the k-sweep as one request of several plans, JSON and digest."""

from __future__ import annotations

import json

import pytest

from engine.errors import Setting, UserError, references
from engine.llm.runs.step_request import RequestError, request_from_json
from engine.understanding.request import RunTaskRequest


def test_defaults_are_the_steps_own():
    request = RunTaskRequest()
    assert request.task == "dialect-to-standard" and request.source == "pairs"
    assert request.regimes == ("zero",) and request.scripts == ("native",)
    assert request.scheme == "avro" and request.split == "validation"
    assert (request.k, request.seed, request.k_sweep) == (6, 0, ())
    assert request.models == () and request.dialects == ()
    assert request.limit is None and request.draw_train is None and request.max_tokens is None
    assert request.normalize is None and request.constrained is False
    assert request.plans() == [(("zero",), 6)]


def test_a_k_sweep_is_one_request_of_several_plans():
    request = RunTaskRequest(k_sweep=[0, 1, 4], regimes=("cot",), k=2)
    assert request.plans() == [(("zero",), 0), (("few",), 1), (("few",), 4)]


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"task": ""}, Setting.TASK),
        ({"task": None}, Setting.TASK),
        ({"source": "corpus"}, Setting.ITEM_SOURCE),
        ({"source": "items:"}, Setting.ITEM_SOURCE),
        ({"regimes": ()}, Setting.REGIMES),
        ({"regimes": ("many",)}, Setting.REGIMES),
        ({"regimes": "zero"}, Setting.REGIMES),  # a string is not a list
        ({"scripts": ("latin",)}, Setting.SCRIPTS),
        ({"scheme": "klingon"}, Setting.SCHEME),
        ({"split": "train"}, Setting.SPLIT),  # the demonstrations' split
        ({"k": -1}, Setting.K),
        ({"k": 17}, Setting.K),
        ({"k_sweep": (0, -1)}, Setting.K_SWEEP),
        ({"k_sweep": ("1",)}, Setting.K_SWEEP),
        ({"limit": 0}, Setting.LIMIT),
        ({"seed": -1}, Setting.SEED),
        ({"seed": 2**64}, Setting.SEED),
        ({"draw_train": 0}, Setting.DRAW_TRAIN),
        ({"normalize": "nfkc"}, Setting.NORMALIZE),
        ({"max_tokens": 0}, Setting.MAX_TOKENS),
        ({"models": ("a\u200bb",)}, Setting.MODEL_LIST),
        ({"dialects": ("",)}, Setting.DIALECT_LIST),
        ({"constrained": "yes"}, Setting.CONSTRAINED_DECODING),
    ],
)
def test_a_bad_value_names_its_field(fields, named):
    with pytest.raises(RequestError) as caught:
        RunTaskRequest(**fields)
    assert caught.value.setting == named
    assert [r.name for r in references(str(caught.value))] == [named.value]


def test_json_round_trip_and_digest():
    request = RunTaskRequest(
        task="dialect-id",
        models=("echo",),
        source="items:hate",
        regimes=("zero", "few"),
        scripts=("native", "roman"),
        k_sweep=(0, 2),
        limit=3,
        seed=7,
        normalize="none",
    )
    data = json.loads(json.dumps(request.as_json()))
    assert data["step"] == "run-task" and data["version"] == 1
    again = RunTaskRequest.from_json(data)
    assert again == request and again.digest() == request.digest()
    assert RunTaskRequest(task="dialect-id", seed=8).digest() != request.digest()
    assert request_from_json([RunTaskRequest], data) == request
    with pytest.raises(UserError, match="unknown fields"):
        RunTaskRequest.from_json({**data, "fields": {**data["fields"], "k_sweeps": [1]}})
