"""Assign items to annotators: balanced by dialect, a stratified overlap share, a recorded seed.

Per dialect, ``round(overlap × n)`` items (drawn at random with the batch's seed) go to
``raters`` annotators who speak that dialect, the rest to one. Each item goes to the
speakers with the fewest items *of that dialect* (so each dialect is spread evenly over
its speakers), ties broken by their load over the whole batch, then by the seeded order. The seed and every parameter are stored with the batch, so the
same call on the same workspace gives the same assignment.
"""

from __future__ import annotations

import json
import logging
import random
import secrets
from dataclasses import dataclass, field

from engine.annotation.annotators import list_annotators
from engine.annotation.items import DEFAULT_SCALE, KINDS, content_hash, contents, parse_scale
from engine.errors import Setting, Step, UserError, setting, step
from engine.translation.draft_checks import ORDERS, draft_checks, need_key
from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)


@dataclass
class AssignmentResult:
    batch_id: int
    name: str
    seed: int
    items: int
    overlap_items: int
    per_annotator: dict[str, int] = field(default_factory=dict)
    per_dialect: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _candidates(
    kind: str,
    dialects: list[str] | None,
    statuses: list[str] | None,
    judge_run: int | None,
) -> tuple[str, str, list]:
    """(FROM … WHERE … of the candidates of ``kind``, the dialect column, parameters)."""
    where: list[str] = ["1 = 1"]
    params: list = []
    if kind == "variant":
        sql = "FROM variants v WHERE v.dialect != 'standard' AND v.script = 'bengali'"
        if statuses:
            where.append(f"v.status IN ({','.join('?' * len(statuses))})")
            params += statuses
        key = "v.id"
    elif kind == "judgment":
        sql = (
            "FROM judgments j JOIN responses r ON r.id = j.response_id "
            "JOIN variants v ON v.id = r.variant_id WHERE j.final IS NOT NULL"
        )
        if judge_run is not None:
            where.append("j.run_id = ?")
            params.append(judge_run)
        key = "j.id"
    else:
        raise UserError(f"unknown item kind {kind!r}; use one of {', '.join(KINDS)}")
    if dialects:
        where.append(f"v.dialect IN ({','.join('?' * len(dialects))})")
        params += dialects
    return f"{sql} AND {' AND '.join(where)}", key, params


def candidate_targets(
    ws: Workspace,
    kind: str,
    *,
    dialects: list[str] | None = None,
    statuses: list[str] | None = None,
    judge_run: int | None = None,
    flagged: bool = False,
) -> list[int]:
    """Target ids of ``kind`` (variants: non-standard, Bengali script; judgments: one run);
    ``flagged``: only variants the dialect check flagged (engine.translation.draft_checks)."""
    sql, key, params = _candidates(kind, dialects, statuses, judge_run)
    ids = [r[0] for r in ws.conn.execute(f"SELECT {key} {sql} ORDER BY 1", params)]
    if flagged:
        if kind != "variant":
            raise UserError("only variants carry the dialect check")
        checks = draft_checks(ws, ids)
        ids = [i for i in ids if i in checks and checks[i]["flag"]]
    return ids


def candidate_counts(ws: Workspace, kind: str, *, judge_run: int | None = None) -> dict[str, int]:
    """dialect -> how many targets :func:`candidate_targets` offers in it."""
    sql, key, params = _candidates(kind, None, None, judge_run)
    rows = ws.conn.execute(f"SELECT v.dialect, count({key}) {sql} GROUP BY v.dialect", params)
    return dict(rows.fetchall())


