"""Bias results: every probe reply classified, then counted per model × set × category ×
subcategory × occupation mixing, with scores, CIs, rates, position and mixing effects.

Replies are classified when the statistics are computed, with the normalisation table's
current version (printed with the results), so mapping a phrase updates every number.
"""

from __future__ import annotations

import collections
import json
from dataclasses import dataclass
from typing import Any, TypedDict

import numpy as np

from engine.bias.normalise import NormalisationTable, load_table
from engine.bias.order import parse_item_key, render, shown_sides
from engine.bias.run import PROBE_KIND
from engine.bias.stats import (
    BAND_NOTE,
    BIAS_STATS,
    NO_GROUP_ANSWERS,
    BiasStatsSettings,
    band,
    bias_score,
    difference_ci,
    paired_shift_ci,
    score_ci,
    zero_note,
)
from engine.bias.topics import Topic
from engine.stats import nan_to_none
from engine.stats.bootstrap import clustered_mean_ci
from engine.workspace.store import Workspace

RULE_NOTE = {
    "limit": "zero-count rule 'limit': Cx=0 -> -1, Cy=0 -> +1 (the formula's limit), flagged",
    "haldane": "zero-count rule 'haldane': ½ added to both counts when either is zero, flagged",
}


@dataclass(frozen=True)
class Reply:
    run_id: int
    mode: str  # how the run asked: free/constrained, drawn order/counterbalanced
    model: str
    probe_set: str
    topic: str
    probe_id: int
    ext_id: str
    category: str
    subcategory: str
    occupation_mixed: int
    order: str
    prompt: str  # as shown, options in the order asked
    text: str
    outcome: str
    first_chosen: bool | None  # the option shown first was chosen (group answers only)
    key: str  # normalised first sentence
    reason: str


def classified_replies(
    ws: Workspace, table: NormalisationTable | None = None, run_ids: list[int] | None = None
) -> list[Reply]:
    table = table or load_table(ws)
    runs = ws.query(
        "SELECT r.id, r.card, m.name AS model FROM runs r LEFT JOIN models m ON m.id = r.model_id "
        "WHERE r.kind = ? ORDER BY r.id",
        (PROBE_KIND,),
    )
    sets = {s["name"]: s for s in ws.query("SELECT * FROM probe_sets")}
    out: list[Reply] = []
    for run in runs:
        if run_ids and run["id"] not in run_ids:
            continue
        card = json.loads(run["card"])
        pset = sets.get(card.get("probe_set"))
        if pset is None:
            continue
        topic = Topic(pset["topic"], pset["group_x"], pset["group_y"])
        mode = run_mode(card)
        probes = {
            p["id"]: p
            for p in ws.query("SELECT * FROM probe_items WHERE set_id = ?", (pset["id"],))
        }
        for resp in ws.query(
            "SELECT item_key, text FROM responses WHERE run_id = ? AND status = 'done' ORDER BY id",
            (run["id"],),
        ):
            parsed = parse_item_key(resp["item_key"])
            if parsed is None or parsed[0] not in probes:
                continue
            pid, order = parsed
            p = probes[pid]
            shown = shown_sides(order)
            verdict = table.classify(resp["text"], topic, shown, (p["option_x"], p["option_y"]))
            first = verdict.outcome == shown[0] if verdict.outcome in ("x", "y") else None
            out.append(
                Reply(
                    run["id"],
                    mode,
                    run["model"] or f"run {run['id']}",
                    pset["name"],
                    pset["topic"],
                    pid,
                    p["ext_id"],
                    p["category"],
                    p["subcategory"],
                    p["occupation_mixed"],
                    order,
                    render(p["stem"], p["option_x"], p["option_y"], order),
                    resp["text"] or "",
                    verdict.outcome,
                    first,
                    verdict.key,
                    verdict.reason,
                )
            )
    return out


def run_mode(card: dict) -> str:
    order = card.get("order") or {}
    how = "counterbalanced" if order.get("counterbalance") else f"order seed {order.get('seed')}"
    ins = card.get("instruction")
    told = f"instruction {ins['sha256'][:8]}" if ins else "no instruction"
    return f"{'constrained' if card.get('constrained') else 'free'}, {how}, {told}"


def _run_key(r: Reply) -> dict:
    return {"run_id": r.run_id, "model": r.model, "probe_set": r.probe_set, "mode": r.mode}


def _by_ext(replies: list[Reply]) -> dict[str, list[int]]:
    counts: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    for r in replies:
        c = counts[r.ext_id]
        c[0] += r.outcome == "x"
        c[1] += r.outcome == "y"
    return counts


def _bootstrap(settings: BiasStatsSettings) -> dict:
    """The keyword arguments of the interval functions of :mod:`engine.bias.stats`."""
    return {
        "rule": settings.zero_rule,
        "level": settings.level,
        "resamples": settings.resamples,
        "seed": settings.seed,
    }


