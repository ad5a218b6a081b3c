"""The data behind each bias chart, computed off the GUI thread (Qt-free; run by the bridge).

One function per chart kind, each returning a JSON-ready dict with the numbers the chart
draws and ``table`` (``columns`` + ``rows``), the underlying table its CSV export writes.
Intervals come from :mod:`engine.stats`, agreement and CBS from
:mod:`engine.judging.paired_scores` (the report's own computation). Scores are the judge run's *effective* finals (the newest human
override replaces the machine score), as in :func:`engine.judging.store.scored_items`, over
the *counted* judgments of :mod:`engine.judging.judged_items` (a flagged judgment waits
for a person and is left out, as in the statistics and the report).

At the paper's scale ``store.scored_items`` and a bootstrap over dicts are too slow for a
live chart, so the charts read aggregates: the workspace keeps the counted
judged items' sums per (model, dialect), (dialect, question) and (dialect, score)
(:mod:`engine.judging.judged_items`, schema V4), all the heatmap, the clustered bootstrap
and the quartiles need — a full recompute reads a few thousand rows, not the study (a
join over every judgment took seconds per chart at ten times the paper's study). While
a run only adds judgments (no override since), only the new judged items are read and
added to the previous result's sums: a live refresh reads a few hundred rows.
Only the visible chart is computed.
"""

from __future__ import annotations

import logging

import numpy as np

from engine.judging import paired_scores, store
from engine.judging.judged_items import counted_items_from
from engine.reports.settings import STUDY_STATS
from engine.stats import nan_to_none
from engine.stats.bootstrap import mean_cis_from_cluster_sums
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)

CHART_KINDS = ("heatmap", "dialects", "breakdown", "agreement", "distribution", "cbs")
# a full refresh draws the study statistics' resamples; a live one, while a run streams in,
# fewer
DEFAULT_RESAMPLES = STUDY_STATS.resamples
LIVE_RESAMPLES = 500
DENSITY_BINS = 50  # the agreement chart's density grid: 0.2 points a cell


def _judged(ws: Workspace, keys: str, run: int, since: int, last: int, sums: str, joins: str = ""):
    """Rows of ``keys`` (over alias ``ji``), the sum of their scores and their count, grouped
    by ``keys``: over the run's counted judged items with ``since < id <= last`` while
    counting on (``since`` > 0: the id range drives the query, ``+ji.run_id`` keeps SQLite
    off the run's index), else over the per-group sum table ``sums`` (alias ``ji`` too),
    which holds the whole run in a few thousand rows at most. ``joins`` may use ``ji``."""
    if since:
        return ws.conn.execute(
            f"SELECT {keys}, sum(ji.final), count(*) FROM judged_items ji {joins} "
            "WHERE +ji.run_id = ? AND ji.counted AND ji.judgment_id > ? AND ji.judgment_id <= ? "
            f"GROUP BY {keys}",
            (run, since, last),
        )
    return ws.conn.execute(
        f"SELECT {keys}, sum(ji.total), sum(ji.n) FROM {sums} ji {joins} WHERE ji.run_id = ? "
        f"GROUP BY {keys}",
        (run,),
    )


def chart_data(
    workspace_path: str,
    kind: str,
    judge_run: int | None = None,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    danger_threshold: float = 4.0,
    previous: dict | None = None,
    cancelled=None,
) -> dict:
    """The data of chart ``kind`` for ``judge_run`` (default: the primary judge).

    ``previous`` (the last result for this chart, not modified) lets the heatmap add only
    the judgments stored since, while no human override has been added or changed.
    """
    if kind not in CHART_KINDS:
        raise ValueError(f"unknown chart {kind!r}")
    with Workspace(workspace_path, create=False) as ws:
        run = judge_run if judge_run is not None else store.primary_judge(ws)
        out = {"kind": kind, "judge_run": run, "dialects": ws.dialect_names(), "n": 0}
        if run is None:
            return out | {"empty": "no judge run yet", "table": _table([], [])}
        builder = globals()[f"_{kind}"]
        return out | builder(
            ws, run, resamples=resamples, danger_threshold=danger_threshold, previous=previous
        )


def items(ws: Workspace, run: int, columns: str) -> list[dict]:
    """Lean scored items of a judge run: ``columns`` (SQL expressions over the judged items
    ``ji``, with aliases) plus ``question_id`` (the bootstrap cluster) and the effective
    ``final``."""
    return ws.query(
        f"SELECT {columns}, ji.question_id, ji.final {counted_items_from()}",
        (run,),
    )


