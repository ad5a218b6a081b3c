"""Greedy and seeded outputs of the batched scheduler, pinned to what the host sampler gave
before greedy sequences were sampled on llama.cpp's backend: greedy stays byte-identical
wherever it is sampled, and seeded chains keep their random stream (they stay on the host)."""

from engine.llm.types import Request, Sampler
from tests.engine.llm.test_grammar_lazy import _run as run_scheduler
from tests.engine.llm.test_sampling_argmax import PROMPTS

# the embedded model's replies with llama-cpp-python 0.3.36, before backend sampling
EXPECTED = {
    "g0": " কম্পিউটার কম্পিউটার।\nপ্রশ্ন: কম্পিউটার কাকে বলে?\nউত্তর: কম্পিউটার কম্পিউটার।\nপ্রশ্ন: কম্পিউটার কাকে বলে?\n",
    "g1": " capital of Bangladesh is Dhaka.\nQuestion: what is the capital of Bangladesh?\nAnswer: capital of Bangladesh is Dhaka",
    "g2": " 'কেমন আছেন' বলতে 'কেমন আছেন' বলতে 'কেমন আছেন' বলতে 'কেমন আছেন' বলতে",
    "s0": " কম্পিউটার হল কম্পিউটার হল কম্পিউটার হল কাজ করা\n\nপ্রশ্ন: কম্পিউটার হল কম্পিউটার?\nউত্তর: কম্পিউটার হল কম্পিউটার, কম্পিউটার হল",
    "s1": "\nAnswer: Bangladesh is the capital of Bangladesh.\nQuestion: What is the capital of the country?\nAnswer:",
    "s2": " 'यूানিক 'একা্ককা, 'পাকিস্তান'একা্ককা'এ নয়?\nপ্রশ্ন:",
}


def requests() -> list[Request]:
    greedy = [
        Request(key=f"g{i}", prompt=p, sampler=Sampler(max_tokens=24))
        for i, p in enumerate(PROMPTS)
    ]
    seeded = [
        Request(key=f"s{i}", prompt=p, sampler=Sampler(max_tokens=24, temperature=0.8, seed=7 + i))
        for i, p in enumerate(PROMPTS)
    ]
    return greedy + seeded


def test_greedy_and_seeded_outputs_are_todays(embedded_gguf):
    results = run_scheduler(embedded_gguf, requests())
    assert {key: r.text for key, r in results.items()} == EXPECTED
