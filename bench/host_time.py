"""The engine's own time per sequence per step, beside the ceiling script's (bench/generation.py).

Host time of a step: the time between two ``llama_decode`` calls (sampling, bookkeeping,
the worker's messages to the parent) divided by the sequences sampled in it. It leaves the
model's kernels out, so it moves far less with the machine's load than tokens/s, and it is
what a fast GPU leaves the engine as its bottleneck. Median and p90 over the steps of one
group of ``n_seq`` items (every slot generating), for the engine and for llama.cpp's batched
decode alone on the same work.
"""

from __future__ import annotations

import statistics

N_SEQS = (8, 32, 128)


def quantiles(values: list[float]) -> dict:
    """Median and p90 of ``values`` (microseconds), rounded."""
    if not values:
        return {"median": None, "p90": None, "steps": 0}
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return {
        "median": round(statistics.median(ordered), 2),
        "p90": round(p90, 2),
        "steps": len(ordered),
    }


def host_time(model, sha, requests_for, n_seqs=N_SEQS, n_gpu_layers: int = 0) -> dict:
    """``{n_seq: {"engine_us": ..., "ceiling_us": ..., "ratio": ..., "engine_share": ...}}``; ``requests_for(n)``: the
    workload's first ``n`` requests (one group, every slot filled)."""
    from bench.generation import in_fresh_process, pure_decode, timed_generate

    out = {}
    for n_seq in n_seqs:
        requests = requests_for(n_seq)
        seconds, stats, results = timed_generate(model, sha, requests, n_seq, n_gpu_layers)
        generated = sum(r.completion_tokens for r in results)
        ceiling_s, ceiling_us = in_fresh_process(
            pure_decode, model, requests, generated, n_seq, n_gpu_layers
        )
        engine, ceiling = quantiles(stats.get("host_us", [])), quantiles(ceiling_us)
        ratio = (
            round(engine["median"] / ceiling["median"], 1)
            if engine["median"] and ceiling["median"]
            else None
        )
        out[str(n_seq)] = {
            "engine_us": engine,
            "ceiling_us": ceiling,
            "ratio": ratio,
            # one pair, not the median of interleaved rounds: a first look, not the goal's
            "engine_share": round(ceiling_s / seconds, 3),
            "backend_sampled_tokens": stats.get("backend_sampled_tokens", 0),
            "host_sampled_tokens": stats.get("host_sampled_tokens", 0),
        }
        print(
            f"host time per sequence-step, n_seq {n_seq}: engine median {engine['median']} µs "
            f"(p90 {engine['p90']}), ceiling script {ceiling['median']} µs "
            f"(p90 {ceiling['p90']}); engine share {ceiling_s / seconds:.3f}",
            flush=True,
        )
    return out
