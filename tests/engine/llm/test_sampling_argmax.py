"""Plain greedy sequences take numpy's argmax of the logits instead of llama.cpp's greedy
sampler (which copies every candidate per row), with or without a grammar (there the argmax
is the token checked first): the tokens must be exactly the sampler's."""

import pytest

from engine.llm.runtime import sampling
from engine.llm.types import Request, Sampler
from tests.engine.llm.test_grammar_lazy import PROMPTS as JSON_PROMPTS
from tests.engine.llm.test_grammar_lazy import SCHEMA
from tests.engine.llm.test_grammar_lazy import _run as run_scheduler

PROMPTS = [
    "নিচের প্রশ্নের উত্তর দিন।\nপ্রশ্ন: কম্পিউটার কাকে বলে?\nউত্তর:",
    "Question: what is the capital of Bangladesh?\nAnswer:",
    "প্রশ্ন: চট্টগ্রামের ভাষায় 'কেমন আছেন' কীভাবে বলে?\nউত্তর:",
]


def texts(results: dict) -> dict:
    return {key: r.text for key, r in results.items()}


def test_argmax_gives_the_greedy_samplers_tokens(embedded_gguf, monkeypatch):
    requests = [
        Request(key=f"k{i}", prompt=p, sampler=Sampler(max_tokens=24))
        for i, p in enumerate(PROMPTS)
    ]
    same_tokens_without_argmax(embedded_gguf, monkeypatch, requests)


@pytest.mark.slow
def test_argmax_under_a_grammar_gives_the_greedy_samplers_tokens(embedded_gguf, monkeypatch):
    requests = [
        Request(key=f"j{i}", prompt=p, json_schema=SCHEMA, sampler=Sampler(max_tokens=60))
        for i, p in enumerate(JSON_PROMPTS)
    ]
    found = []
    best_allowed = sampling.TokenSampler._best_allowed

    def recorded(self, logits):
        found.append(best_allowed(self, logits))
        return found[-1]

    monkeypatch.setattr(sampling.TokenSampler, "_best_allowed", recorded)
    same_tokens_without_argmax(embedded_gguf, monkeypatch, requests)
    # rejected argmaxes were decided among the next best tokens, not by masking everything
    assert any(token is not None for token in found)


def same_tokens_without_argmax(embedded_gguf, monkeypatch, requests) -> None:
    fast = texts(run_scheduler(embedded_gguf, requests))
    original = sampling.build_chain

    def sampler_chain(*args, **kwargs):
        chain = original(*args, **kwargs)
        assert chain.argmax  # greedy, no penalty: the fast path is on ...
        chain.argmax = False  # ... and off here: llama.cpp's greedy sampler
        return chain

    monkeypatch.setattr("engine.llm.runtime.scheduler.build_chain", sampler_chain)
    # greedy rows sampled on the backend build no host chain: here every one does
    monkeypatch.setattr("engine.llm.runtime.scheduler.on_backend", lambda *a: False)
    assert texts(run_scheduler(embedded_gguf, requests)) == fast
    assert all(fast.values())
