"""A model step's request: defaults defined once, every value checked, JSON and digest."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine.answering.request import GenerateRequest
from engine.errors import Setting, UserError, references
from engine.llm.runs.step_request import RequestError, request_from_json


def test_defaults_are_the_steps_own():
    request = GenerateRequest()
    assert request.statuses == ("gold",)
    assert request.max_tokens == 384
    assert request.models == () and request.dialects == () and request.limit is None
    assert request.schedule is None


def test_lists_become_tuples_and_names_are_folded():
    request = GenerateRequest(models=["a  b", "c", "a b"], dialects=["sylhet"])
    assert request.models == ("a b", "c")  # white space folded, duplicates once
    assert request.dialects == ("sylhet",)
    with pytest.raises(dataclasses.FrozenInstanceError):
        request.max_tokens = 5  # type: ignore[misc]


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"max_tokens": 0}, Setting.MAX_TOKENS),
        ({"max_tokens": 10**23}, Setting.MAX_TOKENS),
        ({"max_tokens": True}, Setting.MAX_TOKENS),
        ({"max_tokens": "5"}, Setting.MAX_TOKENS),
        ({"limit": -1}, Setting.LIMIT),
        ({"statuses": ()}, Setting.STATUS),
        ({"statuses": ("golden",)}, Setting.STATUS),
        ({"models": ("",)}, Setting.MODELS),
        ({"models": ("a\u200bb",)}, Setting.MODELS),  # shows as "ab"
        ({"models": ("\u202eledom",)}, Setting.MODELS),  # right-to-left override
        ({"models": ("x" * 5000,)}, Setting.MODELS),
        ({"models": "echo"}, Setting.MODELS),  # a string is not a list of names
        ({"models": ("a",), "all_models": True}, Setting.MODELS),
        ({"question_set": "  "}, Setting.QUESTION_SET),
        ({"n_seq": 0}, Setting.N_SEQ),
        ({"prompts": "a\0b"}, Setting.PROMPTS),
    ],
)
def test_a_bad_value_names_its_field(fields, named):
    with pytest.raises(RequestError) as caught:
        GenerateRequest(**fields)
    assert caught.value.setting == named
    assert [r.name for r in references(str(caught.value))] == [named.value]


def test_json_round_trip_and_digest():
    request = GenerateRequest(models=("echo",), statuses=("gold", "draft"), limit=3, n_seq=4)
    data = json.loads(json.dumps(request.as_json()))
    assert data["step"] == "generate" and data["version"] == 1
    again = GenerateRequest.from_json(data)
    assert again == request
    assert again.digest() == request.digest()
    assert GenerateRequest(models=("echo",), limit=4).digest() != request.digest()
    assert request_from_json([GenerateRequest], data) == request


def test_from_json_refuses_what_it_cannot_read():
    good = GenerateRequest().as_json()
    with pytest.raises(UserError, match="unknown fields"):
        GenerateRequest.from_json({**good, "fields": {**good["fields"], "sql": "DROP"}})
    with pytest.raises(UserError, match="newer version"):
        GenerateRequest.from_json({**good, "version": 2})
    with pytest.raises(UserError, match="not a request of the step"):
        GenerateRequest.from_json({**good, "step": "judge"})
    with pytest.raises(UserError, match="known step"):
        request_from_json([GenerateRequest], {**good, "step": "nope"})
    with pytest.raises(RequestError):
        GenerateRequest.from_json({**good, "fields": {"max_tokens": -5}})
    for bad in (None, [], "x", {"step": "generate", "version": True, "fields": {}}):
        with pytest.raises(UserError):
            GenerateRequest.from_json(bad)