def dialect_shifts(
    by_run: dict[int, list[Reply]], sets: dict[str, dict], settings: BiasStatsSettings
) -> list[dict]:
    """Per dialect run: score change from the standard run of the same model and mode, per
    category and overall, paired over the probes both runs answered."""
    rule = settings.zero_rule
    by_id = {s["id"]: s for s in sets.values()}
    out = []
    for run_id, rs in sorted(by_run.items()):
        s = sets[rs[0].probe_set]
        if s["dialect"] == "standard" or s["base_set_id"] not in by_id:
            continue
        base = by_id[s["base_set_id"]]["name"]
        standard = next(
            (
                rr
                for rr in by_run.values()
                if rr[0].probe_set == base
                and rr[0].model == rs[0].model
                and rr[0].mode == rs[0].mode
            ),
            None,
        )
        if standard is None:
            out.append(
                {
                    **_run_key(rs[0]),
                    "dialect": s["dialect"],
                    "category": "(all)",
                    "note": f"no run of {base} with the same model and mode to compare",
                }
            )
            continue
        cells: dict[tuple, tuple[list, list]] = collections.defaultdict(lambda: ([], []))
        for r in standard:
            cells[(r.category, r.subcategory, r.occupation_mixed)][0].append(r)
            cells[("(all)", "", 0)][0].append(r)
        for r in rs:
            cells[(r.category, r.subcategory, r.occupation_mixed)][1].append(r)
            cells[("(all)", "", 0)][1].append(r)
        for (cat, sub, mixed), (std, dia) in sorted(cells.items()):
            a, b = _by_ext(std), _by_ext(dia)
            common = sorted(set(a) & set(b))
            if not common:
                continue
            sx, sy = zip(*(a[e] for e in common))
            dx, dy = zip(*(b[e] for e in common))
            ci = paired_shift_ci((sx, sy), (dx, dy), **_bootstrap(settings))
            out.append(
                nan_to_none(
                    {
                        **_run_key(rs[0]),
                        "dialect": s["dialect"],
                        "standard_run_id": standard[0].run_id,
                        "category": cat,
                        "subcategory": sub,
                        "occupation_mixed": bool(mixed),
                        "n_probes": len(common),
                        "standard_score": bias_score(sum(sx), sum(sy), rule),
                        "dialect_score": bias_score(sum(dx), sum(dy), rule),
                        "shift": ci.score,
                        "ci_low": ci.low,
                        "ci_high": ci.high,
                    }
                )
            )
    return out


def _per_probe(replies: list[Reply]) -> tuple[np.ndarray, np.ndarray]:
    counts: dict[int, list[int]] = collections.defaultdict(lambda: [0, 0])
    for r in replies:
        c = counts[r.probe_id]
        if r.outcome == "x":
            c[0] += 1
        elif r.outcome == "y":
            c[1] += 1
    arr = np.array(list(counts.values()), dtype=float).reshape(-1, 2)
    return arr[:, 0], arr[:, 1]


def _pooled(replies: list[Reply], rule: str) -> float:
    cx, cy = _per_probe(replies)
    return bias_score(float(cx.sum()), float(cy.sum()), rule)


def _group_row(key: dict, replies: list[Reply], settings: BiasStatsSettings) -> dict:
    outcomes = collections.Counter(r.outcome for r in replies)
    n = len(replies)
    cx, cy = outcomes["x"], outcomes["y"]
    ci = score_ci(*_per_probe(replies), **_bootstrap(settings))
    rule = settings.zero_rule
    score = bias_score(cx, cy, rule)
    return nan_to_none(
        {
            **key,
            "n": n,
            "n_probes": len({r.probe_id for r in replies}),
            "count_x": cx,
            "count_y": cy,
            "both_neither": outcomes["both_neither"],
            "refusal": outcomes["refusal"],
            "unparseable": outcomes["unparseable"],
            "refusal_rate": outcomes["refusal"] / n if n else None,
            "neutral_rate": outcomes["both_neither"] / n if n else None,
            "unparseable_rate": outcomes["unparseable"] / n if n else None,
            "score": score,
            "ci_low": ci.low,
            "ci_high": ci.high,
            "ci_dropped": ci.dropped,
            "zero_count": zero_note(cx, cy, rule),
            "band": band(score),
            # why the score or its interval has no value (front ends print it, never a number)
            "undefined": _undefined_reason(cx, cy, ci),
        }
    )


def _undefined_reason(cx: int, cy: int, ci) -> str | None:
    if cx == 0 and cy == 0:
        return NO_GROUP_ANSWERS
    if ci.resamples == 0:
        return "interval: fewer than two probes"
    if ci.dropped == ci.resamples:
        return "interval: no resample has a group answer"
    return None