def assign(
    ws: Workspace,
    name: str,
    kind: str,
    annotator_names: list[str],
    *,
    targets: list[int] | None = None,
    overlap: float = 0.2,
    raters: int = 2,
    seed: int | None = None,
    blind_draft: bool = False,
    score_scale: str | None = None,
    purpose: str = "review",
    params: dict | None = None,
    order: str = "question",
) -> AssignmentResult:
    """Create batch ``name`` assigning ``targets`` (default: every candidate) in one transaction.
    ``order`` 'need' queues variants by the dialect check: flagged first, then the least
    likely in their target dialect (which items are shared stays a seeded draw)."""
    if order not in ORDERS:
        raise UserError(f"unknown order {order!r}; use one of {', '.join(ORDERS)}")
    by_need = order == "need"
    if by_need and kind != "variant":
        raise UserError("only variants carry the dialect check")
    if not name.strip():
        raise UserError("a batch needs a name")
    if not 0 <= overlap <= 1:
        raise UserError(f"overlap share {overlap} must lie between 0 and 1")
    if raters < 2:
        raise UserError("overlap items need at least 2 raters")
    scale = score_scale or DEFAULT_SCALE.get(kind, "0..10")
    parse_scale(scale)
    seed = secrets.randbelow(2**31) if seed is None else int(seed)
    every = {a["name"]: a for a in list_annotators(ws)}
    missing = [n for n in annotator_names if n not in every]
    if missing:
        raise UserError(f"no annotator named {', '.join(map(repr, missing))}")
    chosen = [every[n] for n in dict.fromkeys(annotator_names)] or list(every.values())
    if not chosen:
        raise UserError(f"no annotators yet: add some with {step(Step.ADD_ANNOTATORS)}")
    if raters > max(2, len(chosen)):  # 2 (the default) degrades to a note per dialect
        raise UserError(
            f"{setting(Setting.RATERS, raters)}: only {len(chosen)} annotator(s) "
            f"({', '.join(a['name'] for a in chosen)}) can rate an item"
        )
    ids = candidate_targets(ws, kind) if targets is None else sorted(set(targets))
    found = contents(ws, kind, ids)
    if not found:
        raise UserError(f"nothing to assign: no {kind} items match")
    by_dialect: dict[str, list[int]] = {}
    for tid in sorted(found):
        by_dialect.setdefault(found[tid]["dialect"], []).append(tid)

    rng = random.Random(seed)
    rank = {a["name"]: i for i, a in enumerate(rng.sample(chosen, len(chosen)))}
    load = {a["name"]: 0 for a in chosen}
    result = AssignmentResult(0, name, seed, 0, 0)
    plan: list[tuple[int, list[str], bool]] = []
    for dialect in sorted(by_dialect):
        items = by_dialect[dialect]
        eligible = [a["name"] for a in chosen if dialect in a["dialects"]]
        if not eligible:
            raise UserError(
                f"dialect {dialect!r}: none of the chosen annotators speaks it "
                f"({len(items)} items); add one or leave the dialect out"
            )
        shuffled = rng.sample(items, len(items))
        n_overlap = round(overlap * len(items))
        k = min(raters, len(eligible))
        if n_overlap and k < 2:
            result.notes.append(f"{dialect}: only {eligible[0]} speaks it; no overlap items")
        local = dict.fromkeys(eligible, 0)
        for pos, tid in enumerate(shuffled):
            double = pos < n_overlap and k >= 2
            want = k if double else 1
            pick = sorted(eligible, key=lambda n: (local[n], load[n], rank[n]))[:want]
            for n in pick:
                load[n] += 1
                local[n] += 1
            plan.append((tid, pick, double))
        result.per_dialect[dialect] = len(items)
    if by_need:  # stable: the seeded order within equal need
        checks = draft_checks(ws, [tid for tid, *_x in plan])
        plan.sort(key=lambda p: need_key(checks.get(p[0])))

    with ws.transaction() as conn:
        if ws.scalar("SELECT id FROM annotation_batches WHERE name = ?", (name,)) is not None:
            raise UserError(f"a batch named {name!r} exists already; choose another name")
        cur = conn.execute(
            "INSERT INTO annotation_batches(name, purpose, kind, seed, overlap, blind_draft, "
            "score_scale, params, created_at) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                name,
                purpose,
                kind,
                seed,
                overlap,
                int(blind_draft),
                scale,
                json.dumps(
                    {"raters": raters, **({"order": "need"} if by_need else {})} | (params or {}),
                    sort_keys=True,
                ),
                utcnow(),
            ),
        )
        batch_id = int(cur.lastrowid or 0)
        ann_id = {a["name"]: a["id"] for a in chosen}
        for tid, pick, double in plan:
            content = found[tid]
            item = conn.execute(
                "INSERT INTO annotation_items(batch_id, kind, target_id, dialect, content_hash) "
                "VALUES (?,?,?,?,?)",
                (batch_id, kind, tid, content["dialect"], content_hash(kind, content)),
            ).lastrowid
            conn.executemany(
                "INSERT INTO annotation_assignments(item_id, annotator_id, overlap) VALUES (?,?,?)",
                [(item, ann_id[n], int(double)) for n in pick],
            )
    result.batch_id = batch_id
    result.items = len(plan)
    result.overlap_items = sum(1 for *_x, d in plan if d)
    result.per_annotator = {n: load[n] for n in sorted(load)}
    log.info("batch %s: %d items, seed %d, %s", name, result.items, seed, result.per_annotator)
    return result


def batches(ws: Workspace) -> list[dict]:
    return ws.query(
        "SELECT b.id, b.name, b.purpose, b.kind, b.seed, b.overlap, b.blind_draft, b.score_scale, "
        "b.created_at, count(i.id) AS items FROM annotation_batches b "
        "LEFT JOIN annotation_items i ON i.batch_id = b.id GROUP BY b.id ORDER BY b.id"
    )


def batch_id(ws: Workspace, name: str) -> int:
    """The id of the annotation batch named ``name``; a :class:`UserError` when none is."""
    found = ws.scalar("SELECT id FROM annotation_batches WHERE name = ?", (name,))
    if found is None:
        raise UserError(f"no annotation batch named {name!r}")
    return found


def latest_batch_id(ws: Workspace, purpose: str) -> int | None:
    """The newest batch made for ``purpose`` (e.g. ``ppi``), or None when there is none."""
    return ws.scalar("SELECT max(id) FROM annotation_batches WHERE purpose = ?", (purpose,))


def setup_state(ws: Workspace) -> dict[str, int]:
    """How far the annotation study is set up: annotators, assigned items, decisions made.
    The panels' empty states offer the next step from it."""
    return ws.query(
        "SELECT (SELECT count(*) FROM annotators) AS annotators, "
        "(SELECT count(DISTINCT item_id) FROM annotation_assignments) AS assigned, "
        "(SELECT count(*) FROM annotation_decisions) AS decided"
    )[0]
