"""A cancel stops llama.cpp inside a long ``llama_decode`` (its abort callback), not only
between steps: a prompt of hundreds of tokens decoded in one call is cut short."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from engine.llm.models.settings import LoadOptions, Schedule
from engine.llm.runtime.native_model import NativeModel
from engine.llm.runtime.scheduler import BatchScheduler
from engine.llm.types import Request, Sampler


@pytest.mark.slow
def test_a_cancel_stops_a_long_decode_part_way(embedded_gguf):
    load = LoadOptions()
    schedule = Schedule(n_seq=1, n_batch=4096, n_ctx=8192).resolved()
    model = NativeModel(Path(embedded_gguf), load)
    ctx = model.new_context(schedule, load)
    scheduler = BatchScheduler(model, ctx, schedule)
    prompt = " ".join(f"word{i}" for i in range(150))  # hundreds of tokens, one decode
    request = Request(key="long", prompt=prompt, sampler=Sampler(max_tokens=1))
    results: list = []

    started = time.monotonic()
    whole = scheduler.run([request], results.append)
    whole_s = time.monotonic() - started
    assert whole.items == 1 and results and results[0].ok

    asked: list[float] = []

    def stop_after_the_first_check() -> bool:
        asked.append(time.monotonic())
        return len(asked) > 1  # the loop's check before the decode says go on

    results.clear()
    started = time.monotonic()
    stopped = scheduler.run([request], results.append, stop_after_the_first_check)
    stopped_s = time.monotonic() - started
    assert stopped.cancelled and not results
    assert len(asked) >= 2  # asked again inside the decode
    assert stopped_s < whole_s / 2, (stopped_s, whole_s)
    # the context is clean for the next run
    results.clear()
    assert scheduler.run([request], results.append).items == 1
    scheduler.close()


@pytest.mark.slow
def test_a_cancel_during_the_worker_s_load_stops_it(embedded_gguf):
    import threading

    from engine.llm.runtime.local_backend import LocalGGUFBackend

    stop = threading.Event()
    pressed: list[float] = []

    def press_cancel() -> None:
        pressed.append(time.monotonic())
        stop.set()

    threading.Timer(0.3, press_cancel).start()  # Cancel while the worker process loads
    backend = LocalGGUFBackend(embedded_gguf, sha256="s", schedule=Schedule(n_seq=1))
    request = Request(key="k", prompt="Hello", sampler=Sampler(max_tokens=4))
    with pytest.raises(InterruptedError, match="loading the model cancelled"):
        list(backend.generate([request], cancelled=stop.is_set))
    assert time.monotonic() - pressed[0] < 2
    assert backend._worker is None or not backend._worker.alive()
    # the next job loads a fresh worker
    assert all(r.ok for r in backend.generate([request]))
    backend.close()
