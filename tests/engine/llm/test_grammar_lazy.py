"""The grammar is checked lazily (sample, then mask only on rejection); for greedy decoding
that must give exactly the tokens of masking the whole vocabulary at every step."""

import json

import pytest

from engine.llm.models.settings import LoadOptions, Schedule
from engine.llm.runtime.sampling import TokenSampler
from engine.llm.types import Request, Sampler

SCHEMA = {
    "type": "object",
    "properties": {
        "reasoning": {"type": "string", "minLength": 1, "maxLength": 120},
        "score": {"type": "integer", "enum": [0, 1, 2, 3, 4, 5]},
        "confidence": {"type": "integer", "enum": [1, 2, 3, 4, 5]},
    },
    "required": ["reasoning", "score", "confidence"],
    "additionalProperties": False,
}
PROMPTS = [
    "Question: কম্পিউটার কাকে বলে?\nAnswer as JSON:",
    "Rate this answer from 0 to 5 and explain: 'Dhaka is the capital.'\nJSON:",
]


def _run(embedded_gguf, requests):
    from engine.llm.runtime.native_model import NativeModel
    from engine.llm.runtime.scheduler import BatchScheduler

    schedule, load = Schedule(n_seq=2, n_ctx=2048), LoadOptions()
    model = NativeModel(embedded_gguf, load)
    scheduler = BatchScheduler(model, model.new_context(schedule, load), schedule)
    results = {}
    try:
        scheduler.run(requests, lambda r: results.__setitem__(r.key, r))
    finally:
        scheduler.close()
    return results


@pytest.mark.slow
def test_lazy_grammar_matches_full_masking_for_greedy(embedded_gguf, monkeypatch):
    requests = [
        Request(key=f"k{i}", prompt=p, json_schema=SCHEMA, sampler=Sampler(max_tokens=90))
        for i, p in enumerate(PROMPTS)
    ]
    lazy = _run(embedded_gguf, requests)
    monkeypatch.setattr(TokenSampler, "_allowed", lambda self, token: False)  # always mask all
    full = _run(embedded_gguf, requests)
    for key in lazy:
        assert lazy[key].error is None and full[key].error is None
        assert lazy[key].text == full[key].text
        if lazy[key].finish_reason == "stop":
            reply = json.loads(lazy[key].text)
            assert list(reply) == ["reasoning", "score", "confidence"]
            assert reply["score"] in range(6)
