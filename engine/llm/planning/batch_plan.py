"""The batch plan: which items a local model decodes together.

Batching changes greedy outputs (docs/design.md pitfall), so the plan must not depend on timing,
on what is cached or on where a previous process stopped: it is the job's full request
list, in order, cut into consecutive groups of ``n_seq * refill`` items (the schedule's),
and a group with anything left to generate is decoded whole (:mod:`engine.llm.runs.jobs`).

A group is one run of the scheduler from an empty KV cache: its first ``n_seq`` items
start together, and each time a sequence finishes the group's next item takes the freed
slot (:mod:`engine.llm.runtime.scheduler`). Which item enters at which decode step is therefore a
function of the group's items alone — their order, prompt lengths, token budgets and the
greedy output lengths, which are themselves the group's bytes — never of timing, so a
fresh and a resumed run perform the same float operations. Why the group and not each
item alone: a sequence's logits depend on what shares its ``llama_decode`` calls (the
batch's row count picks kernels and chunking) and on which KV cells its neighbours left
(DESIGN.md: batching changes greedy outputs; measured again: with flash attention on,
4 of 8 answers decoded alone equal the same answers in a batch of 16).

Backends without a batch schedule (endpoints) have no plan: their outputs do not depend
on neighbours.
"""

from __future__ import annotations

import hashlib
import json

from engine.llm.types import Backend, Request

# recorded in every run card: how a job's items are batched
PLAN = (
    "groups of schedule.n_seq * schedule.refill consecutive items of the job's request list, "
    "each decoded whole in one scheduler run with slot refill in the group's order"
)


def _canonical(data) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def plan_size(backend: Backend) -> int | None:
    """Items of one plan group of ``backend`` (n_seq * refill of its schedule); None: the
    backend's outputs do not depend on what it decodes alongside (endpoints)."""
    schedule = getattr(backend, "schedule", None)
    n_seq = getattr(schedule, "n_seq", None)
    return int(n_seq) * int(getattr(schedule, "refill", 1) or 1) if n_seq else None


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
