"""Greedy rows sampled on the host take one argmax over all the step's rows, shared among
threads (engine.llm.runtime.row_argmax): the tokens, stops included, are byte for byte the
ones each row's own argmax gave before."""

import numpy as np
import pytest

from engine.llm.runtime.row_argmax import RowArgmax
from engine.llm.types import Request, Sampler
from tests.engine.llm.test_sampled_outputs import EXPECTED, requests
from tests.engine.llm.test_sampling_argmax import PROMPTS


def run_on_host(embedded_gguf, reqs, n_seq=6):
    from engine.llm.models.settings import LoadOptions, Schedule
    from engine.llm.runtime.native_model import NativeModel
    from engine.llm.runtime.scheduler import BatchScheduler

    schedule, load = Schedule(n_seq=n_seq, n_ctx=4096), LoadOptions()
    model = NativeModel(embedded_gguf, load)
    scheduler = BatchScheduler(
        model, model.new_context(schedule, load), schedule, backend_sampling=False
    )
    results = {}
    try:
        stats = scheduler.run(reqs, lambda r: results.__setitem__(r.key, r))
    finally:
        scheduler.close()
    return {key: r.text for key, r in results.items()}, stats


# The replies of these nine requests decoded together in 6 slots, as the scheduler gave them
# before the step's greedy rows shared one argmax (another batch shape gives other floats,
# so other replies than EXPECTED's 2 slots; the stopped ones are the greedy replies cut at
# the first stop string)
MIXED = {
    "g0": " কম্পিউটার কম্পিউটার।\nপ্রশ্ন: কম্পিউটার কাকে বলে?\nউত্তর: কম্পিউটার কম্পিউটার।\nপ্রশ্ন: কম্পিউটার কাকে বলে?\n",
    "g1": " capital of Bangladesh is Dhaka.\nQuestion: what is the capital of Bangladesh?\nAnswer: capital of Bangladesh is Dhaka",
    "g2": " 'কেমন আছেন' বলতে 'কেমন আছি' বোঝায়। 'কেমন আছি' বলতে 'কেমন আছি",
    "s0": " কম্পিউটার হল কম্পিউটার ব্যবহার করা একটি যন্ত্র যা ল্যাপটপ থেকে তথ্য পাঠানোর যন্ত্র। কম্পিউটার হল কম্পিউটার যা কম্পিউটার থেকে তথ্য",
    "s1": "\nAnswer: Bangladesh is the largest country in Asia and the third largest in the world.\nAnswer: Bangladesh is a",
    "s2": " 'আমি 'কে 'ক 'কার 'খান 'কার 'চ 'াক 'চ '।\n\nপ্রশ্ন: চট্টগ্রামের",
    "t0": " কম্পিউটার কম্পিউটার",
    "t1": " capital of Bangladesh is ",
    "t2": " 'কেমন ",
}

STOPPED = {"t0": ("।",), "t1": ("\nQuestion", "Dhaka"), "t2": ("আছেন' বলতে 'কেমন",)}


def stop_requests() -> list[Request]:
    return [
        Request(key=key, prompt=PROMPTS[i], sampler=Sampler(max_tokens=24, stop=stops))
        for i, (key, stops) in enumerate(STOPPED.items())
    ]


def test_greedy_seeded_and_stopped_rows_in_one_batch_are_todays(embedded_gguf):
    texts, stats = run_on_host(embedded_gguf, requests() + stop_requests())
    assert texts == MIXED
    assert stats.backend_sampled_tokens == 0 and stats.host_sampled_tokens > 0


def test_rows_read_one_by_one_when_the_logits_buffer_is_not_as_documented(
    embedded_gguf, monkeypatch
):
    from engine.llm.runtime.scheduler import BatchScheduler

    monkeypatch.setattr(BatchScheduler, "_logits_rows", lambda self, first, last: None)
    texts, _ = run_on_host(embedded_gguf, requests(), n_seq=3)
    assert texts == EXPECTED


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_row_argmax_matches_numpy_row_by_row(threads):
    rng = np.random.default_rng(threads)
    argmax = RowArgmax(threads)
    try:
        for n in (1, 5, 32, 70):
            logits = rng.standard_normal((n + 4, 1000), dtype=np.float32)
            logits[:, 7] = logits.max()  # ties: the first maximum wins
            for rows in (np.arange(n), np.sort(rng.choice(n + 4, n, replace=False))):
                out = np.empty(n, np.intp)
                argmax(logits, rows, out)
                assert out.tolist() == [int(np.argmax(logits[r])) for r in rows]
    finally:
        argmax.close()


def test_row_argmax_raises_what_a_row_raised_after_every_thread_is_done():
    argmax = RowArgmax(2)
    try:
        with pytest.raises(ValueError):  # row 9 of 4: an empty block
            argmax(np.zeros((4, 10), np.float32), np.array([0, 1, 2, 9]), np.empty(4, np.intp))
        out = np.empty(2, np.intp)
        argmax(np.eye(2, dtype=np.float32), np.arange(2), out)  # still serves the next call
        assert out.tolist() == [0, 1]
    finally:
        argmax.close()
