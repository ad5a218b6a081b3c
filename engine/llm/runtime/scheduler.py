"""Continuous batching on llama.cpp's low-level API (runs inside the model worker).

Every step builds one ``llama_batch``: the next token of each generating sequence first,
then prompt tokens of newly admitted sequences up to ``n_batch``. A finished sequence
frees its slot (and its KV cells) and the next prompt enters. A prompt prefix common to
all items is decoded once into sequence 0 and copied to each slot with
``llama_memory_seq_cp`` — with a unified KV cache that copy shares cells, it decodes nothing.

Plain greedy rows are sampled inside ``llama_decode`` where the build supports it and
layers are on a GPU (sampling.BackendGreedy): the step reads token ids, not logits. On the
CPU their argmax is taken here, all rows of a step in one call shared among the context's
threads (row_argmax.RowArgmax). Other chains sample here row by row.

The schedule depends only on the inputs and :class:`Schedule`, so a rerun with the same
items, order, settings and seeds performs the same float operations: byte-identical output.
"""

from __future__ import annotations

import ctypes
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.llm.models.settings import Schedule, usable_cores
from engine.llm.runtime.batch_arrays import ArrayBatch
from engine.llm.runtime.prompting import prompt_tokens
from engine.llm.runtime.row_argmax import RowArgmax
from engine.llm.runtime.sampling import (
    BackendGreedy,
    GrammarCache,
    GrammarError,
    build_chain,
    on_backend,
)
from engine.llm.runtime.stop_strings import StopWatch
from engine.llm.types import Request, Result

log = logging.getLogger(__name__)

PREFIX_SEQ = 0
DECODE_ABORTED = 2  # llama_decode's return code when the abort callback said stop
ABORT_POLL_S = 0.05  # how often, at most, a decode asks whether to stop


class _DecodeAborted(Exception):
    """llama_decode stopped part-way because a cancel arrived."""


@dataclass
class _Seq:
    request: Request
    tokens: list[int]
    seq_id: int = -1
    todo: list[int] = field(default_factory=list)  # prompt tokens not yet decoded
    n_past: int = 0
    chain: Any = None  # the host's sampler chain (ctypes); None when sampled on the backend
    on_backend: bool = False  # its tokens come from llama_decode (sampling.BackendGreedy)
    argmax: bool = False  # plain greedy sampled here: its row joins the step's RowArgmax
    stops: StopWatch | None = None
    generated: int = 0
    text: bytearray = field(default_factory=bytearray)
    pending_token: int | None = None  # sampled, not yet decoded
    out_index: int = -1  # batch row whose logits sample the next token
    out_rank: int = -1  # that row's place among the step's outputs (its row of llama_get_logits)
    next_token: int = -1  # the step's argmax, for an ``argmax`` sequence
    reserve: int = 0  # KV cells this sequence may use
    started: float = 0.0


@dataclass
class RunStats:
    decode_calls: int = 0
    prompt_tokens_decoded: int = 0
    prefix_tokens: int = 0
    generated_tokens: int = 0
    items: int = 0
    backend_sampled_tokens: int = 0  # sampled inside llama_decode (sampling.BackendGreedy)
    host_sampled_tokens: int = 0  # sampled here from the logits
    cancelled: bool = False
    seconds: float = 0.0
    # per step, the engine's own time between two llama_decode calls (sampling, bookkeeping,
    # messages to the parent) divided by the sequences sampled in it, in microseconds
    host_us: list[float] = field(default_factory=list)


def _by_rank(s: _Seq) -> int:
    return s.out_rank


def common_prefix(token_lists: list[list[int]]) -> int:
    if len(token_lists) < 2:
        return 0
    first = token_lists[0]
    n = min(len(t) for t in token_lists)
    for i in range(n):
        tok = first[i]
        if any(t[i] != tok for t in token_lists):
            return i
    return n


