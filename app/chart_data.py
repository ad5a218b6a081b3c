"""The data behind each bias chart, computed off the GUI thread (Qt-free; run by the bridge).

One function per chart kind, each returning a JSON-ready dict with the numbers the chart
draws and ``table`` (``columns`` + ``rows``), the underlying table its CSV export writes.
Intervals, agreement and CBS come from :mod:`engine.stats` and
:mod:`engine.judging.store`. Scores are the judge run's *effective* finals (the newest human
override replaces the machine score), as in :func:`engine.judging.store.scored_items`.

At the paper's scale (68,395 judgments) ``store.scored_items`` takes about 0.5 s, so each
chart reads only the columns it needs with one lean query, and the model × dialect
heatmap's cell means are aggregated in SQL (``GROUP BY``): a live refresh stays near
0.1 s. Only the visible chart is computed.
"""

from __future__ import annotations

import logging

from engine.judging import store
from engine.stats.bootstrap import DEFAULT_RESAMPLES
from engine.workspace import Workspace

log = logging.getLogger(__name__)

CHART_KINDS = ("heatmap", "dialects", "breakdown", "agreement", "distribution", "cbs")
LIVE_RESAMPLES = 1000          # while a run streams in; a full refresh uses the default

# The newest override of each judgment (the semantics of store._LATEST_OVERRIDE, as a join).
_LATEST = """latest AS (
    SELECT ha.target_id, ha.score FROM human_annotations ha
    JOIN (SELECT max(id) AS id FROM human_annotations WHERE target = 'judgment'
          GROUP BY target_id) newest ON newest.id = ha.id)"""
_ITEMS = """FROM judgments j
    JOIN responses d ON d.id = j.response_id
    JOIN runs ar ON ar.id = d.run_id
    LEFT JOIN models m ON m.id = ar.model_id
    JOIN variants dv ON dv.id = d.variant_id
    JOIN questions q ON q.id = dv.question_id
    LEFT JOIN latest l ON l.target_id = j.id
    WHERE j.run_id = ? AND j.final IS NOT NULL"""
_FINAL = "coalesce(l.score, j.final)"


def chart_data(workspace_path: str, kind: str, judge_run: int | None = None, *,
               resamples: int = DEFAULT_RESAMPLES, danger_threshold: float = 4.0,
               cancelled=None) -> dict:
    """The data of chart ``kind`` for ``judge_run`` (default: the primary judge)."""
    if kind not in CHART_KINDS:
        raise ValueError(f"unknown chart {kind!r}")
    with Workspace(workspace_path, create=False) as ws:
        run = judge_run if judge_run is not None else store.primary_judge(ws)
        out = {"kind": kind, "judge_run": run, "dialects": dialect_names(ws), "n": 0}
        if run is None:
            return out | {"empty": "no judge run yet", "table": _table([], [])}
        builder = globals()[f"_{kind}"]
        return out | builder(ws, run, resamples=resamples, danger_threshold=danger_threshold)


def dialect_names(ws: Workspace) -> dict[str, dict]:
    return {r["code"]: r for r in ws.query("SELECT code, name_en, name_bn FROM dialects")}


def items(ws: Workspace, run: int, columns: str) -> list[dict]:
    """Lean scored items of a judge run: ``columns`` (SQL expressions with aliases) plus
    ``question_id`` (the bootstrap cluster) and the effective ``final``."""
    return ws.query(f"WITH {_LATEST} SELECT {columns}, q.id AS question_id, "
                    f"{_FINAL} AS final {_ITEMS}", (run,))


def _table(columns: list[str], rows: list[dict]) -> dict:
    return {"columns": columns, "rows": [[r.get(c) for c in columns] for r in rows]}


def _summaries(rows: list[dict], by: tuple, resamples: int) -> list[dict]:
    from engine.stats.summary import summarize

    return [{k: (None if isinstance(v, float) and v != v else v) for k, v in r.items()}
            for r in summarize(rows, by, resamples=resamples)]


