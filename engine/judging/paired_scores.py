"""Judge agreement: the machine scores two judge runs gave the same dialect answers,
aligned by response, and the figures on them (Pearson, Spearman, Lin's CCC, MAE, CBS) —
the one computation behind the report, ``upabhasha stats`` and the charts.

:func:`judge_agreement` pairs every two judge runs (primary judge first: CBS takes its
critical set from judge a) and :func:`agreement_pair` one pair; both read the scores with
:func:`pair_runs`, incrementally while a judge run streams in.

:func:`engine.judging.store.paired_finals` reads both runs whole into dicts; at the paper's
scale (68,395 and 17,171 judgments) that is ~80 ms per live chart refresh. Judgments are
only ever inserted (one per run and answer, never updated), so a previous pairing stays
true: only the judgments stored since need joining to the other run.
"""

from __future__ import annotations

from engine.judging import store
from engine.stats.agreement import agreement
from engine.workspace.store import Workspace

# (response, outer run's score, inner run's score); CROSS JOIN fixes SQLite's loop order
_PAIRS = (
    "SELECT o.response_id, o.final, i.final FROM judgments o CROSS JOIN judgments i "
    "ON i.response_id = o.response_id AND i.run_id = ?"
)
_SCORED = "o.final IS NOT NULL AND i.final IS NOT NULL"


def ordered_judge_runs(ws: Workspace) -> list[dict]:
    """:func:`engine.judging.store.judge_runs`, the primary judge first, then by run id."""
    primary = store.primary_judge(ws)
    return sorted(store.judge_runs(ws), key=lambda r: (r["run_id"] != primary, r["run_id"]))


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
        **agreement(pairing["x"], pairing["y"], threshold=threshold, scale=scale).as_dict(),
    }
    return row, pairing


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
    """:func:`engine.judging.store.paired_finals` (machine scores, by response)."""
    pairing = pair_runs(ws, run_a, run_b)
    return pairing["x"], pairing["y"]


def pair_runs(ws: Workspace, run_a: int, run_b: int, previous: dict | None = None) -> dict:
    """``{"runs", "last", "counts", "rids", "x", "y"}``: the answers both runs judged (by
    response id) with run a's score in x and run b's in y. ``previous`` (an earlier result
    for the same runs) is extended by the judgments stored since; otherwise all are read."""
    runs = [run_a, run_b]
    last = [ws.scalar("SELECT max(id) FROM judgments WHERE run_id = ?", (r,)) or 0 for r in runs]
    counts = [ws.scalar("SELECT count(*) FROM judgments WHERE run_id = ?", (r,)) for r in runs]
    if _still_holds(ws, previous, runs, last):
        pairs = dict(zip(previous["rids"], zip(previous["x"], previous["y"])))
        old_a, old_b = previous["last"]
        # new judgments of a (with any of b), then new ones of b (with the old ones of a)
        for rid, x, y in _join(
            ws, run_a, run_b, "o.id > ? AND o.id <= ?", (old_a, last[0]), "i.id <= ?", (last[1],)
        ):
            pairs[rid] = (x, y)
        for rid, y, x in _join(
            ws, run_b, run_a, "o.id > ? AND o.id <= ?", (old_b, last[1]), "i.id <= ?", (old_a,)
        ):
            pairs[rid] = (x, y)
        rids = sorted(pairs)
        x, y = [pairs[r][0] for r in rids], [pairs[r][1] for r in rids]
    else:
        rids, x, y = _full(ws, run_a, run_b, counts)
    return {"runs": runs, "last": last, "counts": counts, "rids": rids, "x": x, "y": y}


def _still_holds(ws: Workspace, previous: dict | None, runs: list, last: list) -> bool:
    """The previous pairing is of the same runs, and every judgment it counted is still there
    (a deleted run's judgments would leave stale pairs)."""
    if not previous or previous.get("runs") != runs:
        return False
    if any(old > new for old, new in zip(previous["last"], last)):
        return False
    return all(
        ws.scalar("SELECT count(*) FROM judgments WHERE run_id = ? AND id <= ?", (run, old))
        == count
        for run, old, count in zip(runs, previous["last"], previous["counts"])
    )


def _join(
    ws: Workspace,
    outer: int,
    inner: int,
    outer_where: str,
    outer_params: tuple,
    inner_where: str,
    inner_params: tuple,
):
    """(response id, outer score, inner score); the id range of the outer run drives the
    query (``+o.run_id`` keeps SQLite off the run index)."""
    return ws.conn.execute(
        f"{_PAIRS} WHERE +o.run_id = ? AND {outer_where} AND {inner_where} AND {_SCORED}",
        (inner, outer, *outer_params, *inner_params),
    )


def _full(ws: Workspace, run_a: int, run_b: int, counts: list) -> tuple[list, list, list]:
    """One join driven from the run with fewer judgments (CROSS JOIN fixes SQLite's loop
    order: a secondary judge on a quarter of the answers halves the time)."""
    outer, inner = (run_a, run_b) if counts[0] <= counts[1] else (run_b, run_a)
    rows = ws.conn.execute(
        f"{_PAIRS} WHERE o.run_id = ? AND {_SCORED} ORDER BY o.response_id", (inner, outer)
    ).fetchall()
    if outer != run_a:
        rows = [(rid, a, b) for rid, b, a in rows]
    return [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]
