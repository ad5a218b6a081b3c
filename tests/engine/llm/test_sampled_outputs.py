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


def run_with_stats(embedded_gguf, requests):
    from engine.llm.models.settings import LoadOptions, Schedule
    from engine.llm.runtime.native_model import NativeModel
    from engine.llm.runtime.scheduler import BatchScheduler

    schedule, load = Schedule(n_seq=2, n_ctx=2048), LoadOptions()
    model = NativeModel(embedded_gguf, load)
    scheduler = BatchScheduler(model, model.new_context(schedule, load), schedule)
    results = {}
    try:
        stats = scheduler.run(requests, lambda r: results.__setitem__(r.key, r))
        return {key: r.text for key, r in results.items()}, stats, scheduler.backend.available
    finally:
        scheduler.close()


def test_greedy_rows_are_sampled_on_the_backend_and_seeded_on_the_host(embedded_gguf):
    import llama_cpp

    texts, stats, available = run_with_stats(embedded_gguf, requests())
    assert texts == EXPECTED
    assert available == hasattr(llama_cpp, "llama_set_sampler")
    seeded = [r for r in requests() if not r.sampler.greedy]
    assert stats.host_sampled_tokens >= len(seeded)  # seeded sequences sample on the host
    if available:
        assert stats.backend_sampled_tokens > 0
    assert stats.host_us and all(us > 0 for us in stats.host_us)


def test_without_backend_sampling_the_host_gives_the_same_bytes(embedded_gguf, monkeypatch):
    from engine.llm.runtime import sampling

    monkeypatch.delattr(sampling.BackendGreedy, "__init__")

    def unavailable(self, ctx, seq_ids, wanted=True):
        self.available, self.chains = False, {}

    monkeypatch.setattr(sampling.BackendGreedy, "__init__", unavailable)
    texts, stats, available = run_with_stats(embedded_gguf, requests())
    assert not available and stats.backend_sampled_tokens == 0
    assert texts == EXPECTED


def test_run_cards_name_where_sampling_runs():
    from engine.llm.runtime.sampling import sampling_places

    assert sampling_places("0.3.36", True)["greedy"] == "backend"
    assert sampling_places("0.3.36", False)["greedy"] == "host"  # on the CPU: the host
    assert sampling_places("0.3.16", True)["greedy"] == "host"
    assert sampling_places(None, True)["greedy"] == "host"
    assert sampling_places("0.4.0.dev1", True)["seeded"] == "host"


def test_a_row_the_backend_left_unsampled_takes_the_same_argmax_here(embedded_gguf, monkeypatch):
    from engine.llm.runtime.scheduler import BatchScheduler

    init = BatchScheduler.__init__

    def without_backend_tokens(self, *args):
        init(self, *args)
        self.backend.token = lambda ctx, row: -1  # LLAMA_TOKEN_NULL

    monkeypatch.setattr(BatchScheduler, "__init__", without_backend_tokens)
    texts, _, _ = run_with_stats(embedded_gguf, requests())
    assert texts == EXPECTED
