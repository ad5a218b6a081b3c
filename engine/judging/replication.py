"""Replicating a judge run: the spread of the final scores its replies decode to.

``replicate(ws, run_id, ...)`` is :func:`engine.llm.runs.replicate.replicate_run` with, for judge
runs, the sampled replies parsed as verdicts then and now: the mean final score of the sample
both times, the mean absolute difference and the largest (0-10 by the bundled rubric).
"""

from __future__ import annotations

import statistics

from engine.judging.rubric import load_rubric
from engine.judging.store import JUDGE_KIND
from engine.judging.verdict import VerdictError, parse_verdict
from engine.llm.runs.replicate import Replication, replicate_run
from engine.workspace.store import Workspace


def replicate(ws: Workspace, run_id: int, **options) -> Replication:
    kind = ws.scalar("SELECT kind FROM runs WHERE id = ?", (run_id,))
    spread = final_spread if kind == JUDGE_KIND else None
    return replicate_run(ws, run_id, spread=spread, **options)


def final_spread(keys: list[str], stored: dict, fresh: dict) -> dict:
    """Final scores of the sampled judge replies, as stored and as decoded again."""
    rubric = load_rubric()
    then, now = [], []
    for key in keys:
        if fresh.get(key) is None:
            continue
        try:
            a = parse_verdict(stored[key], rubric)
            b = parse_verdict(fresh[key], rubric)
        except VerdictError:
            continue
        then.append(rubric.final_score(a.scores))
        now.append(rubric.final_score(b.scores))
    if not then:
        return {"n": 0}
    diffs = [abs(x - y) for x, y in zip(then, now)]
    return {
        "n": len(then),
        "scale": rubric.max_score,
        "mean_then": round(statistics.fmean(then), 4),
        "mean_now": round(statistics.fmean(now), 4),
        "mean_abs_diff": round(statistics.fmean(diffs), 4),
        "max_abs_diff": round(max(diffs), 4),
    }