class BatchScheduler:
    def __init__(self, model, ctx, schedule: Schedule, *, backend_sampling: bool = True):
        # lazy: llama.cpp's native library loads only when a local model is used
        import llama_cpp as L

        self.L, self.model, self.ctx, self.schedule = L, model, ctx, schedule
        self.mem = L.llama_get_memory(ctx)
        self.batch = ArrayBatch(schedule.n_batch)
        self.grammars = GrammarCache()
        # greedy rows sampled inside llama_decode: a gain with layers on a GPU, a loss on the
        # CPU (the worker asks for it only when layers are offloaded)
        self.backend = BackendGreedy(ctx, range(1, schedule.n_seq + 1), backend_sampling)
        self.argmax = RowArgmax(schedule.n_threads or usable_cores())
        self._tokens: dict[int, tuple[bool, bytes]] = {}  # token -> (end of generation, bytes)
        self._decoded_at = 0.0  # when the last llama_decode returned
        self._outputs = 0  # rows sampled after it

    def close(self) -> None:
        self.backend.close()  # the batch's arrays go with the scheduler
        self.argmax.close()

    # -- batch helpers ---------------------------------------------------------------------
    def _decode(self, stats: RunStats) -> None:
        start = time.perf_counter()
        if self._outputs:
            stats.host_us.append((start - self._decoded_at) * 1e6 / self._outputs)
        rc = self.L.llama_decode(self.ctx, self.batch.struct)
        self._decoded_at, self._outputs = time.perf_counter(), 0
        stats.decode_calls += 1
        if rc == DECODE_ABORTED:
            raise _DecodeAborted()
        if rc != 0:
            raise RuntimeError(f"llama_decode failed with code {rc}")

    def _decode_prefix(self, tokens: list[int], stats: RunStats) -> None:
        import numpy as np

        for start in range(0, len(tokens), self.schedule.n_batch):
            chunk = tokens[start : start + self.schedule.n_batch]
            self.batch.clear()
            self.batch.extend(chunk, np.arange(start, start + len(chunk)), PREFIX_SEQ, 0)
            self._decode(stats)
        stats.prefix_tokens = len(tokens)
        stats.prompt_tokens_decoded += len(tokens)

    # -- the loop --------------------------------------------------------------------------
    def run(
        self,
        requests: list[Request],
        emit: Callable[[Result], None],
        should_stop: Callable[[], bool] = lambda: False,
        on_step: Callable[[RunStats], None] | None = None,
    ) -> RunStats:
        """Decode ``requests``; ``should_stop`` is asked between steps and, through
        llama.cpp's abort callback, inside a long ``llama_decode`` (a prompt chunk), so a
        cancel does not wait for the decode to end."""
        stats = RunStats()
        callback = self._abort_callback(should_stop)  # referenced while llama.cpp may call it
        self.L.llama_set_abort_callback(self.ctx, callback, None)
        try:
            return self._run(requests, emit, should_stop, on_step, stats)
        except _DecodeAborted:
            stats.cancelled = True
            return stats
        finally:
            self.L.llama_set_abort_callback(self.ctx, self.L.ggml_abort_callback(), None)

    def _abort_callback(self, should_stop: Callable[[], bool]):
        stop, asked = False, 0.0

        def aborting(_data) -> bool:
            nonlocal stop, asked
            now = time.monotonic()
            if not stop and now - asked >= ABORT_POLL_S:
                asked = now
                stop = bool(should_stop())
            return stop

        return self.L.ggml_abort_callback(aborting)

    def _run(self, requests, emit, should_stop, on_step, stats: RunStats) -> RunStats:
        L, sch = self.L, self.schedule
        t0 = time.perf_counter()
        L.llama_memory_clear(self.mem, True)
        self._outputs = 0
        seqs: list[_Seq] = []
        for req in requests:
            try:
                seqs.append(_Seq(req, prompt_tokens(self.model, req)))
            except Exception as exc:  # a template or tokenizer problem of this item only
                emit(Result(req.key, None, finish_reason="error", error=str(exc)))
        prefix_len = 0
        if sch.share_prefix and len(seqs) > 1:
            lcp = common_prefix([s.tokens for s in seqs])
            lcp = min(lcp, min(len(s.tokens) for s in seqs) - 1)  # each item decodes >= 1
            if lcp >= sch.min_shared_prefix:
                prefix_len = lcp
                self._decode_prefix(seqs[0].tokens[:lcp], stats)
        queue = deque(seqs)
        active: list[_Seq] = []
        free_ids = list(range(1, sch.n_seq + 1))
        used = prefix_len
        try:
            while queue or active:
                if should_stop():
                    stats.cancelled = True
                    break
                # admit new sequences while slots and KV cells last
                while queue and free_ids:
                    s = queue[0]
                    need = len(s.tokens) - prefix_len + s.request.sampler.max_tokens
                    if need > sch.n_ctx - prefix_len:
                        queue.popleft()
                        emit(
                            Result(
                                s.request.key,
                                None,
                                prompt_tokens=len(s.tokens),
                                finish_reason="error",
                                error=f"prompt of {len(s.tokens)} tokens + max_tokens "
                                f"{s.request.sampler.max_tokens} exceeds the "
                                f"context of {sch.n_ctx} tokens",
                            )
                        )
                        continue
                    if used + need > sch.n_ctx:
                        break
                    queue.popleft()
                    try:
                        gbnf = (
                            self.grammars.gbnf(s.request.json_schema)
                            if s.request.json_schema
                            else None
                        )
                        s.on_backend = self.backend.available and on_backend(
                            s.request.sampler, gbnf
                        )
                        if not s.on_backend:
                            s.chain = build_chain(
                                self.model.vocab, self.model.n_vocab, s.request.sampler, gbnf
                            )
                            s.argmax = s.chain.argmax and s.chain.grammar is None
                    except GrammarError as exc:
                        emit(Result(s.request.key, None, finish_reason="error", error=str(exc)))
                        continue
                    s.seq_id = free_ids.pop(0)
                    s.reserve, used = need, used + need
                    s.started = time.perf_counter()
                    if prefix_len:
                        L.llama_memory_seq_cp(self.mem, PREFIX_SEQ, s.seq_id, -1, -1)
                    s.n_past = prefix_len
                    s.todo = s.tokens[prefix_len:]
                    if s.request.sampler.stop:
                        s.stops = StopWatch(s.request.sampler.stop)
                    active.append(s)
                if not active:
                    continue
                self._step(active, stats)
                sampled = [s for s in active if s.out_index >= 0]
                self._outputs = len(sampled)
                self._greedy_tokens([s for s in sampled if s.argmax])
                for s in sampled:
                    finished = self._sample(s, stats)
                    if finished:
                        active.remove(s)
                        used -= s.reserve
                        free_ids.append(s.seq_id)
                        free_ids.sort()
                        L.llama_memory_seq_rm(self.mem, s.seq_id, -1, -1)
                        if s.chain:
                            s.chain.free()
                            s.chain = None
                        stats.items += 1
                        emit(self._result(s, finished))
                if on_step:
                    stats.seconds = time.perf_counter() - t0
                    on_step(stats)
        finally:
            for s in active:
                if s.chain:
                    s.chain.free()
            L.llama_memory_clear(self.mem, True)
            stats.seconds = time.perf_counter() - t0
        return stats

    def _step(self, active: list[_Seq], stats: RunStats) -> None:
        """One llama_decode: pending tokens of generating sequences, then prompt chunks."""
        import numpy as np

        batch = self.batch
        batch.clear()
        generating = []
        for s in active:
            s.out_index = -1
            if s.pending_token is not None:
                generating.append(s)
        if generating:
            first = batch.extend(
                [s.pending_token for s in generating],
                [s.n_past for s in generating],
                [s.seq_id for s in generating],
                1,
            )
            for row, s in enumerate(generating, start=first):
                s.out_index, s.pending_token = row, None
                s.n_past += 1
                s.out_rank = row  # the batch starts with these rows, every one an output
        outputs = len(generating)
        room = self.schedule.n_batch - batch.n_tokens
        for s in active:
            if room <= 0:
                break
            if not s.todo:
                continue
            take, s.todo = s.todo[:room], s.todo[room:]
            first = batch.extend(take, np.arange(s.n_past, s.n_past + len(take)), s.seq_id, 0)
            s.n_past += len(take)
            if not s.todo:
                s.out_index, s.out_rank = first + len(take) - 1, outputs
                batch.logits[s.out_index] = 1
                outputs += 1
            room -= len(take)
            stats.prompt_tokens_decoded += len(take)
        self._decode(stats)

    def _greedy_tokens(self, seqs: list[_Seq]) -> None:
        """Each plain-greedy sequence's ``next_token``: the argmax of its row, all rows in
        one RowArgmax call over llama.cpp's logits buffer."""
        import numpy as np

        if not seqs:
            return
        seqs.sort(key=_by_rank)
        logits = self._logits_rows(seqs[0], seqs[-1])
        if logits is None:
            for s in seqs:
                s.next_token = self._argmax(s.out_index)
            return
        ranks = np.fromiter([s.out_rank for s in seqs], np.intp, len(seqs))
        tokens = np.empty(len(seqs), np.intp)
        self.argmax(logits, ranks, tokens)
        for s, token in zip(seqs, tokens.tolist()):
            s.next_token = token

    def _logits_rows(self, first: _Seq, last: _Seq):
        """The step's outputs as one ``(rows, n_vocab)`` array over ``llama_get_logits``,
        whose rows llama.h documents as the outputs in batch order. Checked at the first and
        last row against ``llama_get_logits_ith``; None (read row by row) if they differ."""
        import numpy as np

        L, ctx, n_vocab = self.L, self.ctx, self.model.n_vocab
        pointer = L.llama_get_logits(ctx)
        base = ctypes.cast(pointer, ctypes.c_void_p).value
        if not base:
            return None
        stride = n_vocab * ctypes.sizeof(ctypes.c_float)
        for s in (first, last):
            row = ctypes.cast(L.llama_get_logits_ith(ctx, s.out_index), ctypes.c_void_p).value
            if row != base + s.out_rank * stride:
                return None
        return np.ctypeslib.as_array(pointer, shape=(last.out_rank + 1, n_vocab))

    def _argmax(self, row: int) -> int:
        import numpy as np

        logits = self.L.llama_get_logits_ith(self.ctx, row)
        return int(np.argmax(np.ctypeslib.as_array(logits, shape=(self.model.n_vocab,))))

    def _token(self, token: int) -> tuple[bool, bytes]:
        """Whether ``token`` ends generation, and its bytes (read once per token id)."""
        info = self._tokens.get(token)
        if info is None:
            info = self._tokens[token] = (self.model.is_eog(token), self.model.piece(token))
        return info

    def _sample(self, s: _Seq, stats: RunStats) -> str | None:
        """Sample the next token of ``s``; returns a finish reason when it is done."""
        if s.argmax:
            tok = s.next_token
            stats.host_sampled_tokens += 1
        elif s.on_backend:
            tok = self.backend.token(self.ctx, s.out_index)
            if tok < 0:  # the backend sampled nothing for this row: the same argmax here
                tok = self._argmax(s.out_index)
            stats.backend_sampled_tokens += 1
        else:
            tok = s.chain.sample(self.ctx, s.out_index)
            stats.host_sampled_tokens += 1
        eog, piece = self._token(tok)
        if eog:
            return "stop"
        s.generated += 1
        stats.generated_tokens += 1
        s.text += piece
        if s.stops is not None:
            at = s.stops.find(piece)
            if at is not None:
                s.text = bytearray(s.text.decode("utf-8", "ignore")[:at].encode("utf-8"))
                return "stop"
        if s.generated >= s.request.sampler.max_tokens:
            return "length"
        s.pending_token = tok
        return None

    def _result(self, s: _Seq, reason: str) -> Result:
        return Result(
            s.request.key,
            s.text.decode("utf-8", "replace"),
            prompt_tokens=len(s.tokens),
            completion_tokens=s.generated,
            finish_reason=reason,
            elapsed_ms=(time.perf_counter() - s.started) * 1000.0,
        )
