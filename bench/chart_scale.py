"""How chart data and the workspace watcher grow with the study: ×1, ×3, ×10 the paper's.

For each scale N it builds the synthetic study of :mod:`bench.gui_latency` (19 models,
400·N questions × standard + 9 dialects; ×10 is 760,000 responses and 683,950 primary
judgments), computes every chart once in full, then streams batches of the held-back
primary judgments (and as many of the secondary judge's, so the agreement pairs grow too)
and times each chart's *live* refresh (the previous result extended, the live resamples),
the watcher's poll with and without a change, and the full computation for comparison.
A live refresh should cost the new judgments, not the study: its ×10/×1 ratio is the
figure to watch (the machine is shared, so absolute times vary between runs; ratios within
one run do not).

``--quick``: scales 1 and 10 only, two live batches. Last line: one JSON object.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

BATCH = 300
SCORE_COLUMNS = ("comprehension", "correctness", "completeness", "clarity", "length")


def measure(scale: int, folder: Path, batches: int) -> dict:
    from bench.gui_latency import MISSING, MODELS, QUESTIONS
    from engine.reports import chart_data as cd
    from engine.samples.study import (
        add_synthetic_questions,
        add_synthetic_study,
        stream_judgments,
    )
    from engine.workspace.changes import ChangeTracker
    from engine.workspace.schema import DIALECTS
    from engine.workspace.store import Workspace

    path = folder / f"scale{scale}.sqlite"
    started = time.perf_counter()
    with Workspace(path) as ws:
        add_synthetic_questions(
            ws, QUESTIONS * scale, [d[0] for d in DIALECTS if d[0] != "standard"]
        )
        dialect_answers = MODELS * QUESTIONS * scale * 9
        study = add_synthetic_study(
            ws,
            models=MODELS,
            missing=MISSING * scale,
            secondary_share=0.25,
            hold_back=(batches + 1) * BATCH / dialect_answers,
            seed=0,
        )
        judgments = ws.scalar("SELECT count(*) FROM judgments")
        responses = ws.scalar("SELECT count(*) FROM responses")
    build_s = time.perf_counter() - started
    primary, secondary = study.judge_runs
    held = study.held_back
    # the secondary judge catches up on answers the primary judged (agreement pairs grow)
    with Workspace(path, create=False) as ws:
        extra = [
            {
                **r,
                "final": min(10.0, r["final"] + 0.5),
                "scores": {k: r[k] for k in SCORE_COLUMNS},
            }
            for r in ws.query(
                "SELECT response_id, gate, confidence, final, reasoning, "
                f"{', '.join(SCORE_COLUMNS)} FROM judgments WHERE run_id = ? "
                "AND response_id NOT IN (SELECT response_id FROM judgments WHERE run_id = ?) "
                "LIMIT ?",
                (primary, secondary, batches * BATCH),
            )
        ]
    p = str(path)
    full_ms, previous = {}, {}
    for kind in cd.CHART_KINDS:
        t0 = time.perf_counter()
        previous[kind] = cd.chart_data(p, kind)
        full_ms[kind] = (time.perf_counter() - t0) * 1000
    tracker = ChangeTracker(path)
    live_ms: dict[str, list[float]] = {k: [] for k in cd.CHART_KINDS}
    idle_poll_ms, change_poll_ms = [], []
    for b in range(batches):
        stream_judgments(p, primary, held[b * BATCH : (b + 1) * BATCH], batch=BATCH, pause_s=0)
        stream_judgments(p, secondary, extra[b * BATCH : (b + 1) * BATCH], batch=BATCH, pause_s=0)
        t0 = time.perf_counter()
        tracker.poll()
        change_poll_ms.append((time.perf_counter() - t0) * 1000)
        for _ in range(20):
            t0 = time.perf_counter()
            tracker.poll()
            idle_poll_ms.append((time.perf_counter() - t0) * 1000)
        for kind in cd.CHART_KINDS:
            t0 = time.perf_counter()
            previous[kind] = cd.chart_data(
                p, kind, resamples=cd.LIVE_RESAMPLES, previous=previous[kind]
            )
            live_ms[kind].append((time.perf_counter() - t0) * 1000)
    tracker.close()
    path.unlink()
    return {
        "scale": scale,
        "responses": responses,
        "judgments": judgments,
        "build_s": round(build_s, 1),
        "live_ms": {k: round(statistics.median(v), 1) for k, v in live_ms.items()},
        "full_ms": {k: round(v, 1) for k, v in full_ms.items()},
        "watcher_idle_poll_ms": round(statistics.median(idle_poll_ms), 3),
        "watcher_change_poll_ms": round(statistics.median(change_poll_ms), 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="scales 1 and 10, two batches")
    parser.add_argument("--scales", default=None, help="comma-separated (default 1,3,10)")
    args = parser.parse_args(argv)
    scales = [int(s) for s in (args.scales or ("1,10" if args.quick else "1,3,10")).split(",")]
    batches = 2 if args.quick else 4
    folder = Path(tempfile.mkdtemp(prefix="upabhasha-chart-scale-"))
    try:
        results = [measure(scale, folder, batches) for scale in scales]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    for r in results:
        print(json.dumps(r), file=sys.stderr)
    base, top = results[0], results[-1]
    growth = {
        k: round(top["live_ms"][k] / base["live_ms"][k], 2)
        for k in top["live_ms"]
        if base["live_ms"][k]
    }
    print(
        json.dumps(
            {
                "live_ms_by_scale": {r["scale"]: r["live_ms"] for r in results},
                "full_ms_by_scale": {r["scale"]: r["full_ms"] for r in results},
                "live_growth": growth,
                "live_growth_scales": [base["scale"], top["scale"]],
                "watcher_change_poll_ms_by_scale": {
                    r["scale"]: r["watcher_change_poll_ms"] for r in results
                },
                "watcher_idle_poll_ms_by_scale": {
                    r["scale"]: r["watcher_idle_poll_ms"] for r in results
                },
                "judgments_by_scale": {r["scale"]: r["judgments"] for r in results},
                "batch": BATCH,
                "batches": batches,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
