"""The batch plan: which items a local model decodes together.

Batching changes greedy outputs (docs/design.md pitfall), so the plan must not depend on timing,
on what is cached or on where a previous process stopped: it is the job's full request
list, in order, cut into consecutive groups of the schedule's ``n_seq``, and a group with
anything left to generate is decoded whole (:mod:`engine.llm.jobs`). Backends without a
batch schedule (endpoints) have no plan: their outputs do not depend on neighbours.
"""

from __future__ import annotations

import hashlib
import json

from engine.llm.types import Backend, Request

# recorded in every run card: how a job's items are batched
PLAN = "groups of schedule.n_seq consecutive items of the job's request list, each decoded whole"


def _canonical(data) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def plan_size(backend: Backend) -> int | None:
    """Items decoded together by ``backend`` (its schedule's n_seq); None: the backend's
    outputs do not depend on what it decodes alongside (endpoints, test fakes)."""
    schedule = getattr(backend, "schedule", None)
    n_seq = getattr(schedule, "n_seq", None)
    return int(n_seq) if n_seq else None


def plan_groups(requests: list[Request], size: int | None) -> list[list[Request]]:
    """The job's full request list cut into consecutive groups of ``size``."""
    if not size:
        return [list(requests)] if requests else []
    return [requests[i : i + size] for i in range(0, len(requests), size)]


def plan_cache_keys(
    groups: list[list[Request]], model_id: str, schedule: dict | None
) -> dict[str, str]:
    """Cache key per request: the request itself plus, where a plan applies, the schedule
    and the exact group it is decoded in (its neighbours change its greedy bytes)."""
    keys: dict[str, str] = {}
    for group in groups:
        base = {r.key: r.cache_key(model_id) for r in group}
        if schedule is None:
            keys.update(base)
            continue
        plan = _canonical({"schedule": schedule, "group": [base[r.key] for r in group]})
        for pos, r in enumerate(group):
            keys[r.key] = hashlib.sha256(f"{base[r.key]}|{pos}|{plan}".encode()).hexdigest()
    return keys
