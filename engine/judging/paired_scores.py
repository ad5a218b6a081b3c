"""Judge agreement: the machine scores two judge runs gave the same dialect answers,
aligned by response, and the figures on them (Pearson, Spearman, Lin's CCC, MAE, CBS) —
the one computation behind the report, ``upabhasha stats`` and the charts.

:func:`judge_agreement` pairs every two judge runs (primary judge first: CBS takes its
critical set from judge a) and :func:`agreement_pair` one pair; both read the scores with
:func:`pair_runs`, incrementally while a judge run streams in.

Judgments are only ever inserted (one per run and answer, never updated or deleted one by
one), so a previous pairing stays true and only the judgments stored since need joining to
the other run. A pairing is stamped with the newest judgment id of the workspace (a rowid
maximum: one b-tree descent; a run's own maximum or count reads its whole index range, which
at ten times the paper's study cost more than the rest of a live refresh). Its scores are
numpy arrays in response order; the new pairs are merged in by ``searchsorted``, so a live
refresh costs the new judgments plus one pass of the figures over the arrays.
"""

from __future__ import annotations

import numpy as np

from engine.judging import store
from engine.stats.agreement import agreement_from_counts
from engine.workspace.store import Workspace

# (response, outer run's machine score, inner run's) over the judged items
# (engine.judging.judged_items: one narrow row per judgment, its (run, response) index
# covers the join); CROSS JOIN fixes SQLite's loop order
_PAIRS = (
    "SELECT o.response_id, o.machine_final, i.machine_final FROM judged_items o "
    "CROSS JOIN judged_items i ON i.response_id = o.response_id AND i.run_id = ?"
)
# both counted: scored by the machine, and unflagged or scored by a person (a flagged
# judgment waits for a person, as in every figure)
_SCORED = "o.counted AND i.counted"


def ordered_judge_runs(ws: Workspace) -> list[dict]:
    """Judge runs (``run_id``, ``model``, ``judgments``: whether it has any), the primary
    judge first, then by run id. Unlike :func:`engine.judging.store.judge_runs` it does not
    count each run's judgments (a scan of them all): an index probe says whether there are."""
    primary = store.primary_judge(ws)
    rows = ws.query(
        "SELECT r.id AS run_id, m.name AS model, "
        "EXISTS(SELECT 1 FROM judgments j WHERE j.run_id = r.id) AS judgments "
        "FROM runs r LEFT JOIN models m ON m.id = r.model_id WHERE r.kind = ? ORDER BY r.id",
        (store.JUDGE_KIND,),
    )
    return sorted(rows, key=lambda r: (r["run_id"] != primary, r["run_id"]))


def judge_run_choices(ws: Workspace) -> list[dict]:
    """Judge runs to choose from (``run_id``, ``model``, ``role``), by run id — what a
    judge selector shows, without :func:`engine.judging.store.judge_runs`' per-run count
    of judgments (a scan of them all, slow at ten times the paper's study)."""
    primary = store.primary_judge(ws)
    return [
        {**r, "role": "primary" if r["run_id"] == primary else "secondary"}
        for r in ws.query(
            "SELECT r.id AS run_id, m.name AS model FROM runs r "
            "LEFT JOIN models m ON m.id = r.model_id WHERE r.kind = ? ORDER BY r.id",
            (store.JUDGE_KIND,),
        )
    ]


def agreement_pair(
    ws: Workspace,
    a: dict,
    b: dict,
    *,
    primary: int | None,
    threshold: float = 4.0,
    scale: float = 10.0,
    previous: dict | None = None,
) -> tuple[dict, dict]:
    """(row, pairing) for judge runs ``a`` and ``b`` (rows of :func:`ordered_judge_runs`,
    ``a`` first): the agreement figures of their paired machine scores and the pairing
    :func:`pair_runs` returned (pass it back as ``previous`` to extend it)."""
    pairing = pair_runs(ws, a["run_id"], b["run_id"], previous)
    row = {
        "judge_a": a["run_id"],
        "model_a": a["model"],
        "judge_b": b["run_id"],
        "model_b": b["model"],
        "a_is_primary": a["run_id"] == primary,
        **agreement_from_counts(*joint_arrays(pairing), threshold, scale).as_dict(),
    }
    return row, pairing


