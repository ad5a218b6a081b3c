"""The demo's steps timed: ``upabhasha demo`` in a fresh temporary folder, each step's seconds.

Runs app.cli.demo.run_demo (the same steps ``make demo`` runs, embedded model, bundled sample
data) with its step hook, the demo's own output in a log beside the workspace. Prints one
line per step (named by its sub-command: init, import corpus, index, translate, generate,
judge, stats, report ...), the total, the machine load (os.getloadavg, 1 min) at start and
end, and what the judge step decoded (replies, their prompt tokens counted whole — the shared
rubric prefix is decoded once per plan group — and output tokens, from its run). The
figures the demo reports are summed up as ``figures_sha256`` (every judgment's scores,
confidence, final and flags, by question and dialect): equal hashes, equal statistics.
The last line of output is one JSON object.

    python bench/demo_steps.py [--quick] [--keep DIR]

--quick: 4 questions in one dialect (a smoke run; the default is the demo's own 12 questions
in three dialects).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # the worker's thread policy


def step_name(argv: list[str]) -> str:
    """The sub-command of a demo step's arguments (``-w FILE`` first): 'import corpus', …"""
    words = argv[2:]
    return " ".join(words[:2] if words[0] in ("import", "review") else words[:1])


def judge_work(db: Path) -> dict:
    """What the judge runs decoded: replies, prompt and output tokens, and the seconds
    the job engine recorded for its decoding."""
    conn = sqlite3.connect(db)
    try:
        items, prompt, output = conn.execute(
            "SELECT count(*), coalesce(sum(prompt_tokens), 0), "
            "coalesce(sum(completion_tokens), 0) FROM responses p JOIN runs r "
            "ON r.id = p.run_id WHERE r.kind = 'judge' AND p.status = 'done'"
        ).fetchone()
        cards = [
            json.loads(c) for (c,) in conn.execute("SELECT card FROM runs WHERE kind = 'judge'")
        ]
    finally:
        conn.close()
    decode_s = sum(c.get("plan_timing", {}).get("actual", {}).get("seconds", 0.0) for c in cards)
    schedules = [c.get("schedule") for c in cards]
    return {
        "judge_replies": items,
        "judge_prompt_tokens": prompt,
        "judge_output_tokens": output,
        "judge_decode_s": round(decode_s, 1),
        "judge_schedule": schedules[0] if len(schedules) == 1 else schedules,
    }


def figures_sha256(db: Path) -> tuple[str, int]:
    """A hash of every judgment the statistics read, keyed by content (not row ids)."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute(
            "SELECT v.question_id, v.dialect, j.gate, j.comprehension, j.correctness, "
            "j.completeness, j.clarity, j.length, j.confidence, j.final, j.flags "
            "FROM judgments j JOIN responses r ON r.id = j.response_id "
            "JOIN variants v ON v.id = r.variant_id ORDER BY v.question_id, v.dialect"
        ).fetchall()
    finally:
        conn.close()
    return hashlib.sha256(json.dumps(rows).encode()).hexdigest()[:16], len(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="4 questions, one dialect")
    ap.add_argument("--keep", metavar="DIR", help="run in DIR (kept) instead of a temporary one")
    args = ap.parse_args()
    from app.cli.demo import DEMO_DIALECTS, DEMO_QUESTIONS, run_demo

    questions, dialects = (4, "chittagong") if args.quick else (DEMO_QUESTIONS, DEMO_DIALECTS)
    steps: list[tuple[str, float]] = []

    def on_step(_title: str, argv: list[str], seconds: float) -> None:
        steps.append((step_name(argv), seconds))
        print(f"{steps[-1][0]:<17} {seconds:7.1f} s", file=sys.__stdout__, flush=True)

    with contextlib.ExitStack() as stack:
        folder = Path(args.keep or stack.enter_context(tempfile.TemporaryDirectory()))
        log = stack.enter_context((folder / "demo.log").open("w", encoding="utf-8"))
        load_start = os.getloadavg()[0]
        print(f"demo in {folder}, load {load_start:.2f}", flush=True)
        started = time.monotonic()
        with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
            run_demo(folder, questions=questions, dialects=dialects, on_step=on_step)
        total = time.monotonic() - started
        load_end = os.getloadavg()[0]
        db = folder / "demo.sqlite"
        work = judge_work(db)
        sha, judgments = figures_sha256(db)
    print(f"{'total':<17} {total:7.1f} s (load {load_start:.2f} -> {load_end:.2f})")
    print(
        f"judge: {work['judge_replies']} replies, {work['judge_prompt_tokens']} prompt and "
        f"{work['judge_output_tokens']} output tokens, decoding {work['judge_decode_s']} s; "
        f"{judgments} judgments, figures {sha}"
    )
    print(
        json.dumps(
            {
                "steps_s": {name: round(seconds, 1) for name, seconds in steps},
                "total_s": round(total, 1),
                "load_start": round(load_start, 2),
                "load_end": round(load_end, 2),
                **work,
                "judgments": judgments,
                "figures_sha256": sha,
                "goal_total_s": 120,
                "questions": questions,
                "dialects": dialects,
                "quick": args.quick,
                "threads": os.cpu_count(),
            }
        )
    )


if __name__ == "__main__":
    main()