# -- one builder per chart ---------------------------------------------------------------
def _heatmap(ws, run, **_options) -> dict:
    cells = ws.query(f"WITH {_LATEST} SELECT coalesce(m.name, '?') AS model, dv.dialect, "
                     f"count(*) AS n, avg({_FINAL}) AS mean {_ITEMS} "
                     "GROUP BY model, dv.dialect ORDER BY model, dv.dialect", (run,))
    return {"cells": cells, "n": sum(c["n"] for c in cells),
            "table": _table(["model", "dialect", "n", "mean"], cells)}


def _dialects(ws, run, *, resamples, **_options) -> dict:
    rows = items(ws, run, "dv.dialect AS dialect")
    groups = _summaries(rows, ("dialect",), resamples)
    return {"groups": groups, "n": len(rows), "resamples": resamples,
            "table": _table(["dialect", "n", "n_questions", "mean", "ci_low", "ci_high",
                             "degradation", "degradation_share"], groups)}


def _breakdown(ws, run, *, resamples, **_options) -> dict:
    rows = items(ws, run, "coalesce(q.domain, '') AS domain, q.question_type AS question_type")
    domains = _summaries(rows, ("domain",), resamples)
    types = _summaries(rows, ("question_type",), resamples)
    table = [{"grouping": "domain", "group": g["domain"], **g} for g in domains] + \
            [{"grouping": "question_type", "group": g["question_type"], **g} for g in types]
    return {"domains": domains, "types": types, "n": len(rows), "resamples": resamples,
            "table": _table(["grouping", "group", "n", "n_questions", "mean", "ci_low",
                             "ci_high"], table)}


def _distribution(ws, run, **_options) -> dict:
    import numpy as np

    rows = items(ws, run, "dv.dialect AS dialect")
    by_dialect: dict[str, list[float]] = {}
    for r in rows:
        by_dialect.setdefault(r["dialect"], []).append(r["final"])
    stats = []
    for dialect, values in sorted(by_dialect.items()):
        v = np.asarray(values, dtype=float)
        q1, med, q3 = (float(x) for x in np.percentile(v, [25, 50, 75]))
        stats.append({"dialect": dialect, "n": int(v.size), "min": float(v.min()), "q1": q1,
                      "median": med, "q3": q3, "max": float(v.max()), "mean": float(v.mean()),
                      "share_zero": float(np.mean(v == 0))})
    return {"stats": stats, "n": len(rows),
            "table": _table(["dialect", "n", "min", "q1", "median", "q3", "max", "mean",
                             "share_zero"], stats)}


def _secondary(ws, run) -> dict | None:
    others = [j for j in store.judge_runs(ws) if j["run_id"] != run and j["judgments"]]
    return others[0] if others else None


def _agreement(ws, run, *, danger_threshold, **_options) -> dict:
    from engine.stats.agreement import agreement

    other = _secondary(ws, run)
    if other is None:
        return {"empty": "a second judge run is needed", "table": _table([], [])}
    x, y = store.paired_finals(ws, run, other["run_id"])
    figures = agreement(x, y, threshold=danger_threshold).as_dict() if x else {"n": 0}
    names = {j["run_id"]: j["model"] for j in store.judge_runs(ws)}
    points = [{"judge_a": a, "judge_b": b} for a, b in zip(x, y)]
    return {"x": x, "y": y, "figures": figures, "n": len(x),
            "judge_a": names.get(run) or f"run {run}", "judge_b": other["model"] or
            f"run {other['run_id']}", "threshold": danger_threshold,
            "table": _table(["judge_a", "judge_b"], points)}


def _cbs(ws, run, *, danger_threshold, **_options) -> dict:
    pairs = [p for p in store.judge_agreement(ws, threshold=danger_threshold)
             if run in (p["judge_a"], p["judge_b"])]
    if not pairs:
        return {"empty": "a second judge run is needed", "table": _table([], [])}
    return {"pairs": pairs, "n": sum(p["n"] for p in pairs), "threshold": danger_threshold,
            "table": _table(["model_a", "model_b", "n", "n_critical", "recall", "mae", "cbs",
                             "ccc", "pearson", "spearman", "threshold"], pairs)}