def _table(columns: list[str], rows: list[dict]) -> dict:
    return {"columns": columns, "rows": [[r.get(c) for c in columns] for r in rows]}


# -- one builder per chart ---------------------------------------------------------------
def _stamp(ws, run) -> dict:
    """Where the workspace stands: the newest judgment and override of all runs. Both are
    rowid maxima (a b-tree descent); the run's own max(id) would read its whole index range —
    every judgment of the run at each live refresh. Judgments are only ever inserted, so
    everything of ``run`` up to ``last_judgment`` is in a result stamped with it."""
    return {
        "run": run,
        "last_judgment": ws.scalar("SELECT max(id) FROM judgments") or 0,
        "last_annotation": ws.scalar("SELECT max(id) FROM human_annotations") or 0,
    }


def _since(previous: dict | None, stamp: dict) -> int:
    """The judgment id up to which ``previous`` still holds: judgments only arrived since
    (same run, no override added). 0: count everything again."""
    old = (previous or {}).get("stamp")
    if (
        old
        and old["run"] == stamp["run"]
        and old["last_annotation"] == stamp["last_annotation"]
        and old["last_judgment"] <= stamp["last_judgment"]
    ):
        return old["last_judgment"]
    return 0


def _heatmap(ws, run, *, previous=None, **_options) -> dict:
    """Cell means by ``GROUP BY`` in SQL; incremental while judgments only arrive."""
    stamp = _stamp(ws, run)
    since = _since(previous, stamp)
    cells = {(c["model"], c["dialect"]): dict(c) for c in previous["cells"]} if since else {}
    model = "ji.model_id" if since else "ji.model_key"
    for name, dialect, total, n in _judged(
        ws,
        "coalesce(m.name, '?'), ji.dialect",
        run,
        since,
        stamp["last_judgment"],
        "judged_model_dialect",
        f"LEFT JOIN models m ON m.id = {model}",
    ):
        cell = cells.setdefault(
            (name, dialect), {"model": name, "dialect": dialect, "n": 0, "mean": 0.0}
        )
        count = cell["n"] + n
        cell["mean"] = (cell["mean"] * cell["n"] + total) / count
        cell["n"] = count
    ordered = [cells[k] for k in sorted(cells)]
    return {
        "cells": ordered,
        "n": sum(c["n"] for c in ordered),
        "stamp": stamp,
        "incremental": bool(since),
        "table": _table(["model", "dialect", "n", "mean"], ordered),
    }


def _cluster_sums(ws, run, group: str, previous: dict | None, key: str, stamp: dict) -> dict:
    """Per group, its base questions (ascending ids) with the sum and count of their finals:
    ``{group: {"q": ids, "sum": sums, "n": counts}}`` (numpy arrays), from SQL. While that is
    possible only the judgments stored since ``previous`` are read, and merged into its
    arrays by ``searchsorted``: a live refresh costs the new judgments, not the study
    (rebuilding every (dialect, question) entry in Python is slow at ten times the paper's
    study)."""
    since = _since(previous, stamp)
    groups = (
        dict(previous[key]) if since and previous else {}
    )  # arrays are replaced, never modified
    new: dict = {}
    joins = "" if group.startswith("ji.") else "JOIN questions q ON q.id = ji.question_id"
    for g, q, total, n in _judged(
        ws,
        f"{group}, ji.question_id",
        run,
        since,
        stamp["last_judgment"],
        "judged_dialect_question",
        joins,
    ):
        new.setdefault(g, []).append((q, total, n))
    for g, rows in new.items():
        table = np.array(rows, dtype=float)  # one array, ordered by question: ~3x the lists
        table = table[np.argsort(table[:, 0], kind="stable")]
        q_new = table[:, 0].astype(np.int64)
        sum_new, n_new = table[:, 1].copy(), table[:, 2].copy()
        old = groups.get(g)
        if old is None:
            groups[g] = {"q": q_new, "sum": sum_new, "n": n_new}
            continue
        at = np.searchsorted(old["q"], q_new)
        hit = at < old["q"].size
        hit[hit] = old["q"][at[hit]] == q_new[hit]
        sums, counts = old["sum"].copy(), old["n"].copy()
        sums[at[hit]] += sum_new[hit]  # question ids are unique within a group's rows
        counts[at[hit]] += n_new[hit]
        miss = ~hit
        groups[g] = {
            "q": np.insert(old["q"], at[miss], q_new[miss]),
            "sum": np.insert(sums, at[miss], sum_new[miss]),
            "n": np.insert(counts, at[miss], n_new[miss]),
        }
    return groups


