"""Group judged items and report mean final score, clustered CI and degradation.

Scores already measure the dialect answer *relative to* the standard answer (10 = no loss),
so degradation relative to standard is ``max_score − final``: the points lost by asking in
the dialect, reported with the same clustered interval (mirrored) and as a share of the
scale. Every row carries n (items) and n_questions (clusters).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from engine.stats.bootstrap import DEFAULT_RESAMPLES, clustered_mean_ci

GROUPINGS = {
    "model_dialect": ("model", "dialect"),
    "dialect": ("dialect",),
    "dialect_domain": ("dialect", "domain"),
    "dialect_type": ("dialect", "question_type"),
    "model": ("model",),
}


def summarize(
    rows: Iterable[dict],
    by: Sequence[str],
    *,
    max_score: float = 10.0,
    level: float = 0.95,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> list[dict]:
    """One summary per distinct combination of ``by`` over rows with ``final`` and
    ``question_id`` (the cluster)."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for row in rows:
        groups[tuple(row[k] for k in by)].append(row)
    out = []
    for key in sorted(groups, key=lambda t: tuple("" if v is None else str(v) for v in t)):
        items = groups[key]
        ci = clustered_mean_ci(
            [r["final"] for r in items],
            [r["question_id"] for r in items],
            level=level,
            resamples=resamples,
            seed=seed,
        )
        summary = dict(zip(by, key))
        summary.update(
            n=ci.n,
            n_questions=ci.n_clusters,
            mean=ci.mean,
            ci_low=ci.low,
            ci_high=ci.high,
            degradation=max_score - ci.mean,
            degradation_low=max_score - ci.high,
            degradation_high=max_score - ci.low,
            degradation_share=(max_score - ci.mean) / max_score,
        )
        out.append(summary)
    return out


def per_question(rows: Iterable[dict], group_by: Sequence[str]) -> dict[str, dict]:
    """{group label → {question id → mean final}}: the input of paired tests."""
    acc: dict[str, dict] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        label = " / ".join(str(row[k]) for k in group_by)
        acc[label][row["question_id"]].append(row["final"])
    return {g: {q: sum(v) / len(v) for q, v in qs.items()} for g, qs in acc.items()}
