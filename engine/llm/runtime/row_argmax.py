"""The argmax of many logits rows at once, shared among threads (runs inside the model worker).

A greedy row reads the whole vocabulary (Gemma 3: 262,144 floats, 1 MiB), and that read is
most of the engine's own time per token on a CPU. numpy's argmax releases the GIL, and
between two ``llama_decode`` calls llama.cpp's threads are idle, so the rows of a step are
shared among as many threads as the context computes with: the caller's and helpers that
wait on a queue. Rows go out in chunks from one shared counter, so a helper the OS is slow
to wake costs nothing: the caller takes the chunks nobody has started.

Written here rather than with ``concurrent.futures``: an executor's future per chunk costs
more than the chunk's argmax saves, and its workers cannot leave a chunk to the caller.
"""

from __future__ import annotations

import itertools
import queue
import threading
from dataclasses import dataclass, field
from typing import Any

CHUNKS_PER_THREAD = 4  # small enough that the caller is not left waiting on one slow helper


@dataclass
class _Job:
    logits: Any  # 2-D float array, one row per output
    rows: Any  # sorted row indices (intp array)
    out: Any  # out[i] = argmax of logits[rows[i]]
    size: int  # rows per chunk
    n_chunks: int
    counter: Any = field(default_factory=itertools.count)  # next() is atomic under the GIL
    done: queue.SimpleQueue = field(default_factory=queue.SimpleQueue)


def _argmax_chunk(job: _Job, chunk: int) -> None:
    lo = chunk * job.size
    hi = min(lo + job.size, len(job.rows))
    first, last = int(job.rows[lo]), int(job.rows[hi - 1])
    if last - first == hi - 1 - lo:  # consecutive rows: one call over the block
        job.logits[first : last + 1].argmax(axis=1, out=job.out[lo:hi])
    else:
        for i in range(lo, hi):
            job.out[i] = job.logits[job.rows[i]].argmax()


class RowArgmax:
    def __init__(self, n_threads: int):
        self.n_threads = max(1, n_threads)
        self._inboxes: list[queue.SimpleQueue] = []
        for i in range(self.n_threads - 1):
            inbox: queue.SimpleQueue = queue.SimpleQueue()
            thread = threading.Thread(target=self._help, args=(inbox,), daemon=True)
            thread.name = f"row-argmax-{i + 1}"
            thread.start()
            self._inboxes.append(inbox)

    def __call__(self, logits, rows, out) -> None:
        """``out[i] = argmax(logits[rows[i]])`` (numpy's: the first maximum), ``rows``
        sorted; returns when every row is done."""
        n = len(rows)
        if not n:
            return
        threads = min(self.n_threads, n)
        size = max(1, -(-n // (threads * CHUNKS_PER_THREAD)))
        job = _Job(logits, rows, out, size, -(-n // size))
        if threads > 1:
            for inbox in self._inboxes[: threads - 1]:
                inbox.put(job)
        mine, error = self._work(job, report=False)
        for _ in range(job.n_chunks - mine):  # the helpers' chunks, even after an error here
            error = job.done.get() or error
        if error is not None:
            raise error

    @staticmethod
    def _work(job: _Job, report: bool) -> tuple[int, Exception | None]:
        """Take chunks until none is left. A helper reports each chunk on ``job.done``; the
        caller counts its own: how many, and the first error."""
        mine, error = 0, None
        while (chunk := next(job.counter)) < job.n_chunks:
            failure = None
            try:
                _argmax_chunk(job, chunk)
            except Exception as exc:  # raised by the caller once no thread reads the rows
                failure = exc
            if report:
                job.done.put(failure)
            else:
                mine, error = mine + 1, error or failure
        return mine, error

    def _help(self, inbox: queue.SimpleQueue) -> None:
        while (job := inbox.get()) is not None:
            self._work(job, report=True)

    def close(self) -> None:
        for inbox in self._inboxes:
            inbox.put(None)
        self._inboxes = []
