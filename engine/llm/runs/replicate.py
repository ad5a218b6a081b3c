"""``upabhasha replicate``: decode a sample of a run again and measure the agreement.

On the machine and build that made a run, greedy outputs must come back byte-identical
(the batch plan makes them a function of the items and the schedule). Elsewhere — another
CPU, GPU offload, another llama.cpp build, an endpoint — exactness is not promised, so it
is *measured*: a seeded sample of finished items is decoded again exactly as recorded
(each with the group it was decoded in, :mod:`engine.llm.planning.plan_store`), with the response
cache off, and compared with the stored outputs.

The result says how many came back identical and, through ``spread`` (judge runs: how far
the final scores moved, :mod:`engine.judging.replication`), what that does to the figures. It is stored (``llm_replications``) so reports carry it next to the run card.
"""

from __future__ import annotations

import json
import logging
import random
from dataclasses import asdict, dataclass, field

from engine.errors import Step, UserError, step
from engine.llm.planning.plan_store import item_groups, load_group
from engine.llm.runs import backend as run_backend
from engine.llm.runs.leases import acquire_lease, release_lease
from engine.llm.runtime.worker import ModelDidNotLoad
from engine.llm.types import CancelFn, ProgressFn
from engine.text.redact import redact
from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)


@dataclass
class Replication:
    run_id: int
    kind: str
    sample: int = 0
    identical: int = 0
    failed: int = 0  # items the backend could not decode again (errors)
    groups: int = 0  # groups decoded (a sampled item is decoded with its neighbours)
    finals: dict = field(default_factory=dict)  # judge runs: the spread of final scores
    differing: list = field(default_factory=list)  # item keys that came back different
    error: str = ""  # why items failed: the model did not load, or the last error

    @property
    def complete(self) -> bool:
        return self.failed == 0

    @property
    def agreement(self) -> float | None:
        """identical / sample, only for a complete replication: a partial one (some items
        could not be decoded again) is stored as partial and carries no agreement figure,
        since the failed items might have differed."""
        if not self.complete or not self.sample:
            return None
        return self.identical / self.sample

    def as_dict(self) -> dict:
        return {**asdict(self), "agreement": self.agreement, "complete": self.complete}


def replicate_run(
    ws: Workspace,
    run_id: int,
    *,
    sample: int = 20,
    seed: int = 0,
    backend=None,
    spread=None,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> Replication:
    """Decode a seeded sample of ``run_id`` again and compare (see the module docstring).
    ``spread(keys, stored, fresh) -> dict`` summarises what the differences do to the
    run's scores (judge runs: :func:`engine.judging.replication.final_spread`)."""
    kind = ws.scalar("SELECT kind FROM runs WHERE id = ?", (run_id,))
    if kind is None:
        raise UserError(f"no run {run_id} ({step(Step.LIST_JUDGE_RUNS)} and the report list runs)")
    stored = {
        r["item_key"]: r["text"]
        for r in ws.query(
            "SELECT item_key, text FROM responses WHERE run_id = ? AND status = 'done'",
            (run_id,),
        )
    }
    placed = item_groups(ws, run_id)
    keys = sorted(k for k in stored if k in placed)
    if not keys:
        raise UserError(
            f"run {run_id} has no finished items recorded with their batch group "
            "(runs made before replication was recorded cannot be replicated)"
        )
    chosen = sorted(random.Random(seed).sample(keys, min(sample, len(keys))))
    by_group: dict[str, list[str]] = {}
    for key in chosen:
        by_group.setdefault(placed[key][0], []).append(key)
    result = Replication(run_id, kind, sample=len(chosen), groups=len(by_group))
    fresh: dict[str, str | None] = {}
    owner = acquire_lease(ws, run_id)
    opened = None
    try:  # a model that cannot be opened is one that did not load, and releases the lease
        if backend is None:
            backend = opened = run_backend.backend_for_run(
                ws, run_id
            )  # looked up here: tests patch it
        for i, (gkey, wanted) in enumerate(sorted(by_group.items())):
            if cancelled and cancelled():
                raise UserError("replication cancelled; nothing was stored")
            group = load_group(ws, run_id, gkey)
            for r in backend.generate(group, cancelled=cancelled):
                if r.key in wanted:
                    fresh[r.key] = redact(r.text) if r.ok else None
                if not r.ok and r.error:
                    result.error = redact(f"last error: {r.error}")
            if progress:
                progress(i + 1, len(by_group), f"{len(fresh)}/{len(chosen)} items")
    except ModelDidNotLoad as exc:  # what was not decoded failed: a partial replication
        result.error = redact(str(exc))
        log.error("replicating run %d: %s", run_id, result.error)
    finally:
        if opened is not None:
            opened.close()
        release_lease(ws, run_id, owner)
    for key in chosen:
        text = fresh.get(key)
        if text is None:
            result.failed += 1
        elif text == stored[key]:
            result.identical += 1
        else:
            result.differing.append(key)
    if spread is not None:
        result.finals = spread(chosen, stored, fresh)
    with ws.transaction() as conn:
        conn.execute(
            "INSERT INTO llm_replications(run_id, created_at, sample, identical, summary) "
            "VALUES (?, ?, ?, ?, ?)",
            (
                run_id,
                utcnow(),
                result.sample,
                result.identical,
                json.dumps(result.as_dict(), ensure_ascii=False),
            ),
        )
    log.info("replicated run %d: %d of %d identical", run_id, result.identical, result.sample)
    return result


def replications(ws: Workspace, run_ids: list[int] | None = None) -> list[dict]:
    """Stored replications (newest first), for reports and ``replicate --list``."""
    where = ""
    params: tuple = ()
    if run_ids:
        where = f"WHERE run_id IN ({','.join('?' * len(run_ids))})"
        params = tuple(run_ids)
    rows = ws.query(
        f"SELECT id, run_id, created_at, sample, identical, summary FROM llm_replications "
        f"{where} ORDER BY id DESC",
        params,
    )
    for row in rows:
        row["summary"] = json.loads(row["summary"])
    return rows
