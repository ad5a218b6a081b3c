"""The ceiling of a batched workload: llama.cpp's batched decode alone, nothing else.

Same model, same context settings and batch size as the engine, the same prompts (the
same tokens), the same number of generated tokens — but no scheduler, no sampling, no
grammar, no text, no storage: every slot is always full (the items' mean output length
for every item), the token fed back is a constant, the prompt prefix common to all items
is decoded once and copied, and prompt tokens are packed ``n_batch`` to a call. Logits are
still computed for every generating row (the engine needs them to sample; they are most of
a small model's work). The engine's share of this ceiling is what its scheduling, sampling,
IPC and storage leave of what the model kernels can do on this machine.
"""

from __future__ import annotations

import time

from engine.llm.scheduler import PREFIX_SEQ, common_prefix


def pure_decode_seconds(
    model_path, requests, generated_tokens: int, n_seq: int, n_gpu_layers: int = 0
) -> float:
    """Seconds llama.cpp alone needs for ``requests`` with ``generated_tokens`` in all."""
    import llama_cpp as L

    from engine.llm.native_model import NativeModel
    from engine.llm.prompting import prompt_tokens
    from engine.llm.settings import LoadOptions, Schedule

    schedule, load = Schedule(n_seq=n_seq).resolved(), LoadOptions(n_gpu_layers=n_gpu_layers)
    model = NativeModel(model_path, load)
    ctx = model.new_context(schedule, load)
    batch = L.llama_batch_init(schedule.n_batch, 0, 1)
    mem = L.llama_get_memory(ctx)
    try:
        tokens = [prompt_tokens(model, r) for r in requests]
        lcp = common_prefix(tokens) if len(tokens) > 1 else 0
        lcp = min(lcp, min(len(t) for t in tokens) - 1)
        lcp = lcp if lcp >= schedule.min_shared_prefix else 0
        per_item = max(1, round(generated_tokens / len(requests)))
        rows: list[tuple[int, int, int, bool]] = []  # (token, pos, seq, logits)

        def flush() -> None:
            batch.n_tokens = len(rows)
            for i, (tok, pos, seq, logits) in enumerate(rows):
                batch.token[i], batch.pos[i], batch.logits[i] = tok, pos, logits
                batch.n_seq_id[i], batch.seq_id[i][0] = 1, seq
            if rows and L.llama_decode(ctx, batch) != 0:
                raise RuntimeError("llama_decode failed")
            rows.clear()

        def add(tok: int, pos: int, seq: int, logits: bool) -> None:
            rows.append((tok, pos, seq, logits))
            if len(rows) == schedule.n_batch:
                flush()

        t0 = time.perf_counter()
        L.llama_memory_clear(mem, True)
        for pos in range(lcp):
            add(tokens[0][pos], pos, PREFIX_SEQ, False)
        flush()
        for start in range(0, len(tokens), n_seq):
            group = tokens[start : start + n_seq]
            for seq in range(1, len(group) + 1):
                L.llama_memory_seq_rm(mem, seq, -1, -1)
                if lcp:
                    L.llama_memory_seq_cp(mem, PREFIX_SEQ, seq, -1, -1)
            for seq, toks in enumerate(group, start=1):
                for pos in range(lcp, len(toks)):
                    add(toks[pos], pos, seq, pos == len(toks) - 1)
            flush()
            for step in range(per_item - 1):  # the first token comes from the prompt's logits
                for seq, toks in enumerate(group, start=1):
                    add(toks[-1], len(toks) + step, seq, True)
                flush()
        return time.perf_counter() - t0
    finally:
        L.llama_batch_free(batch)
        L.llama_free(ctx)
        model.close()