def joint_arrays(pairing: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A pairing's joint score table as arrays (x value, y value, count), in (x, y) order —
    the same order however the table was built, so the figures are too."""
    items = sorted(pairing["joint"].items())
    x = np.array([k[0] for k, _n in items], dtype=float)
    y = np.array([k[1] for k, _n in items], dtype=float)
    return x, y, np.array([n for _k, n in items], dtype=float)


def judge_agreement(
    ws: Workspace,
    *,
    threshold: float = 4.0,
    scale: float = 10.0,
    including: int | None = None,
    previous: dict | None = None,
) -> tuple[list[dict], dict]:
    """Agreement rows for every pair of judge runs on the answers both scored (only the
    pairs with run ``including`` when given), and their pairings by ``"a-b"`` key.
    ``previous`` (the pairings of an earlier call) lets each pair read only the judgments
    stored since."""
    primary = store.primary_judge(ws)
    ordered = ordered_judge_runs(ws)
    rows, pairings = [], {}
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if including is not None and including not in (a["run_id"], b["run_id"]):
                continue
            key = f"{a['run_id']}-{b['run_id']}"
            row, pairings[key] = agreement_pair(
                ws,
                a,
                b,
                primary=primary,
                threshold=threshold,
                scale=scale,
                previous=(previous or {}).get(key),
            )
            rows.append(row)
    return rows, pairings


def paired_machine_finals(ws: Workspace, run_a: int, run_b: int) -> tuple[list, list]:
    """The machine scores of the responses both runs judged (:func:`pair_runs`), as two lists."""
    pairing = pair_runs(ws, run_a, run_b)
    return pairing["x"].tolist(), pairing["y"].tolist()


def pair_runs(ws: Workspace, run_a: int, run_b: int, previous: dict | None = None) -> dict:
    """``{"runs", "last", "rids", "x", "y", "joint"}``: the answers both runs judged
    (response ids, ascending) with run a's score in x and run b's in y (numpy arrays), and
    their joint table ``{(x, y): count}`` (what the figures are computed from), as of
    judgment id ``last``. ``previous`` (an earlier result for the same runs) is extended by the
    judgments stored since; otherwise all are read."""
    runs = [run_a, run_b]
    last = ws.scalar("SELECT max(id) FROM judgments") or 0
    # a new override can bring a flagged judgment into the figures: count everything again
    reviewed = ws.scalar("SELECT max(id) FROM human_annotations") or 0
    if (
        previous is not None
        and previous.get("last_annotation") == reviewed
        and _still_holds(ws, previous, runs, last)
    ):
        old = previous["last"]
        # new judgments of a (with any of b), then new ones of b (with the old ones of a)
        new = _join(ws, run_a, run_b, old, last, last) + [
            (rid, x, y) for rid, y, x in _join(ws, run_b, run_a, old, last, old)
        ]
        rids, x, y = _merge(previous, new)
        joint = dict(previous["joint"])
        for _rid, a, b in new:
            joint[(a, b)] = joint.get((a, b), 0) + 1
    else:
        rids, x, y = _full(ws, run_a, run_b, last)
        joint = joint_counts(x, y)
    return {
        "runs": runs,
        "last": last,
        "last_annotation": reviewed,
        "rids": rids,
        "x": x,
        "y": y,
        "joint": joint,
    }


def joint_counts(x: np.ndarray, y: np.ndarray) -> dict[tuple[float, float], int]:
    """``{(x, y): count}`` of paired scores. One lexsort and the run boundaries:
    ``np.unique(..., axis=0)`` sorts the pairs as records, a large share of an agreement
    chart's time at ten times the paper's study."""
    if not len(x):
        return {}
    order = np.lexsort((y, x))
    xs, ys = x[order], y[order]
    starts = np.flatnonzero(np.r_[True, (xs[1:] != xs[:-1]) | (ys[1:] != ys[:-1])])
    counts = np.diff(np.r_[starts, len(xs)])
    return dict(zip(zip(xs[starts].tolist(), ys[starts].tolist()), counts.tolist()))


def _still_holds(ws: Workspace, previous: dict | None, runs: list, last: int) -> bool:
    """The previous pairing is of the same runs, both still judge runs, and no judgment it
    counted is gone (the newest id of the workspace cannot go back while they remain)."""
    if (
        not previous
        or previous.get("runs") != runs
        or not isinstance(previous.get("last"), int)
        or "joint" not in previous
    ):
        return False
    if previous["last"] > last:
        return False
    kinds = ws.query(
        "SELECT count(*) AS n FROM runs WHERE kind = ? AND id IN (?, ?)",
        (store.JUDGE_KIND, *runs),
    )[0]["n"]
    return kinds == len(set(runs))


def _join(ws: Workspace, outer: int, inner: int, since: int, last: int, inner_last: int):
    """(response id, outer score, inner score) for the outer run's judgments with
    ``since < id <= last`` and the inner run's with ``id <= inner_last``; the id range of
    the outer run drives the query (``+o.run_id`` keeps SQLite off the run index)."""
    return ws.conn.execute(
        f"{_PAIRS} WHERE +o.run_id = ? AND o.judgment_id > ? AND o.judgment_id <= ? "
        f"AND +i.judgment_id <= ? AND {_SCORED}",
        (inner, outer, since, last, inner_last),
    ).fetchall()


def _merge(previous: dict, new: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The previous arrays with the new pairs inserted in response order. A response pairs
    once (one judgment per run and answer), so a new pair is never already there."""
    rids, x, y = previous["rids"], previous["x"], previous["y"]
    if not new:
        return rids, x, y
    new.sort()
    new_rids = np.array([r[0] for r in new], dtype=np.int64)
    at = np.searchsorted(rids, new_rids)
    return (
        np.insert(rids, at, new_rids),
        np.insert(x, at, np.array([r[1] for r in new], dtype=float)),
        np.insert(y, at, np.array([r[2] for r in new], dtype=float)),
    )


def _full(ws: Workspace, run_a: int, run_b: int, last: int) -> tuple[np.ndarray, ...]:
    """One join driven from the run with fewer judgments (CROSS JOIN fixes SQLite's loop
    order: a secondary judge on a quarter of the answers halves the time)."""
    counts = [
        ws.scalar("SELECT count(*) FROM judged_items WHERE run_id = ?", (r,))
        for r in (run_a, run_b)
    ]
    outer, inner = (run_a, run_b) if counts[0] <= counts[1] else (run_b, run_a)
    cursor = ws.conn.execute(
        f"{_PAIRS} WHERE o.run_id = ? AND o.judgment_id <= ? AND +i.judgment_id <= ? "
        f"AND {_SCORED} ORDER BY o.response_id",
        (inner, outer, last, last),
    )
    # converted a block at a time: one np.array of a large study's rows holds the GIL long
    # enough to stall the GUI thread while a worker computes the chart
    blocks = [np.array(rows, dtype=float) for rows in iter(lambda: cursor.fetchmany(5000), [])]
    table = np.concatenate(blocks) if blocks else np.empty((0, 3))
    rids = table[:, 0].astype(np.int64)
    first, second = table[:, 1], table[:, 2]
    x, y = (first, second) if outer == run_a else (second, first)
    return rids, np.ascontiguousarray(x), np.ascontiguousarray(y)
