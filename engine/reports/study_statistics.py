"""All statistics of a study in one JSON-ready dict (``upabhasha stats``, the GUI, reports).

Scores are the primary judge's (or a chosen judge run's) *effective* finals: a human
override replaces the machine score. Paired tests compare dialects within each model on
the questions both were answered for; the Holm family is every such comparison of the call.
"""

from __future__ import annotations

import logging

from engine.errors import Step, UserError, step
from engine.judging import paired_scores, store
from engine.reports.coverage import study_coverage
from engine.reports.settings import STUDY_STATS, StudyStatsSettings
from engine.stats import nan_to_none
from engine.stats.paired import paired_tests
from engine.stats.summary import GROUPINGS, per_question, summarize
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)


def study_statistics(
    ws: Workspace,
    *,
    judge_run: int | None = None,
    settings: StudyStatsSettings = STUDY_STATS,
    danger_threshold: float = 4.0,
    review_threshold: int = 3,
    max_score: float = 10.0,
    groupings=("model_dialect", "dialect_domain", "dialect_type"),
) -> dict:
    run = judge_run if judge_run is not None else store.primary_judge(ws)
    if run is None:
        raise UserError(f"no judge run yet: run {step(Step.JUDGE)} first")
    if ws.scalar("SELECT kind FROM runs WHERE id = ?", (run,)) != store.JUDGE_KIND:
        raise UserError(f"run {run} is not a judge run")
    judged = store.scored_items(ws, run)
    # a flagged judgment (injection attempt, inconsistent verdict) is never a machine-only
    # score: until a person scores it, it stays out of the figures and is counted apart
    # (the one rule of engine.judging.judged_items, which the charts and PPI apply too)
    items = [i for i in judged if i["counted"]]
    flagged = [i for i in judged if i["flags"]]
    coverage = study_coverage(ws, run)
    out: dict = {
        "coverage": coverage,
        "partial": not coverage["complete"],
        "judge_run": run,
        "judge_model": ws.scalar(
            "SELECT m.name FROM runs r JOIN models m ON m.id = r.model_id WHERE r.id = ?", (run,)
        ),
        "n_items": len(items),
        "n_questions": len({i["question_id"] for i in items}),
        "n_human_overrides": sum(i["human_final"] is not None for i in items),
        "n_flagged": len(flagged),
        "judged_by": {
            "human": sum(i["human_final"] is not None for i in judged),
            "machine_only": sum(i["human_final"] is None and not i["flags"] for i in judged),
            "flagged_awaiting_review": len(judged) - len(items),
        },
        "flags": _flag_counts(flagged),
        "gates": _count(items, "gate"),
        "settings": {
            **settings.as_dict(),
            "danger_threshold": danger_threshold,
            "max_score": max_score,
        },
        "groups": {},
    }
    for name in groupings:
        out["groups"][name] = [
            nan_to_none(r)
            for r in summarize(
                items,
                GROUPINGS[name],
                max_score=max_score,
                level=settings.level,
                resamples=settings.resamples,
                seed=settings.seed,
            )
        ]
    out["paired_tests"] = _dialect_tests(items)
    out["agreement"], _pairings = paired_scores.judge_agreement(
        ws, threshold=danger_threshold, scale=max_score
    )
    out["warnings"] = store.self_preference_warnings(ws)
    if out["judged_by"]["flagged_awaiting_review"]:
        out["warnings"].insert(
            0,
            f"{out['judged_by']['flagged_awaiting_review']} flagged judgment(s) (answers "
            "addressing the judge, or verdicts the answer texts cannot support) wait for human "
            "review and are left out of these figures until a person scores them "
            f"({step(Step.QUEUE)}).",
        )
    if out["partial"]:
        out["warnings"].insert(0, partial_warning(coverage))
    out["review_queue"] = store.review_queue_size(ws, threshold=review_threshold, run_id=run)
    return out


def partial_warning(coverage: dict) -> str:
    return (
        f"PARTIAL STUDY: these statistics rest on {coverage['text']}. Missing items are not "
        "random (a failed step, a dead worker), so the figures may be biased; finish the "
        "steps (run them again to resume) before reporting."
    )


def _dialect_tests(items: list[dict]) -> list[dict]:
    """Within each model: every pair of dialects, paired by question; one Holm family."""
    by_model: dict[str, list[dict]] = {}
    for item in items:
        by_model.setdefault(item["model"], []).append(item)
    labelled, pairs = {}, []
    for model, rows in sorted(by_model.items()):
        groups = per_question(rows, ("dialect",))
        names = sorted(groups)
        for d in names:
            labelled[f"{model} | {d}"] = groups[d]
        pairs += [
            (f"{model} | {a}", f"{model} | {b}")
            for i, a in enumerate(names)
            for b in names[i + 1 :]
        ]
    return [c.as_dict() for c in paired_tests(labelled, pairs)]


def _flag_counts(items) -> dict:
    counts: dict = {}
    for item in items:
        for flag in item["flags"].split(","):
            counts[flag] = counts.get(flag, 0) + 1
    return counts


def _count(items, key) -> dict:
    counts: dict = {}
    for item in items:
        counts[item[key]] = counts.get(item[key], 0) + 1
    return counts
