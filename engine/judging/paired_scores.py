"""Machine scores two judge runs gave the same dialect answers, aligned by response — the
input of judge agreement and CBS — read incrementally while a judge run streams in.

:func:`engine.judging.store.paired_finals` reads both runs whole into dicts; at the paper's
scale (68,395 and 17,171 judgments) that is ~80 ms per live chart refresh. Judgments are
only ever inserted (one per run and answer, never updated), so a previous pairing stays
true: only the judgments stored since need joining to the other run.
"""

from __future__ import annotations

from engine.workspace.store import Workspace

# (response, outer run's score, inner run's score); CROSS JOIN fixes SQLite's loop order
_PAIRS = (
    "SELECT o.response_id, o.final, i.final FROM judgments o CROSS JOIN judgments i "
    "ON i.response_id = o.response_id AND i.run_id = ?"
)
_SCORED = "o.final IS NOT NULL AND i.final IS NOT NULL"


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
