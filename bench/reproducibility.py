"""Do reruns reproduce? ``upabhasha demo`` in fresh folders, compared item by item.

Runs the demo (embedded model, bundled sample data) three times, each in a fresh folder:

- A and B uninterrupted (B is A's baseline: identical runs must give identical bytes);
- C killed at random moments — alternately the whole process group (main process and model
  worker, ``kill -9``) and the model worker alone — and rerun until it finishes.

Compared by content (question, dialect), not by row ids: every translation, answer and raw
judge reply, every judgment (scores, confidence, final, flags), and the ``stats --json``
output. Prints one JSON object last, with the number of kills.

    python bench/reproducibility.py [--quick] [--kills N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CLI = "import sys; from app.cli import main; sys.exit(main(sys.argv[1:]))"


def cli(args: list[str], **kw) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen(
        [sys.executable, "-c", CLI, *args],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        **kw,
    )


def demo_args(folder: Path, questions: int, dialects: str) -> list[str]:
    return ["demo", "--out", str(folder), "--questions", str(questions), "--dialects", dialects]


def run_to_end(args: list[str], attempts: int = 6) -> int:
    """Run; a step left incomplete (exit 3: a worker was killed) is run again."""
    code = -1
    for _ in range(attempts):
        proc = cli(args)
        _, err = proc.communicate()
        code = proc.returncode
        if code == 0:
            return 0
        if code != 3:
            sys.stderr.write(err.decode(errors="replace")[-2000:])
            return code
    return code


def children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def killed_run(args, kills: int, rng: random.Random, window: tuple[float, float]) -> dict:
    done = {"group": 0, "worker": 0}
    while done["group"] + done["worker"] < kills:
        proc = cli(args)
        time.sleep(rng.uniform(*window))
        if proc.poll() is not None:  # finished (or stopped at an incomplete step) first
            proc.communicate()
            if proc.returncode == 0:
                break
            continue
        workers = children(proc.pid)
        if (done["group"] + done["worker"]) % 2 == 1 and workers:
            for w in workers:  # the model worker only: the step ends incomplete (exit 3)
                os.kill(w, signal.SIGKILL)
            done["worker"] += 1
            proc.communicate()
        else:
            os.killpg(proc.pid, signal.SIGKILL)  # main process and worker
            done["group"] += 1
            proc.wait()
    return done


def contents(db: Path) -> dict:
    conn = sqlite3.connect(db)
    try:
        out: dict = {}
        for kind, key, text in conn.execute(
            """
            SELECT r.kind, p.item_key, p.text FROM responses p JOIN runs r ON r.id = p.run_id
            WHERE r.kind = 'translate' AND p.status = 'done'
            UNION ALL
            SELECT r.kind, v.question_id || ':' || v.dialect, p.text
            FROM responses p JOIN runs r ON r.id = p.run_id JOIN variants v ON v.id = p.variant_id
            WHERE r.kind = 'answer' AND p.status = 'done'
            UNION ALL
            SELECT r.kind, v.question_id || ':' || v.dialect, p.text
            FROM responses p JOIN runs r ON r.id = p.run_id
            JOIN responses d ON d.id = CAST(substr(p.item_key, 2) AS INTEGER)
            JOIN variants v ON v.id = d.variant_id
            WHERE r.kind = 'judge' AND p.status = 'done'"""
        ):
            out[f"{kind}|{key}"] = text
        judgments = {
            f"{q}:{d}": rest
            for q, d, *rest in conn.execute(
                """SELECT v.question_id, v.dialect, j.gate, j.comprehension, j.correctness,
                          j.completeness, j.clarity, j.length, j.confidence, j.final, j.flags
                   FROM judgments j JOIN responses d ON d.id = j.response_id
                   JOIN variants v ON v.id = d.variant_id"""
            )
        }
        return {"responses": out, "judgments": judgments}
    finally:
        conn.close()


def stats(db: Path) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", CLI, "-w", str(db), "stats", "--json", "--resamples", "500"],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        check=True,
    )
    return json.loads(proc.stdout)


def differ(a: dict, b: dict) -> int:
    return sum(a.get(k) != b.get(k) for k in set(a) | set(b))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="3 questions, 2 dialects")
    parser.add_argument("--questions", type=int, default=None)
    parser.add_argument("--dialects", default=None)
    parser.add_argument("--kills", type=int, default=4)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--keep", action="store_true", help="keep the demo folders")
    args = parser.parse_args()
    questions = args.questions or (3 if args.quick else 12)
    dialects = args.dialects or (
        "chittagong,sylhet" if args.quick else "chittagong,sylhet,noakhali"
    )
    rng = random.Random(args.seed)
    root = Path(tempfile.mkdtemp(prefix="upabhasha-repro-"))
    timings, results = {}, {}
    for name in ("A", "B"):
        start = time.monotonic()
        code = run_to_end(demo_args(root / name, questions, dialects))
        timings[name] = round(time.monotonic() - start, 1)
        if code != 0:
            print(json.dumps({"error": f"demo {name} exited {code}"}))
            return 1
        results[name] = contents(root / name / "demo.sqlite")
    start = time.monotonic()
    # kill within the demo's own span, so the kills land in every step
    window = (3.0, max(6.0, timings["A"] * 0.25))
    kills = killed_run(demo_args(root / "C", questions, dialects), args.kills, rng, window)
    code = run_to_end(demo_args(root / "C", questions, dialects))
    timings["C"] = round(time.monotonic() - start, 1)
    if code != 0:
        print(json.dumps({"error": f"resumed demo exited {code}", "kills": kills}))
        return 1
    results["C"] = contents(root / "C" / "demo.sqlite")
    st = {n: stats(root / n / "demo.sqlite") for n in ("A", "B", "C")}
    a, b, c = results["A"], results["B"], results["C"]
    summary = {
        "questions": questions,
        "dialects": dialects,
        "responses": len(a["responses"]),
        "judgments": len(a["judgments"]),
        "fresh_B_vs_A": {
            "responses_differ": differ(a["responses"], b["responses"]),
            "judgments_differ": differ(a["judgments"], b["judgments"]),
            "stats_identical": st["A"] == st["B"],
        },
        "killed_C_vs_A": {
            "kills_main_and_worker": kills["group"],
            "kills_worker_only": kills["worker"],
            "responses_differ": differ(a["responses"], c["responses"]),
            "judgments_differ": differ(a["judgments"], c["judgments"]),
            "stats_identical": st["A"] == st["C"],
        },
        "coverage": st["A"]["coverage"]["text"],
        "mean_final": [
            st[n]["groups"]["model_dialect"][0]["mean"]
            if st[n]["groups"]["model_dialect"]
            else None
            for n in ("A", "B", "C")
        ],
        "seconds": timings,
        "folder": str(root) if args.keep else None,
    }
    if not args.keep:
        import shutil

        shutil.rmtree(root, ignore_errors=True)
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
