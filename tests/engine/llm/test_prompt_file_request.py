"""The run-prompts step's request: the prompts carried as data, every value checked and
named, a bad line refused when the request is made, JSON and digest."""

from __future__ import annotations

import json

import pytest

from engine.errors import Setting, references
from engine.llm.runs.prompt_file_request import RunPromptsRequest
from engine.llm.runs.step_request import RequestError


def test_defaults_and_the_prompts_in_file_order():
    request = RunPromptsRequest("এক\n\nদুই\n")
    assert (request.max_tokens, request.temperature, request.seed) == (128, 0.0, 0)
    assert request.model is None and request.schedule is None and not request.jsonl
    assert [(r.key, r.prompt) for r in request.prompt_requests()] == [
        ("line-1", "এক"),
        ("line-3", "দুই"),
    ]
    assert request.sampler.max_tokens == 128 and request.sampler.greedy


def test_json_lines_carry_prompts_chats_and_keys():
    text = "\n".join(
        [
            json.dumps({"prompt": "a", "key": "k1"}),
            json.dumps({"messages": [{"role": "user", "content": "b"}], "id": 7}),
            json.dumps({"prompt": "c"}),
        ]
    )
    requests = RunPromptsRequest(text, jsonl=True, temperature=1).prompt_requests()
    assert [r.key for r in requests] == ["k1", "7", "line-3"]
    assert requests[1].messages[0].content == "b" and requests[0].sampler.temperature == 1.0


@pytest.mark.parametrize(
    ("fields", "named", "words"),
    [
        ({"prompts": "  \n"}, Setting.PROMPT_FILE, "no prompts"),
        ({"prompts": "a\na", "jsonl": True}, Setting.PROMPT_FILE, "line 1: not JSON"),
        ({"prompts": '{"nope": 1}', "jsonl": True}, Setting.PROMPT_FILE, "line 1: needs"),
        ({"prompts": "[1]", "jsonl": True}, Setting.PROMPT_FILE, "not a JSON object"),
        (
            {"prompts": '{"messages": [{"role": "user"}]}', "jsonl": True},
            Setting.PROMPT_FILE,
            "line 1: 'messages' needs",
        ),
        (
            {"prompts": '{"prompt": "a", "key": "k"}\n{"prompt": "b", "key": "k"}', "jsonl": True},
            Setting.PROMPT_FILE,
            "line 2: the key 'k' is there twice",
        ),
        ({"prompts": "a", "max_tokens": 0}, Setting.MAX_TOKENS, "from 1"),
        ({"prompts": "a", "temperature": -0.5}, Setting.TEMPERATURE, "from 0.0"),
        ({"prompts": "a", "temperature": float("nan")}, Setting.TEMPERATURE, "not nan"),
        ({"prompts": "a", "temperature": True}, Setting.TEMPERATURE, "a number is needed"),
        ({"prompts": "a", "seed": -1}, Setting.SEED, "from 0"),
        ({"prompts": "a", "model": " "}, Setting.MODEL, "empty name"),
        ({"prompts": "a", "n_seq": 0}, Setting.N_SEQ, "from 1"),
    ],
)
def test_a_bad_value_names_its_field(fields, named, words):
    with pytest.raises(RequestError) as caught:
        RunPromptsRequest(**fields)
    assert caught.value.setting == named and words in str(caught.value)
    assert [r.name for r in references(str(caught.value))] == [named.value]


def test_json_round_trip_and_digest():
    request = RunPromptsRequest("এক\nদুই\n", model="echo", temperature=0.7, seed=3, n_seq=2)
    data = json.loads(json.dumps(request.as_json()))
    assert data["step"] == "run-prompts" and data["fields"]["prompts"] == "এক\nদুই\n"
    again = RunPromptsRequest.from_json(data)
    assert again == request and again.digest() == request.digest()
    assert RunPromptsRequest("এক\nতিন\n", model="echo").digest() != request.digest()
    assert request.schedule == {"n_seq": 2}
