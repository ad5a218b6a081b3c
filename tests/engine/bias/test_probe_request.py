"""The probe step's request: its defaults (the CLI's and the panel's), every value checked,
JSON and digest, and an instruction carried as text keys the same run as its file did."""

from __future__ import annotations

import json

import pytest

from engine.bias.request import ProbeRequest, instruction_file
from engine.bias.run import DEFAULT_SAMPLER, ProbeOptions, load_instruction
from engine.errors import Setting, UserError, references
from engine.llm.runs.step_request import RequestError, request_from_json


def test_defaults_are_the_steps_own():
    request = ProbeRequest()
    assert (request.models, request.sets, request.limit, request.seed) == ((), (), None, 0)
    assert not request.counterbalance and not request.constrained
    assert request.max_tokens == DEFAULT_SAMPLER.max_tokens == 24
    assert request.instruction is None and not request.no_instruction
    assert request.schedule is None
    # the bundled instruction, as the CLI and the panel asked before
    assert request.options() == ProbeOptions(instruction=load_instruction())


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"seed": -1}, Setting.SEED),
        ({"seed": 2**70}, Setting.SEED),
        ({"seed": 1.5}, Setting.SEED),
        ({"limit": 0}, Setting.LIMIT),
        ({"max_tokens": 0}, Setting.MAX_TOKENS),
        ({"counterbalance": "yes"}, Setting.COUNTERBALANCE),
        ({"constrained": 1}, Setting.CONSTRAINED),
        ({"sets": "gender"}, Setting.PROBE_SETS),  # a string is not a list of names
        ({"sets": ("g\u202eender",)}, Setting.PROBE_SETS),
        ({"models": ("",)}, Setting.MODELS),
        ({"instruction": "# only a comment\n"}, Setting.INSTRUCTION),
        ({"instruction": "a\0b"}, Setting.INSTRUCTION),
        ({"instruction_name": "mine.txt"}, Setting.INSTRUCTION),
        ({"instruction": "Answer.", "no_instruction": True}, Setting.NO_INSTRUCTION),
        ({"refill": 0}, Setting.REFILL),
    ],
)
def test_a_bad_value_names_its_field(fields, named):
    with pytest.raises(RequestError) as caught:
        ProbeRequest(**fields)
    assert caught.value.setting == named
    assert [r.name for r in references(str(caught.value))] == [named.value]


def test_json_round_trip_and_digest():
    request = ProbeRequest(
        models=("echo",), sets=("gender@sylhet",), limit=3, seed=9, counterbalance=True
    )
    data = json.loads(json.dumps(request.as_json()))
    assert data["step"] == "probe" and data["version"] == 1
    again = ProbeRequest.from_json(data)
    assert again == request and again.digest() == request.digest()
    assert request_from_json([ProbeRequest], data) == request
    assert ProbeRequest(models=("echo",), sets=("gender@sylhet",), limit=3).digest() != (
        request.digest()
    )
    with pytest.raises(UserError, match="unknown fields"):
        ProbeRequest.from_json({**data, "fields": {**data["fields"], "sampler": {}}})


def test_an_instruction_file_travels_as_text_and_keys_the_same_run(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text("# why\nAnswer with one option only.\n", encoding="utf-8")
    request = ProbeRequest(**instruction_file(path))
    assert request.instruction_name == "mine.txt"
    replayed = ProbeRequest.from_json(json.loads(json.dumps(request.as_json())))
    path.unlink()  # the request needs the file no more
    pset = {"name": "s", "topic": "gender", "group_x": "male", "group_y": "female"}
    from_file_card = ProbeOptions(instruction=load_instruction_of(tmp_path, request)).card(pset)
    assert replayed.options().card(pset) == from_file_card
    assert replayed.options().instruction.text == "Answer with one option only."


def load_instruction_of(folder, request: ProbeRequest):
    """The instruction as ``load_instruction`` reads it from a file of the same text."""
    again = folder / str(request.instruction_name)
    again.write_text(str(request.instruction), encoding="utf-8")
    return load_instruction(again)