def _cluster_summaries(
    clusters: dict, name: str, resamples: int, max_score: float = 10.0
) -> list[dict]:
    """Mean and clustered bootstrap CI per group from its per-question sums and counts
    (:func:`engine.stats.bootstrap.mean_cis_from_cluster_sums`: the intervals
    :func:`~engine.stats.bootstrap.clustered_mean_ci` gives the report for the same items —
    questions in ascending id order, the same seed — all groups in one pass)."""
    names = sorted(clusters, key=lambda v: "" if v is None else str(v))
    cis = mean_cis_from_cluster_sums(
        [(clusters[g]["sum"], clusters[g]["n"]) for g in names],
        level=STUDY_STATS.level,
        resamples=resamples,
        seed=STUDY_STATS.seed,
    )
    out = []
    for g, ci in zip(names, cis):
        row = {
            name: g,
            "n": ci.n,
            "n_questions": ci.n_clusters,
            "mean": ci.mean,
            "ci_low": ci.low,
            "ci_high": ci.high,
            "degradation": max_score - ci.mean,
            "degradation_share": (max_score - ci.mean) / max_score,
        }
        out.append(nan_to_none(row))
    return out


def _dialects(ws, run, *, resamples, previous=None, **_options) -> dict:
    stamp = _stamp(ws, run)
    clusters = _cluster_sums(ws, run, "ji.dialect", previous, "clusters", stamp)
    groups = _cluster_summaries(clusters, "dialect", resamples)
    return {
        "groups": groups,
        "n": sum(g["n"] for g in groups),
        "resamples": resamples,
        "clusters": clusters,
        "stamp": stamp,
        "table": _table(
            [
                "dialect",
                "n",
                "n_questions",
                "mean",
                "ci_low",
                "ci_high",
                "degradation",
                "degradation_share",
            ],
            groups,
        ),
    }


def _breakdown(ws, run, *, resamples, previous=None, **_options) -> dict:
    stamp = _stamp(ws, run)
    by_domain = _cluster_sums(ws, run, "coalesce(q.domain, '')", previous, "domain_clusters", stamp)
    by_type = _cluster_sums(ws, run, "q.question_type", previous, "type_clusters", stamp)
    domains = _cluster_summaries(by_domain, "domain", resamples)
    types = _cluster_summaries(by_type, "question_type", resamples)
    table = [{"grouping": "domain", "group": g["domain"], **g} for g in domains] + [
        {"grouping": "question_type", "group": g["question_type"], **g} for g in types
    ]
    return {
        "domains": domains,
        "types": types,
        "n": sum(g["n"] for g in domains),
        "resamples": resamples,
        "domain_clusters": by_domain,
        "type_clusters": by_type,
        "stamp": stamp,
        "table": _table(
            ["grouping", "group", "n", "n_questions", "mean", "ci_low", "ci_high"], table
        ),
    }


def _distribution(ws, run, *, previous=None, **_options) -> dict:
    """Quartiles from per-(dialect, score) counts in SQL: finals take few distinct values,
    so a dialect's scores are its counted values repeated; incremental like the heatmap."""
    stamp = _stamp(ws, run)
    since = _since(previous, stamp)
    counts = {(d, v): n for d, v, n in previous["counts"]} if since else {}
    for dialect, value, _total, n in _judged(
        ws, "ji.dialect, ji.final", run, since, stamp["last_judgment"], "judged_dialect_score"
    ):
        counts[(dialect, value)] = counts.get((dialect, value), 0) + n
    by_dialect: dict[str, tuple[list, list]] = {}
    for (dialect, value), n in sorted(counts.items()):
        values, ns = by_dialect.setdefault(dialect, ([], []))
        values.append(value)
        ns.append(n)
    stats = []
    for dialect, (values, ns) in by_dialect.items():
        v, w = np.asarray(values, dtype=float), np.asarray(ns, dtype=np.int64)
        total = int(w.sum())
        q1, med, q3 = counted_percentiles(v, w, (25, 50, 75))
        stats.append(
            {
                "dialect": dialect,
                "n": total,
                "min": float(v[0]),
                "q1": q1,
                "median": med,
                "q3": q3,
                "max": float(v[-1]),
                "mean": float(np.dot(v, w) / total),
                "share_zero": float(w[v == 0].sum() / total),
            }
        )
    return {
        "stats": stats,
        "n": sum(s["n"] for s in stats),
        "stamp": stamp,
        "counts": [[d, v, n] for (d, v), n in sorted(counts.items())],
        "incremental": bool(since),
        "table": _table(
            ["dialect", "n", "min", "q1", "median", "q3", "max", "mean", "share_zero"], stats
        ),
    }


