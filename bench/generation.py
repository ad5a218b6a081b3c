"""Generation benchmark: the batched engine against llama-cpp-python's one-at-a-time API.

Same prompts (standard and dialect questions from resources/sample), the embedded model,
greedy, 64 new tokens each (--quick: 32). Measured in one run:
  batched_tok_s     generated tokens/s of the continuous-batching worker (16 sequences)
  sequential_tok_s  generated tokens/s of Llama.create_completion called once per prompt
  ratio             batched / sequential
and a judge-shaped workload (one long shared rubric + a short per-item part):
  prefix_tokens_per_item        prompt tokens actually decoded per item with prefix sharing
  naive_prefix_tokens_per_item  prompt tokens per item when each prompt is decoded whole
The last line of output is one JSON object.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from importlib import resources
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# the worker's thread policy, for the in-process baseline too (engine/llm/worker.py)
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


def timed_generate(model_path, sha, requests, n_seq, n_gpu_layers=0):
    """The batched engine over ``requests``, the model loaded outside the timing:
    (seconds, the scheduler's last stats, results); every result must be ok."""
    from engine.llm.local_backend import LocalGGUFBackend
    from engine.llm.settings import LoadOptions, Schedule

    with LocalGGUFBackend(
        model_path,
        sha256=sha,
        schedule=Schedule(n_seq=n_seq),
        load=LoadOptions(n_gpu_layers=n_gpu_layers),
    ) as backend:
        backend.worker()  # load outside the timing
        t = time.perf_counter()
        results = list(backend.generate(requests))
        seconds = time.perf_counter() - t
        stats = backend.worker().last_stats
    assert all(r.ok for r in results), [r.error for r in results if not r.ok][:3]
    return seconds, stats, results


def high_level_llama(model_path, threads, n_gpu_layers=0):
    """llama-cpp-python's one-at-a-time API on the same model: the baseline."""
    import llama_cpp

    from engine.llm.native_model import guard_high_level_api

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


def run_batched(model_path, sha, prompts, max_tokens, n_seq, n_gpu_layers=0):
    from engine.llm.types import Request, Sampler

    reqs = [
        Request(key=str(i), prompt=p, sampler=Sampler(max_tokens=max_tokens))
        for i, p in enumerate(prompts)
    ]
    seconds, stats, results = timed_generate(model_path, sha, reqs, n_seq, n_gpu_layers)
    tokens = sum(r.completion_tokens for r in results)
    return tokens / seconds, tokens, seconds, stats


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer prompts and tokens")
    ap.add_argument("--n-seq", type=int, default=16)
    ap.add_argument("--n-gpu-layers", type=int, default=0, help="-1 = all layers on the GPU")
    args = ap.parse_args()
    from engine.llm.embedded_model import embedded_model_path, embedded_sha256

    model, sha = embedded_model_path(), embedded_sha256()
    threads = os.cpu_count() or 1
    n_prompts, n_seq_prompts, max_tokens = (32, 8, 32) if args.quick else (64, 64, 64)
    prompts = [answer_prompt(q) for q in sample_questions(n_prompts)]

    b_tok_s, b_tokens, b_sec, _ = run_batched(
        model, sha, prompts, max_tokens, args.n_seq, args.n_gpu_layers
    )
    print(f"batched:    {b_tokens} tokens in {b_sec:.1f} s = {b_tok_s:.1f} tok/s", flush=True)
    s_tok_s, s_tokens, s_sec = run_sequential(
        model, prompts[:n_seq_prompts], max_tokens, threads, args.n_gpu_layers
    )
    print(f"sequential: {s_tokens} tokens in {s_sec:.1f} s = {s_tok_s:.1f} tok/s", flush=True)

    rubric = (resources.files("resources") / "prompts" / "judge.txt").read_text(encoding="utf-8")
    judge = [judge_prompt(rubric, q) for q in sample_questions(16 if args.quick else 32)]
    _, _, j_sec, stats = run_batched(model, sha, judge, 4, args.n_seq, args.n_gpu_layers)
    import llama_cpp

    from engine.llm.native_model import guard_high_level_api

    guard_high_level_api()
    vocab_only = llama_cpp.Llama(str(model), vocab_only=True, verbose=False)
    naive = sum(
        len(vocab_only.tokenize(p.encode(), add_bos=True, special=False)) for p in judge
    ) / len(judge)
    shared = stats["prompt_tokens_decoded"] / len(judge)
    print(
        f"judge workload: {len(judge)} items, shared prefix {stats['prefix_tokens']} tokens, "
        f"{shared:.1f} prompt tokens decoded per item vs {naive:.1f} naive ({j_sec:.1f} s)"
    )
    print(
        json.dumps(
            {
                "batched_tok_s": round(b_tok_s, 1),
                "sequential_tok_s": round(s_tok_s, 1),
                "ratio": round(b_tok_s / s_tok_s, 2),
                "prefix_tokens_per_item": round(shared, 1),
                "naive_prefix_tokens_per_item": round(naive, 1),
                "n_seq": args.n_seq,
                "threads": threads,
                "quick": args.quick,
                "n_gpu_layers": args.n_gpu_layers,
            }
        )
    )


if __name__ == "__main__":
    main()