class BiasStatistics(TypedDict):
    """:func:`bias_statistics` (``upabhasha bias-stats --json``, the Social bias panel): the
    figures, rows per run and group, and the settings they were computed with."""

    dialect_shift: list[dict[str, Any]]
    scale: str
    zero_rule: str
    zero_rule_note: str
    bands: str
    ci: str
    ci_level: float
    resamples: int
    seed: int
    normalisation_version: str
    n_replies: int
    groups: list[dict[str, Any]]
    overall: list[dict[str, Any]]
    position: list[dict[str, Any]]
    occupation_mixing: list[dict[str, Any]]


def bias_statistics(ws: Workspace, settings: BiasStatsSettings = BIAS_STATS) -> BiasStatistics:
    """Every bias figure of the workspace, computed with ``settings`` (zero-count rule,
    bootstrap resamples, seed, level), which the result records."""
    rule = settings.zero_rule
    table = load_table(ws)
    replies = classified_replies(ws, table)
    sets = {s["name"]: s for s in ws.query("SELECT * FROM probe_sets")}
    groups: dict[tuple, list[Reply]] = collections.defaultdict(list)
    for r in replies:
        groups[(r.run_id, r.category, r.subcategory, r.occupation_mixed)].append(r)
    rows = []
    for (run_id, cat, sub, mixed), rs in sorted(groups.items()):
        s = sets[rs[0].probe_set]
        key = {
            **_run_key(rs[0]),
            "topic": s["topic"],
            "group_x": s["group_x"],
            "group_y": s["group_y"],
            "category": cat,
            "subcategory": sub,
            "occupation_mixed": bool(mixed),
        }
        rows.append(_group_row(key, rs, settings))
    by_run: dict[int, list[Reply]] = collections.defaultdict(list)
    for r in replies:
        by_run[r.run_id].append(r)
    position, overall = [], []
    for _, rs in sorted(by_run.items()):
        s = sets[rs[0].probe_set]
        overall.append(
            _group_row(
                {
                    **_run_key(rs[0]),
                    "topic": s["topic"],
                    "group_x": s["group_x"],
                    "group_y": s["group_y"],
                },
                rs,
                settings,
            )
        )
        chosen = [(r.probe_id, float(r.first_chosen)) for r in rs if r.first_chosen is not None]
        ci = (
            clustered_mean_ci(
                [v for _, v in chosen],
                [p for p, _ in chosen],
                level=settings.level,
                resamples=settings.resamples,
                seed=settings.seed,
            )
            if chosen
            else None
        )
        position.append(
            nan_to_none(
                {
                    **_run_key(rs[0]),
                    "n": len(chosen),
                    "first_option_share": ci.mean if ci else None,
                    "ci_low": ci.low if ci else None,
                    "ci_high": ci.high if ci else None,
                    "orders": dict(collections.Counter(r.order for r in rs)),
                }
            )
        )
    mixing = []
    for (run_id, cat, sub, mixed), rs in sorted(groups.items()):
        if not mixed:
            continue
        base = groups.get((run_id, cat, sub, 0))
        if not base:
            continue
        d = difference_ci(_per_probe(rs), _per_probe(base), **_bootstrap(settings))
        mixing.append(
            nan_to_none(
                {
                    **_run_key(rs[0]),
                    "category": cat,
                    "subcategory": sub,
                    "with_occupation": _pooled(rs, rule),
                    "without": _pooled(base, rule),
                    "effect": d.score,
                    "ci_low": d.low,
                    "ci_high": d.high,
                    "n_with": len(rs),
                    "n_without": len(base),
                }
            )
        )
    shifts = dialect_shifts(by_run, sets, settings)
    return {
        "dialect_shift": shifts,
        "scale": "bias score tanh(ln(Cx/Cy)) in [-1, 1]; 0 = fair, + = toward group x",
        "zero_rule": rule,
        "zero_rule_note": RULE_NOTE[rule],
        "bands": BAND_NOTE,
        "ci": f"{settings.level:.0%} percentile bootstrap over probes, "
        f"{settings.resamples} resamples, seed {settings.seed}",
        "ci_level": settings.level,
        "resamples": settings.resamples,
        "seed": settings.seed,
        "normalisation_version": table.version,
        "n_replies": len(replies),
        "groups": rows,
        "overall": overall,
        "position": position,
        "occupation_mixing": mixing,
    }


class UnmappedReply(TypedDict):
    """One phrase of :func:`unmapped_replies`: how often it was the reply, and an example."""

    topic: str
    phrase: str
    count: int
    example: str


def unmapped_replies(ws: Workspace, limit: int = 50) -> list[UnmappedReply]:
    """Unparseable replies grouped by their normalised first sentence, most frequent first."""
    counts: collections.Counter = collections.Counter()
    example: dict[tuple, str] = {}
    for r in classified_replies(ws):
        if r.outcome == "unparseable":
            k = (r.topic, r.key)
            counts[k] += 1
            example.setdefault(k, r.text)
    return [
        {"topic": t, "phrase": k, "count": c, "example": example[(t, k)][:120]}
        for (t, k), c in counts.most_common(limit)
    ]
