"""Plain greedy sequences take numpy's argmax of the logits instead of llama.cpp's greedy
sampler (which copies every candidate per row): the tokens must be exactly the sampler's."""

from engine.llm import sampling
from engine.llm.settings import LoadOptions, Schedule
from engine.llm.types import Request, Sampler

PROMPTS = [
    "নিচের প্রশ্নের উত্তর দিন।\nপ্রশ্ন: কম্পিউটার কাকে বলে?\nউত্তর:",
    "Question: what is the capital of Bangladesh?\nAnswer:",
    "প্রশ্ন: চট্টগ্রামের ভাষায় 'কেমন আছেন' কীভাবে বলে?\nউত্তর:",
]


def _run(embedded_gguf, requests):
    from engine.llm.native_model import NativeModel
    from engine.llm.scheduler import BatchScheduler

    schedule, load = Schedule(n_seq=3, n_ctx=2048), LoadOptions()
    model = NativeModel(embedded_gguf, load)
    scheduler = BatchScheduler(model, model.new_context(schedule, load), schedule)
    results = {}
    try:
        scheduler.run(requests, lambda r: results.__setitem__(r.key, r.text))
    finally:
        scheduler.close()
        model.close()
    return results


def test_argmax_gives_the_greedy_samplers_tokens(embedded_gguf, monkeypatch):
    requests = [
        Request(key=f"k{i}", prompt=p, sampler=Sampler(max_tokens=24))
        for i, p in enumerate(PROMPTS)
    ]
    fast = _run(embedded_gguf, requests)
    original = sampling.build_chain

    def sampler_chain(*args, **kwargs):
        chain = original(*args, **kwargs)
        assert chain.argmax  # greedy, no penalty, no grammar: the fast path is on ...
        chain.argmax = False  # ... and off here: llama.cpp's greedy sampler
        return chain

    monkeypatch.setattr("engine.llm.scheduler.build_chain", sampler_chain)
    assert _run(embedded_gguf, requests) == fast
    assert all(fast.values())