def counted_percentiles(values, counts, qs) -> list[float]:
    """``np.percentile`` (linear) of ``values`` (ascending, distinct) each repeated
    ``counts`` times, without repeating them: the ranks are read off the cumulative counts
    (a live refresh costs the distinct scores, not the judgments)."""
    cumulative = np.cumsum(counts)
    last = int(cumulative[-1]) - 1

    def at(rank: int) -> float:  # the value at 0-based rank in the repeated list
        return float(values[int(np.searchsorted(cumulative, rank, side="right"))])

    out = []
    for q in qs:
        position = q / 100 * last
        low = int(np.floor(position))
        high = min(low + 1, last)
        a, b = at(low), at(high)
        out.append(a + (position - low) * (b - a))
    return out


def _no_pair_reason(ordered: list[dict], run) -> str:
    """Why agreement has nothing to show: the chosen run has no judgments yet, or no other
    run has any (not "a second run is needed" above a run of 0 judgments)."""
    mine = next((j for j in ordered if j["run_id"] == run), None)
    if mine is None or not mine["judgments"]:
        return "this judge run has no judgments yet"
    return "a second judge run is needed"


def _agreement(ws, run, *, danger_threshold, previous=None, **_options) -> dict:
    """The chosen run against the first other judge run with judgments, ordered as in the
    report (:func:`engine.judging.paired_scores.judge_agreement`: primary judge first, as
    judge a, the x axis — CBS takes its critical set from it)."""
    ordered = paired_scores.ordered_judge_runs(ws)
    mine = next((j for j in ordered if j["run_id"] == run), None)
    other = next((j for j in ordered if j["run_id"] != run and j["judgments"]), None)
    if mine is None or other is None or not mine["judgments"]:
        return {"empty": _no_pair_reason(ordered, run), "table": _table([], [])}
    a, b = (mine, other) if ordered.index(mine) < ordered.index(other) else (other, mine)
    row, pairing = paired_scores.agreement_pair(
        ws,
        a,
        b,
        primary=store.primary_judge(ws),
        threshold=danger_threshold,
        previous=(previous or {}).get("pairing"),
    )
    x, y = pairing["x"], pairing["y"]
    figures = {k: row[k] for k in row if k not in _PAIR_KEYS} if len(x) else {"n": 0}
    return {
        "x": x,
        "y": y,
        "figures": figures,
        "n": len(x),
        "pairing": pairing,
        "density": score_density(*paired_scores.joint_arrays(pairing)),
        "judge_a": a["model"] or f"run {a['run_id']}",
        "judge_b": b["model"] or f"run {b['run_id']}",
        "threshold": danger_threshold,
        # rows as one array: a list per pair would cost more than the live refresh's figures
        "table": {"columns": ["judge_a", "judge_b"], "rows": np.column_stack((x, y))},
    }


_PAIR_KEYS = ("judge_a", "model_a", "judge_b", "model_b", "a_is_primary")


def score_density(x, y, counts=None, max_score: float = 10.0) -> list[list[int]]:
    """Answers per cell of a DENSITY_BINS² grid over both judges' scores (rows: judge b,
    from 0 up; columns: judge a): the agreement chart's picture when points are too many.
    ``counts``: x and y are a joint table's distinct pairs, each standing for that many."""
    edges = np.linspace(0.0, max_score, DENSITY_BINS + 1)
    counts, _x_edges, _y_edges = np.histogram2d(
        np.asarray(x, dtype=float), np.asarray(y, dtype=float), bins=(edges, edges), weights=counts
    )
    return counts.T.astype(int).tolist()


def _cbs(ws, run, *, danger_threshold, previous=None, **_options) -> dict:
    """:func:`engine.judging.paired_scores.judge_agreement` (the report's) for the pairs
    that include ``run`` only, extending the previous pairings while judgments arrive."""
    pairs, pairings = paired_scores.judge_agreement(
        ws,
        threshold=danger_threshold,
        including=run,
        previous=(previous or {}).get("pairings"),
    )
    if not pairs:
        reason = _no_pair_reason(paired_scores.ordered_judge_runs(ws), run)
        return {"empty": reason, "table": _table([], [])}
    return {
        "pairs": pairs,
        "n": sum(p["n"] for p in pairs),
        "threshold": danger_threshold,
        "pairings": pairings,
        "table": _table(
            [
                "model_a",
                "model_b",
                "n",
                "n_critical",
                "recall",
                "mae",
                "cbs",
                "ccc",
                "pearson",
                "spearman",
                "threshold",
            ],
            pairs,
        ),
    }
