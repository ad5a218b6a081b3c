"""Generation benchmark: the batched engine against llama-cpp-python's one-at-a-time API.

Same prompts (standard and dialect questions from resources/sample), the embedded model,
greedy, 64 new tokens each (--quick: 32). Measured in one run:
  batched_tok_s     generated tokens/s of the engine as a job decodes (plan groups of
                    n_seq * refill, slot refill; 16 sequences)
  whole_group_tok_s the same with refill 1 (groups of n_seq decoded whole: the old rule);
                    refill_gain = batched / whole_group
  ceiling_tok_s     llama.cpp's batched decode alone on the same work (pure_decode_seconds below);
                    engine_share = batched / ceiling
  sequential_tok_s  generated tokens/s of Llama.create_completion called once per prompt
  ratio             batched / sequential (ceiling_ratio: ceiling / sequential)
  chosen_refill     the schedule the planner's calibration chose on the job's sample, as a
                    fresh run does (engine/llm/planning/schedule_choice.py; calibration_schedules:
                    the timings that chose it); share_chosen = the median of the engine's
                    shares of the ceiling with that schedule over --rounds pairs (the engine,
                    then the ceiling, in turn; share_chosen_rounds: each pair's)
  planner           the study-time planner's estimate (engine/llm/planning/planner.py, from its
                    calibration) against the chosen schedule's seconds
and a judge-shaped workload (one long shared rubric + a short per-item part):
  judge_s, judge_ceiling_s, judge_engine_share   the engine against its ceiling
  prefix_tokens_per_item        prompt tokens actually decoded per item with prefix sharing
  naive_prefix_tokens_per_item  prompt tokens per item when each prompt is decoded whole
The last line of output is one JSON object.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import sys
import time
from importlib import resources
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# the worker's thread policy, for the in-process baseline too (engine/llm/runtime/worker.py)
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def sample_questions(n: int) -> list[str]:
    root = resources.files("resources") / "sample"
    with (root / "questions.csv").open(encoding="utf-8") as fh:
        standard = [r["question"] for r in csv.DictReader(fh)]
    with (root / "questions_dialects.csv").open(encoding="utf-8") as fh:
        dialect = [r["text"] for r in csv.DictReader(fh)]
    mixed = [q for pair in zip(standard, dialect) for q in pair]
    mixed += standard[len(dialect) :] + dialect[len(standard) :]
    return (mixed * (n // max(len(mixed), 1) + 1))[:n]


def answer_prompt(question: str) -> str:
    return f"নিচের প্রশ্নের উত্তর প্রমিত বাংলায় দিন।\nপ্রশ্ন: {question}\nউত্তর:"


def judge_prompt(rubric: str, question: str) -> str:
    return f"{rubric}\n\nQuestion: {question}\nAnswer: (omitted)\nVerdict:"


def timed_generate(model_path, sha, requests, n_seq, n_gpu_layers=0, refill=None):
    """The batched engine over ``requests`` as a job decodes them (the batch plan's groups,
    one scheduler run each), the model loaded outside the timing: (seconds, the summed
    scheduler stats, results); every result must be ok. ``refill=1``: the whole-group rule."""
    from engine.llm.models.settings import LoadOptions, Schedule
    from engine.llm.planning.batch_plan import plan_groups, plan_size
    from engine.llm.runtime.local_backend import LocalGGUFBackend

    schedule = Schedule(n_seq=n_seq) if refill is None else Schedule(n_seq=n_seq, refill=refill)
    with LocalGGUFBackend(
        model_path, sha256=sha, schedule=schedule, load=LoadOptions(n_gpu_layers=n_gpu_layers)
    ) as backend:
        backend.worker()  # load outside the timing
        stats: dict = {}
        results = []
        t = time.perf_counter()
        for group in plan_groups(list(requests), plan_size(backend)):
            results += backend.generate(group)
            for name, value in backend.worker().last_stats.items():
                if isinstance(value, list):
                    stats[name] = stats.get(name, []) + value
                elif isinstance(value, (int, float)) and not isinstance(value, bool):
                    stats[name] = stats.get(name, 0) + value
        seconds = time.perf_counter() - t
    assert all(r.ok for r in results), [r.error for r in results if not r.ok][:3]
    return seconds, stats, results


def in_fresh_process(fn, *args):
    """``fn(*args)`` in a new process, as the engine's worker loads its model: a model
    offloaded to CUDA in a process that has imported scipy or pandas crashed in
    llama_model_load_from_file (seen on an H200 machine's image), and the baselines must not
    take the bench down."""
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(fn, args)


def ceiling(model_path, requests, results, n_seq, n_gpu_layers=0) -> float:
    """Seconds of the pure batched decode of the same work (:func:`pure_decode_seconds`)."""
    generated = sum(r.completion_tokens for r in results)
    args = (model_path, requests, generated, n_seq, n_gpu_layers)
    return in_fresh_process(pure_decode_seconds, *args)


# The ceiling of a batched workload: llama.cpp's batched decode alone, nothing else.
#
# Same model, same context settings and batch size as the engine, the same prompts (the
# same tokens), the same number of generated tokens — but no scheduler, no sampling, no
# grammar, no text, no storage: every slot is always full (the items' mean output length
# for every item), the token fed back is a constant, the prompt prefix common to all items
# is decoded once and copied, and prompt tokens are packed ``n_batch`` to a call. Logits are
# still computed for every generating row (the engine needs them to sample; they are most of
# a small model's work). The engine's share of this ceiling is what its scheduling, sampling,
# IPC and storage leave of what the model kernels can do on this machine.
def pure_decode_seconds(
    model_path, requests, generated_tokens: int, n_seq: int, n_gpu_layers: int = 0
) -> float:
    """Seconds llama.cpp alone needs for ``requests`` with ``generated_tokens`` in all."""
    return pure_decode(model_path, requests, generated_tokens, n_seq, n_gpu_layers)[0]


def pure_decode(
    model_path, requests, generated_tokens: int, n_seq: int, n_gpu_layers: int = 0
) -> tuple[float, list[float]]:
    """:func:`pure_decode_seconds`, and per step the script's own time between two
    llama_decode calls divided by the rows it sampled from (microseconds), as the engine's
    ``RunStats.host_us``."""
    import llama_cpp as L

    from engine.llm.models.settings import LoadOptions, Schedule
    from engine.llm.runtime.native_model import NativeModel
    from engine.llm.runtime.prompting import prompt_tokens
    from engine.llm.runtime.scheduler import PREFIX_SEQ, common_prefix

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
        host_us: list[float] = []
        last = {"end": 0.0, "outputs": 0}

        def flush() -> None:
            batch.n_tokens = len(rows)
            for i, (tok, pos, seq, logits) in enumerate(rows):
                batch.token[i], batch.pos[i], batch.logits[i] = tok, pos, logits
                batch.n_seq_id[i], batch.seq_id[i][0] = 1, seq
            if rows:
                start = time.perf_counter()
                if last["outputs"]:
                    host_us.append((start - last["end"]) * 1e6 / last["outputs"])
                if L.llama_decode(ctx, batch) != 0:
                    raise RuntimeError("llama_decode failed")
                last["end"], last["outputs"] = time.perf_counter(), sum(r[3] for r in rows)
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
        return time.perf_counter() - t0, host_us
    finally:
        L.llama_batch_free(batch)
        L.llama_free(ctx)
        model.close()


def high_level_llama(model_path, threads, n_gpu_layers=0):
    """llama-cpp-python's one-at-a-time API on the same model: the baseline."""
    import llama_cpp

    from engine.llm.runtime.native_model import guard_high_level_api

    guard_high_level_api()
    return llama_cpp.Llama(
        str(model_path),
        n_ctx=2048,
        n_batch=512,
        n_threads=threads,
        n_threads_batch=threads,
        n_gpu_layers=n_gpu_layers,
        verbose=False,
    )


def prompt_requests(prompts, max_tokens):
    from engine.llm.types import Request, Sampler

    return [
        Request(key=str(i), prompt=p, sampler=Sampler(max_tokens=max_tokens))
        for i, p in enumerate(prompts)
    ]


def run_batched(model_path, sha, prompts, max_tokens, n_seq, n_gpu_layers=0, refill=None):
    reqs = prompt_requests(prompts, max_tokens)
    seconds, stats, results = timed_generate(model_path, sha, reqs, n_seq, n_gpu_layers, refill)
    tokens = sum(r.completion_tokens for r in results)
    return tokens / seconds, tokens, seconds, stats, results


def run_sequential(model_path, prompts, max_tokens, threads, n_gpu_layers=0):
    llm = high_level_llama(model_path, threads, n_gpu_layers)
    t = time.perf_counter()
    tokens = 0
    for p in prompts:
        out = llm.create_completion(p, max_tokens=max_tokens, temperature=0.0)
        tokens += out["usage"]["completion_tokens"]
    seconds = time.perf_counter() - t
    llm.close()
    return tokens / seconds, tokens, seconds


def planned(model_path, sha, requests, n_seq, n_gpu_layers=0):
    """The study-time planner's estimate for ``requests`` (engine.llm.planning.planner), from its
    calibration on the same backend settings, comparing the schedules as a fresh run does
    (engine.llm.planning.schedule_choice): (estimate, calibration seconds, calibration)."""
    from engine.llm.models.settings import LoadOptions, Schedule
    from engine.llm.planning.planner import calibrate, estimate
    from engine.llm.planning.schedule_choice import CANDIDATE_REFILLS
    from engine.llm.runtime.local_backend import LocalGGUFBackend

    with LocalGGUFBackend(
        model_path,
        sha256=sha,
        schedule=Schedule(n_seq=n_seq),
        load=LoadOptions(n_gpu_layers=n_gpu_layers),
    ) as backend:
        backend.worker()
        t = time.perf_counter()
        cal = calibrate(backend, requests, refills=CANDIDATE_REFILLS)
        return estimate(requests, cal), time.perf_counter() - t, cal


def chosen_shares(model_path, sha, requests, results, n_seq, n_gpu_layers, refill, first, rounds):
    """The engine's shares of the ceiling with ``refill`` in ``rounds`` pairs, each the engine
    then the ceiling (``first``: the pair already measured): one pair moves by several per
    cent with the machine's load, the median of pairs taken in turn much less."""
    shares = [first]
    for _ in range(rounds - 1):
        engine = timed_generate(model_path, sha, requests, n_seq, n_gpu_layers, refill)[0]
        shares.append(ceiling(model_path, requests, results, n_seq, n_gpu_layers) / engine)
    print(f"share of the ceiling, refill {refill}: {[round(x, 3) for x in shares]}", flush=True)
    return shares


def chosen_fields(cal, shares: list[float]) -> dict:
    """The schedule the calibration chose, the timings that chose it, and the engine's share
    of the ceiling with it (``shares``: :func:`share_rounds`)."""
    return {
        "chosen_refill": cal.refill,
        "calibration_schedules": {str(k): v for k, v in cal.schedules.items()},
        "share_chosen": round(statistics.median(shares), 3),
        "share_chosen_rounds": [round(s, 3) for s in shares],
        "goal_share_chosen": 0.95,
    }


def planner_fields(est, seconds: float, tokens: int, calibration_s: float) -> dict:
    """Estimate beside actual, and the error, for a bench's JSON line."""
    return {
        "estimate_s": round(est.seconds, 2),
        "estimate_interval_s": [round(est.seconds_low, 2), round(est.seconds_high, 2)],
        "actual_s": round(seconds, 2),
        "error_pct": round(100 * (est.seconds - seconds) / seconds, 1),
        # the interval covers output length, machine noise and model error
        # (engine.llm.planning.planner)
        "actual_in_interval": est.seconds_low <= seconds <= est.seconds_high,
        "noise": est.noise,
        "model_error": est.model_error,
        "estimate_tokens": est.output_tokens,
        "actual_tokens": tokens,
        "calibration_s": round(calibration_s, 2),
    }


def model_and_sha(path, embedded_path, embedded_sha) -> tuple[Path, str]:
    """``path`` (``--model``) and its sha256, or the embedded model's."""
    if path is None:
        return embedded_path(), embedded_sha()
    import hashlib

    with open(path, "rb") as fh:
        return path, hashlib.file_digest(fh, "sha256").hexdigest()


def host_time_main(model, sha, args) -> None:
    """The engine's host time per sequence-step beside the ceiling script's; one JSON line."""
    from bench.host_time import N_SEQS, host_time

    max_tokens = 16 if args.quick else 32
    prompts = [answer_prompt(q) for q in sample_questions(max(N_SEQS))]
    fields = host_time(
        model,
        sha,
        lambda n: prompt_requests(prompts[:n], max_tokens),
        n_gpu_layers=args.n_gpu_layers,
    )
    print(
        json.dumps(
            {
                "bench": "generation",
                "host_us_per_seq_step": fields,
                "max_tokens": max_tokens,
                "goal": {"engine_us_median_n_seq_32": 25},
                "quick": args.quick,
                "n_gpu_layers": args.n_gpu_layers,
                "load": os.getloadavg()[0],
            }
        )
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer prompts and tokens")
    ap.add_argument("--n-seq", type=int, default=16)
    ap.add_argument("--n-gpu-layers", type=int, default=0, help="-1 = all layers on the GPU")
    ap.add_argument("--rounds", type=int, default=3, help="engine/ceiling pairs for share_chosen")
    ap.add_argument("--model", type=Path, help="a GGUF instead of the embedded model")
    ap.add_argument(
        "--host-time",
        action="store_true",
        help="only the engine's host time per sequence-step at n_seq 8, 32, 128 (bench/host_time.py)",
    )
    args = ap.parse_args()
    from engine.llm.models.embedded_model import embedded_model_path, embedded_sha256
    from engine.llm.planning.schedule_choice import CANDIDATE_REFILLS

    model, sha = model_and_sha(args.model, embedded_model_path, embedded_sha256)
    threads = os.cpu_count() or 1
    if args.host_time:
        host_time_main(model, sha, args)
        return
    n_prompts, n_seq_prompts, max_tokens = (48, 8, 32) if args.quick else (128, 64, 64)
    prompts = [answer_prompt(q) for q in sample_questions(n_prompts)]
    ngl = args.n_gpu_layers

    est, cal_s, cal = planned(model, sha, prompt_requests(prompts, max_tokens), args.n_seq, ngl)
    print(f"schedule:   the calibration chose refill {cal.refill} ({cal.schedules})", flush=True)
    b_tok_s, b_tokens, b_sec, _, results = run_batched(
        model, sha, prompts, max_tokens, args.n_seq, ngl
    )
    print(f"batched:    {b_tokens} tokens in {b_sec:.1f} s = {b_tok_s:.1f} tok/s", flush=True)
    print(f"planner:    estimated {est.describe()}; took {b_sec:.1f} s", flush=True)
    w_tok_s, w_tokens, w_sec, _, _ = run_batched(
        model, sha, prompts, max_tokens, args.n_seq, ngl, 1
    )
    print(f"whole groups (refill 1): {w_sec:.1f} s = {w_tok_s:.1f} tok/s", flush=True)
    by_refill = {CANDIDATE_REFILLS[0]: b_sec, 1: w_sec}
    reqs = prompt_requests(prompts, max_tokens)
    c_sec = ceiling(model, reqs, results, args.n_seq, ngl)
    c_tok_s = b_tokens / c_sec
    print(f"ceiling:    {b_tokens} tokens in {c_sec:.1f} s = {c_tok_s:.1f} tok/s", flush=True)
    first = c_sec / by_refill[cal.refill]
    shares = chosen_shares(
        model, sha, reqs, results, args.n_seq, ngl, cal.refill, first, args.rounds
    )
    s_tok_s, s_tokens, s_sec = in_fresh_process(
        run_sequential, model, prompts[:n_seq_prompts], max_tokens, threads, ngl
    )
    print(f"sequential: {s_tokens} tokens in {s_sec:.1f} s = {s_tok_s:.1f} tok/s", flush=True)

    rubric = (resources.files("resources") / "prompts" / "judge.txt").read_text(encoding="utf-8")
    judge = [judge_prompt(rubric, q) for q in sample_questions(32 if args.quick else 64)]
    _, j_tokens, j_sec, stats, j_results = run_batched(model, sha, judge, 4, args.n_seq, ngl)
    jc_sec = ceiling(model, prompt_requests(judge, 4), j_results, args.n_seq, ngl)
    import llama_cpp

    from engine.llm.runtime.native_model import guard_high_level_api

    guard_high_level_api()
    vocab_only = llama_cpp.Llama(str(model), vocab_only=True, verbose=False)
    naive = sum(
        len(vocab_only.tokenize(p.encode(), add_bos=True, special=False)) for p in judge
    ) / len(judge)
    shared = stats["prompt_tokens_decoded"] / len(judge)
    print(
        f"judge workload: {len(judge)} items, shared prefix {stats['prefix_tokens']} tokens, "
        f"{shared:.1f} prompt tokens decoded per item vs {naive:.1f} naive ({j_sec:.1f} s, "
        f"ceiling {jc_sec:.1f} s)"
    )
    share, j_share = c_sec / b_sec, jc_sec / j_sec
    if share < 0.85 or j_share < 0.85 or b_tok_s / s_tok_s < 3.5:
        print(
            f"note: the engine reaches {100 * share:.0f} % (judge-shaped: {100 * j_share:.0f} %) "
            f"of llama.cpp's pure batched decode at n_seq {args.n_seq}; the ceiling itself is "
            f"{c_tok_s / s_tok_s:.2f}x the sequential baseline, so a ratio above that is "
            "out of reach on this machine"
        )
    print(
        json.dumps(
            {
                "batched_tok_s": round(b_tok_s, 1),
                "sequential_tok_s": round(s_tok_s, 1),
                "ratio": round(b_tok_s / s_tok_s, 2),
                "ceiling_tok_s": round(c_tok_s, 1),
                "engine_share": round(share, 3),
                "ceiling_ratio": round(c_tok_s / s_tok_s, 2),
                "whole_group_tok_s": round(w_tok_s, 1),
                "refill_gain": round(b_tok_s / w_tok_s, 3),
                "judge_s": round(j_sec, 2),
                "judge_ceiling_s": round(jc_sec, 2),
                "judge_engine_share": round(j_share, 3),
                "prefix_tokens_per_item": round(shared, 1),
                "naive_prefix_tokens_per_item": round(naive, 1),
                **chosen_fields(cal, shares),
                # the estimate is of the chosen schedule: beside that schedule's run
                "planner": planner_fields(
                    est,
                    by_refill[cal.refill],
                    b_tokens if cal.refill != 1 else w_tokens,
                    cal_s,
                ),
                "goal": {"engine_share": 0.85, "ratio": 3.5, "planner_error_pct": 25},
                "n_seq": args.n_seq,
                "threads": threads,
                "quick": args.quick,
                "n_gpu_layers": ngl,
                "load": os.getloadavg()[0],
            }
        )
    )


if __name__ == "__main__":
    main()
