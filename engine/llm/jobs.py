"""Resumable LLM jobs: runs, items with stable keys, batched writes, a response cache.

This module is the only writer of ``responses`` (and ``response_cache``): jobs store them,
:func:`reject_responses` and :func:`link_variant` are the two later changes other stages
may ask for.

A *run* is one combination of kind, model, prompt template, sampler, seed and schedule;
its ``run_key`` hashes all of them, so changing any makes a new run instead of mixing
results. Results are written ``batch_size`` at a time, one transaction per batch: a kill at
any moment loses at most the unwritten batch (which the next call regenerates) and the
``UNIQUE (run_id, item_key)`` constraint makes duplicates impossible. An errored item keeps
its error and attempt count; a later call retries it. Greedy requests are served from and
stored into ``response_cache``; sampled requests never are.

**Reproducible batches.** Batching changes greedy outputs, so for a backend with a batch
schedule (local GGUF: ``n_seq``) the *plan* is fixed by the items alone: the job's full
request list, in order, cut into consecutive groups of ``n_seq * refill``, each decoded
in one scheduler run whose freed slots take the group's next items
(:mod:`engine.llm.batch_plan`). A group with any pending
item is decoded whole (its finished items again, their results dropped), so every item is
always decoded next to the same neighbours: a resumed run, a fresh workspace and an
uninterrupted run give the same bytes. The cache key of a planned item covers its group
(:func:`plan_cache_keys`), so a cached reply is only reused where it would be reproduced.

**Leases.** A run is decoded by one process at a time: :func:`run_job` takes the run's
lease (owner ``host:pid``, a heartbeat time) and a second process refuses with a message
naming the holder; a lease of a dead process (same host) or one silent for
``LEASE_TTL_S`` is taken over. A run row whose job failed before storing anything is
removed (:func:`discard_if_empty`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import platform
import sqlite3
import time
from dataclasses import dataclass
from importlib import metadata

from engine.errors import UserError
from engine.llm.batch_plan import PLAN, plan_cache_keys, plan_groups, plan_size
from engine.llm.factory import local_options, open_backend
from engine.llm.leases import LEASE_BEAT_S, acquire_lease, release_lease, renew_lease
from engine.llm.plan_store import record_groups
from engine.llm.planner import Calibration, Estimate, calibrate, estimate
from engine.llm.run_writes import (
    delete_empty_run,
    insert_run,
    mark_run_done,
    set_card_label,
    set_card_value,
    set_plan_size,
)
from engine.llm.settings import Schedule, model_identity_with_adapter
from engine.llm.types import Backend, CancelFn, ProgressFn, Request, Result, takes_metrics
from engine.llm.worker import ModelDidNotLoad
from engine.text.redact import redact
from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)

# a job call with this many items left is estimated first (the calibration costs ~1-3 %)
ESTIMATE_MIN_ITEMS = 1000

# n_threads does not change which floats are summed in which order; it is recorded only.
_SCHEDULE_NOT_IN_KEY = ("n_threads",)


@dataclass
class JobSummary:
    total: int
    done_before: int
    done_now: int
    errors: int
    cached: int
    cancelled: bool
    note: str = ""  # e.g. a new run opened because a larger --limit moved decoded items
    estimate: dict | None = None  # the planner's, when the call made one (engine.llm.planner)
    actual: dict | None = None  # what the call took (seconds, items, output tokens)

    @property
    def complete(self) -> bool:
        return self.done_before + self.done_now == self.total

    def counts(self) -> dict:
        """The counts a step reports (CLI ``--json``, GUI dialogs, completeness checks)."""
        return {
            "items": self.total,
            "done_before": self.done_before,
            "done_now": self.done_now,
            "cached": self.cached,
            "errors": self.errors,
            "complete": self.complete,
            "cancelled": self.cancelled,
            **({"note": self.note} if self.note else {}),
            **({"estimate": self.estimate, "actual": self.actual} if self.estimate else {}),
        }


def canonical_json(data) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def model_identity(model_row: dict) -> str:
    """Model sha256 for GGUF files; the endpoint's name and served model otherwise."""
    if model_row.get("kind") == "gguf":
        if not model_row.get("sha256"):
            raise UserError(f"model {model_row.get('name')!r} has no sha256")
        return model_identity_with_adapter(model_row["sha256"], local_options(model_row))
    return f"endpoint:{model_row.get('name')}#{model_row.get('api_model') or ''}"


def effective_schedule(model_row: dict, card: dict) -> dict:
    """The batch schedule a local run uses: saved load_params, then the card's 'schedule'."""
    if model_row.get("kind") != "gguf":
        return {}
    return (
        Schedule.from_options(local_options(model_row, **card.get("schedule", {})))
        .resolved()
        .as_dict()
    )


def library_versions() -> dict:
    versions: dict[str, str | None] = {
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
    }
    for dist in ("llama-cpp-python", "upabhasha", "httpx"):
        try:
            versions[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[dist] = None
    return versions


def open_run(
    ws: Workspace,
    kind: str,
    model_row: dict,
    card: dict,
    requests: list[Request] | None = None,
) -> int:
    """The run for (kind, registered model, card); an existing one with the same key is
    resumed.

    **Growing a run.** With ``requests`` (the job's full list), a run whose finished items
    were decoded in other plan groups than ``requests`` puts them in — a larger ``--limit``
    filled its last, partial group, or inserted items before it — is not extended: its
    bytes would differ from a fresh run's at the new size. A new run is opened instead,
    keyed by the item count (a fresh workspace at that size gives the same bytes), its card
    names the run it grew from, and it says so (:func:`grown_note`). Growth that only adds
    whole groups after the decoded ones extends the same run.

    A run belongs to the registered model — its id and what decides its outputs (the GGUF
    file's sha256, or the endpoint) — so two workspace names for the same file each have
    their own runs, and a run opens its own model's file. (The response cache stays keyed by
    the sha256 alone: the same file gives the same greedy outputs under any name.)
    """
    identity, schedule, keyed, base = _key_parts(kind, model_row, card)
    run_key = _hash({**base, "model_id": model_row.get("id")})
    existing = ws.scalar("SELECT id FROM runs WHERE run_key = ?", (run_key,))
    if existing is None:
        # a run keyed before runs carried their model's id: resumed by that model only
        existing = ws.scalar(
            "SELECT id FROM runs WHERE run_key = ? AND model_id IS ?",
            (_hash(base), model_row.get("id")),
        )
    if existing is None and "refill" in keyed:
        # a run from before slot refill decoded whole groups of n_seq: it resumes that way
        old = {**base, "schedule": {k: v for k, v in keyed.items() if k != "refill"}}
        existing = ws.scalar(
            "SELECT id FROM runs WHERE run_key IN (?, ?) AND model_id IS ? ORDER BY id LIMIT 1",
            (_hash({**old, "model_id": model_row.get("id")}), _hash(old), model_row.get("id")),
        )
        if existing is not None:
            schedule = recorded_schedule(run_card(ws, existing))
    grown_from = None
    if (
        existing is not None
        and requests is not None
        and _plan_moved(ws, existing, schedule, requests)
    ):
        grown_from = existing
        run_key = _hash({**base, "model_id": model_row.get("id"), "plan_items": len(requests)})
        existing = ws.scalar("SELECT id FROM runs WHERE run_key = ?", (run_key,))
        log.warning(
            "run %d decoded its items in other batches than %d items give; a new run is "
            "opened so that its outputs equal a fresh run's",
            grown_from,
            len(requests),
        )
    if existing is not None:
        return existing
    full_card = {
        **card,
        "kind": kind,
        "schedule": schedule,
        "model": {
            "id": model_row.get("id"),
            "name": model_row.get("name"),
            "kind": model_row.get("kind"),
            "identity": identity,
            **_adapter(model_row),
        },
        "versions": library_versions(),
        # how items are batched (a function of the item list and the schedule: see the
        # module docstring) and where: greedy bytes are reproducible on the same build
        "plan": PLAN,
        "platform": {"machine": platform.machine(), "system": platform.platform()},
        **({"grown_from": grown_from, "plan_items": len(requests or [])} if grown_from else {}),
    }
    with ws.transaction() as conn:
        insert_run(conn, kind, run_key, model_row.get("id"), canonical_json(full_card), utcnow())
    return ws.scalar("SELECT id FROM runs WHERE run_key = ?", (run_key,))


def _key_parts(kind: str, model_row: dict, card: dict) -> tuple[str, dict, dict, dict]:
    """What a run key hashes: the model's identity, its schedule (all of it, and the part
    in the key) and the base of the key."""
    identity = model_identity(model_row)
    schedule = effective_schedule(model_row, card)
    keyed = {k: v for k, v in schedule.items() if k not in _SCHEDULE_NOT_IN_KEY}
    return (
        identity,
        schedule,
        keyed,
        {"kind": kind, "model": identity, "card": card, "schedule": keyed},
    )


def existing_run(ws: Workspace, kind: str, model_row: dict, card: dict) -> int | None:
    """The run :func:`open_run` resumes for (kind, model, card), or None; creates nothing
    (the planner asks what is left to decode). Runs keyed by older rules are not found."""
    base = _key_parts(kind, model_row, card)[3]
    return ws.scalar(
        "SELECT id FROM runs WHERE run_key = ?", (_hash({**base, "model_id": model_row.get("id")}),)
    )


def update_plan_timing(ws: Workspace, run_id: int, key: str, value: dict) -> None:
    """Set ``plan_timing.<key>`` of a run card (the planner's estimate, the actual)."""
    note_in_card(ws, run_id, f"plan_timing.{key}", value)


def record_estimate(ws: Workspace, run_id: int, est: Estimate, cal: Calibration) -> None:
    """The planner's estimate (and its calibration) into the run card, before the job."""
    update_plan_timing(ws, run_id, "estimate", {**est.as_dict(), "calibration": cal.as_dict()})


def record_actual(
    ws: Workspace, run_id: int, *, seconds: float, items: int, output_tokens: int
) -> None:
    """What a job call took, added to the run card's totals (a resumed run adds up)."""
    before = (run_card(ws, run_id).get("plan_timing") or {}).get("actual") or {}
    update_plan_timing(
        ws,
        run_id,
        "actual",
        {
            "calls": before.get("calls", 0) + 1,
            "seconds": round(before.get("seconds", 0.0) + seconds, 2),
            "items": before.get("items", 0) + items,
            "output_tokens": before.get("output_tokens", 0) + output_tokens,
        },
    )


PAST_RUNS = 20  # the past runs of a model whose estimate errors the planner learns from
PAST_MIN_SECONDS = 1.0  # a shorter run is mostly fixed overhead: its relative error says little


def past_errors(ws: Workspace, model_id: int | None, last: int = PAST_RUNS) -> list[float]:
    """``actual / estimate - 1`` of the ``last`` runs of ``model_id`` (newest first) whose
    card holds an estimate and the actual of the one call it estimated (a resumed run's
    actual adds up several calls, its estimate is the last call's: left out), for the
    planner's model-error term (engine.llm.planner)."""
    if model_id is None:
        return []
    rows = ws.conn.execute(
        """SELECT json_extract(card, '$.plan_timing.estimate.seconds'),
                  json_extract(card, '$.plan_timing.actual.seconds')
           FROM runs
           WHERE model_id = ?
             AND json_extract(card, '$.plan_timing.actual.calls') = 1
             AND json_extract(card, '$.plan_timing.actual.items')
                 = json_extract(card, '$.plan_timing.estimate.items')
             AND json_extract(card, '$.plan_timing.estimate.seconds') > 0
             AND json_extract(card, '$.plan_timing.actual.seconds') >= ?
           ORDER BY id DESC LIMIT ?""",
        (model_id, PAST_MIN_SECONDS, last),
    )
    return [actual / est - 1 for est, actual in rows]


def _plan_moved(ws: Workspace, run_id: int, schedule: dict, requests: list[Request]) -> bool:
    """Whether a finished item of ``run_id`` was decoded in another group than the plan of
    ``requests`` gives it (endpoints have no plan: never)."""
    from engine.llm.plan_store import group_payload, item_groups

    card = run_card(ws, run_id)
    if "plan_size" in card:  # what the run's jobs decoded with (None: no plan, endpoints)
        size = card["plan_size"]
    elif schedule.get("n_seq"):
        size = int(schedule["n_seq"]) * int(schedule.get("refill") or 1)
    else:
        size = None
    recorded = item_groups(ws, run_id) if size else {}
    if not recorded:
        return False
    for group in plan_groups(list(requests), size):
        if not any(r.key in recorded for r in group):
            continue
        key = group_payload(group)[0]
        if any(r.key in recorded and recorded[r.key][0] != key for r in group):
            return True
    return False


def grown_note(ws: Workspace, run_id: int) -> str:
    """What to tell the user about a run opened because another one grew (or "")."""
    card = run_card(ws, run_id)
    if not card.get("grown_from"):
        return ""
    return (
        f"new run {run_id} for {card['plan_items']} items: run {card['grown_from']} decoded "
        "its items in other batches (a smaller --limit), so extending it would give other "
        "outputs than a fresh run"
    )


def _hash(data: dict) -> str:
    return hashlib.sha256(canonical_json(data).encode()).hexdigest()


def _adapter(model_row: dict) -> dict:
    """The LoRA adapter of a local model for its run card: path, scale, sha256."""
    if model_row.get("kind") != "gguf":
        return {}
    options = local_options(model_row)
    if not options.get("lora_path"):
        return {}
    identity = model_identity(model_row)
    return {
        "adapter": {
            "path": options["lora_path"],
            "scale": float(options.get("lora_scale", 1.0)),
            "sha256": identity.split("+lora:", 1)[1].rsplit("@", 1)[0],
        }
    }


def run_card(ws: Workspace, run_id: int) -> dict:
    raw = ws.scalar("SELECT card FROM runs WHERE id = ?", (run_id,))
    if raw is None:
        raise UserError(f"no run {run_id}")
    return json.loads(raw)


def note_in_card(ws: Workspace, run_id: int, path: str, value) -> None:
    """Record ``value`` at ``path`` (``sample``, ``plan_timing.actual``) in a run's stored
    card, outside its key (the run's identity does not change): what a run learnt while it
    ran, e.g. the sample it drew or how long it took."""
    with ws.transaction() as conn:
        set_card_value(conn, run_id, path, canonical_json(value))


def label_runs(
    ws: Workspace, kind: str, key: str, run_id: int, *, chosen: str, others: str
) -> None:
    """Set the card label ``key`` of run ``run_id`` to ``chosen`` and of every other run of
    ``kind`` to ``others``, in one transaction. A label (e.g. a judge's role) is not part of
    the run key: changing it never re-runs anything."""
    with ws.transaction() as conn:
        set_card_label(conn, kind, key, run_id, chosen=chosen, others=others)


def backend_for_run(ws: Workspace, run_id: int, **options) -> Backend:
    """Open the run's model with the schedule its card records (reproducible reruns). A model
    that cannot be opened raises :class:`ModelDidNotLoad`, as one whose worker fails to load
    it does: every step reports it alike (incomplete, resumable)."""
    row = ws.query(
        "SELECT m.* FROM runs r JOIN models m ON m.id = r.model_id WHERE r.id = ?", (run_id,)
    )
    if not row:
        raise UserError(f"run {run_id} has no model")
    schedule = recorded_schedule(run_card(ws, run_id))
    try:
        return open_backend(row[0], **{**schedule, **options})
    except UserError as exc:  # its file gone or invalid, its API key missing: resumable
        raise ModelDidNotLoad(not_loaded_reason(row[0], exc)) from exc


def not_loaded_reason(model: dict, exc: BaseException) -> str:
    """What a step says of a model that did not load: its name and why (said once)."""
    named, why = f"model {model['name']!r}", str(exc)
    if why.startswith(f"{named} did not load: "):
        return why
    return f"{named} did not load: {why.removeprefix(named + ': ')}"


def recorded_schedule(card: dict) -> dict:
    """The schedule a run card records; one written before slot refill (no ``refill``)
    decoded whole groups of ``n_seq``, which is ``refill`` 1."""
    schedule = dict(card.get("schedule") or {})
    if schedule.get("n_seq") and "refill" not in schedule:
        schedule["refill"] = 1
    return schedule


def run_job_on_model(
    ws: Workspace,
    run_id: int,
    requests: list[Request],
    *,
    backend: Backend | None = None,
    **options,
) -> JobSummary:
    """:func:`run_job` with ``backend``, or else with the run's own model opened with the
    schedule its card records (so reruns reproduce) and closed afterwards."""
    try:
        if backend is not None:
            return run_job(ws, run_id, backend, requests, **options)
        with contextlib.closing(backend_for_run(ws, run_id)) as own:
            return run_job(ws, run_id, own, requests, **options)
    except BaseException:
        discard_if_empty(ws, run_id)
        raise


def finished_responses(ws: Workspace, run_id: int) -> dict[str, dict]:
    """The run's finished responses (id, item_key, text) by item key."""
    return {
        r["item_key"]: r
        for r in ws.query(
            "SELECT id, item_key, text FROM responses WHERE run_id = ? AND status = 'done'",
            (run_id,),
        )
    }


def discard_if_empty(ws: Workspace, run_id: int) -> bool:
    """Remove a run row that holds nothing (its job failed before storing a result, e.g. the
    model did not load), so no empty ``open`` run is left behind. Returns whether it did."""
    try:
        with ws.transaction() as conn:
            return delete_empty_run(conn, run_id)
    except sqlite3.Error:  # cleaning up must not hide the error that brought us here
        log.exception("could not remove the empty run %d", run_id)
        return False


def _plan_schedule(backend: Backend) -> dict:
    schedule = getattr(backend, "schedule", None)
    as_dict = schedule.as_dict() if schedule is not None else {}
    return {k: v for k, v in as_dict.items() if k not in _SCHEDULE_NOT_IN_KEY}


_UPSERT = """INSERT INTO responses(run_id, item_key, variant_id, status, text, error, attempts,
        prompt_tokens, completion_tokens, finish_reason, elapsed_ms, created_at)
    VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)
    ON CONFLICT(run_id, item_key) DO UPDATE SET status = excluded.status, text = excluded.text,
        error = excluded.error, attempts = responses.attempts + 1,
        prompt_tokens = excluded.prompt_tokens, completion_tokens = excluded.completion_tokens,
        finish_reason = excluded.finish_reason, elapsed_ms = excluded.elapsed_ms,
        created_at = excluded.created_at
    WHERE responses.status = 'error'"""

_CACHE_PUT = """INSERT OR IGNORE INTO response_cache(request_key, text, prompt_tokens,
        completion_tokens, finish_reason, created_at) VALUES (?, ?, ?, ?, ?, ?)"""


class _Writer:
    """Buffers results and writes them one transaction per batch, each finished item with
    the group it was decoded in (``group_of``: key -> its group's requests)."""

    def __init__(
        self,
        ws: Workspace,
        run_id: int,
        variant_ids: dict,
        cache_keys: dict,
        batch_size: int,
        group_of: dict[str, list[Request]],
    ):
        self.ws, self.run_id, self.variant_ids = ws, run_id, variant_ids
        self.cache_keys, self.batch_size = cache_keys, max(1, batch_size)
        self.group_of = group_of
        self.buffer: list[Result] = []

    def add(self, result: Result) -> None:
        self.buffer.append(result)
        if len(self.buffer) >= self.batch_size:
            self.flush()

    def flush(self) -> None:
        if not self.buffer:
            return
        now = utcnow()
        rows, cache_rows = [], []
        placed: dict[int, tuple[list[Request], list[str]]] = {}
        for r in self.buffer:
            ok = r.ok and r.text is not None
            if ok:
                group = self.group_of[r.key]
                placed.setdefault(id(group), (group, []))[1].append(r.key)
            rows.append(
                (
                    self.run_id,
                    r.key,
                    self.variant_ids.get(r.key),
                    "done" if ok else "error",
                    redact(r.text) if ok else None,  # a server may echo a key back
                    None if ok else redact(r.error or "no text"),
                    r.prompt_tokens,
                    r.completion_tokens,
                    r.finish_reason,
                    r.elapsed_ms,
                    now,
                )
            )
            cache_key = self.cache_keys.get(r.key)
            if ok and cache_key:
                cache_rows.append(
                    (
                        cache_key,
                        redact(r.text),
                        r.prompt_tokens,
                        r.completion_tokens,
                        r.finish_reason,
                        now,
                    )
                )
        with self.ws.transaction() as conn:
            conn.executemany(_UPSERT, rows)
            if cache_rows:
                conn.executemany(_CACHE_PUT, cache_rows)
            record_groups(conn, self.run_id, list(placed.values()))
        self.buffer = []


def reject_responses(ws: Workspace, rejected: list[tuple[int, str]]) -> int:
    """Turn stored replies that failed the caller's own check (an invalid judge verdict)
    into errors, ``(response id, reason)`` each: the reply text moves into ``error`` after
    the reason, and the next :func:`run_job` of the run asks for the item again."""
    if not rejected:
        return 0
    with ws.transaction() as conn:
        before = conn.total_changes
        conn.executemany(
            "UPDATE responses SET status = 'error', "
            "error = ? || char(10) || coalesce(text, ''), text = NULL "
            "WHERE id = ? AND status = 'done'",
            [(reason, response_id) for response_id, reason in rejected],
        )
        return conn.total_changes - before


def link_variant(ws: Workspace, response_id: int, variant_id: int) -> None:
    """Record which variant a response produced (a translation draft); joins the caller's
    transaction when there is one, so the variant and its link are written together."""
    with ws.transaction() as conn:
        conn.execute("UPDATE responses SET variant_id = ? WHERE id = ?", (variant_id, response_id))


def _cached(ws: Workspace, keys: list[str]) -> dict[str, dict]:
    found: dict[str, dict] = {}
    for i in range(0, len(keys), 500):
        chunk = keys[i : i + 500]
        marks = ",".join("?" * len(chunk))
        for row in ws.query(
            f"SELECT * FROM response_cache WHERE request_key IN ({marks})", tuple(chunk)
        ):
            found[row["request_key"]] = row
    return found


def run_job(
    ws: Workspace,
    run_id: int,
    backend: Backend,
    requests: list[Request],
    *,
    variant_ids: dict[str, int] | None = None,
    batch_size: int = 16,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
    use_cache: bool = True,
    skip: set[str] | None = None,
    estimate: bool | None = None,
) -> JobSummary:
    """Generate every request of ``run_id`` not yet done; see the module docstring.
    ``skip``: keys that keep their place in the batch plan but are not generated now.
    ``estimate``: calibrate and estimate the call's duration first (engine.llm.planner;
    reported as a progress note, in the summary and the run card); None: when at least
    ``ESTIMATE_MIN_ITEMS`` items are left (a calibration decodes ~2 × n_seq items)."""
    keys = [r.key for r in requests]
    if len(set(keys)) != len(keys):
        raise UserError("a job's item keys must be unique")
    owner = acquire_lease(ws, run_id)
    try:
        return _run_job(
            ws,
            run_id,
            backend,
            requests,
            owner,
            variant_ids or {},
            batch_size,
            progress,
            cancelled,
            use_cache,
            skip or set(),
            estimate,
        )
    finally:
        release_lease(ws, run_id, owner)


def _run_job(
    ws,
    run_id,
    backend,
    requests,
    owner,
    variant_ids,
    batch_size,
    progress,
    cancelled,
    use_cache,
    skip,
    estimate,
) -> JobSummary:
    done = {
        r["item_key"]
        for r in ws.query(
            "SELECT item_key FROM responses WHERE run_id = ? AND status = 'done'", (run_id,)
        )
    }
    pending = [r for r in requests if r.key not in done and r.key not in skip]
    summary = JobSummary(
        note=grown_note(ws, run_id),
        total=len(requests),
        done_before=sum(r.key in done for r in requests),
        done_now=0,
        errors=0,
        cached=0,
        cancelled=False,
    )
    model_id = backend.info().model_id
    size = plan_size(backend)
    with ws.transaction() as conn:  # the plan the run is decoded with (see open_run)
        set_plan_size(conn, run_id, size)
    groups = plan_groups(list(requests), size)
    schedule = _plan_schedule(backend) if size else None
    plan_keys = plan_cache_keys(groups, model_id, schedule) if use_cache else {}
    pending_keys = {r.key for r in pending}
    cache_keys = {r.key: plan_keys[r.key] for r in pending if use_cache and r.sampler.greedy}
    # what each item is decoded with, recorded for replication (engine.llm.plan_store)
    group_of = {r.key: g for g in (groups if size else [[r] for r in requests]) for r in g}
    writer = _Writer(ws, run_id, variant_ids, cache_keys, batch_size, group_of)
    total, start, generated = len(requests), time.monotonic(), 0
    beat = {"at": time.monotonic()}
    with_tokens = takes_metrics(progress)  # the job monitor's tokens/s

    def report(note: str = "") -> None:
        if time.monotonic() - beat["at"] >= LEASE_BEAT_S:
            beat["at"] = time.monotonic()
            renew_lease(ws, run_id, owner)
        if progress:
            metrics = {"tokens": generated} if with_tokens else {}
            progress(summary.done_before + summary.done_now, total, note, **metrics)

    hits = _cached(ws, list(cache_keys.values())) if cache_keys else {}
    served: set[str] = set()
    for req in pending:
        row = hits.get(cache_keys.get(req.key, ""))
        if row is None:
            continue
        served.add(req.key)
        writer.add(
            Result(
                req.key,
                row["text"],
                prompt_tokens=row["prompt_tokens"] or 0,
                completion_tokens=row["completion_tokens"] or 0,
                finish_reason=row["finish_reason"] or "stop",
            )
        )
        summary.cached += 1
        summary.done_now += 1
    writer.flush()
    report(summary.note or "cache")
    # a group with anything left to generate is decoded whole (see the module docstring)
    to_decode = [g for g in groups if any(r.key in pending_keys and r.key not in served for r in g)]
    if not size:  # no plan: neighbours do not matter, only what is left is generated
        to_decode = [
            [r for g in to_decode for r in g if r.key in pending_keys and r.key not in served]
        ]
        to_decode = [g for g in to_decode if g]
    left = sum(1 for g in to_decode for r in g if r.key in pending_keys and r.key not in served)
    if to_decode and (estimate if estimate is not None else left >= ESTIMATE_MIN_ITEMS):
        summary.estimate = _estimate(ws, run_id, backend, [r for g in to_decode for r in g])
        if summary.estimate:
            report(f"estimate: {summary.estimate['text']}")
    redecoded = mismatched = 0
    try:
        for group in to_decode:
            if cancelled and cancelled():
                break
            for result in backend.generate(group, cancelled=cancelled):
                if result.key not in pending_keys or result.key in served:
                    # a finished neighbour decoded again for the plan: the same bytes, or
                    # this machine/build does not reproduce (logged, the stored one stays)
                    redecoded += 1
                    if result.ok:
                        mismatched += _differs(ws, run_id, result)
                    continue
                writer.add(result)
                if result.ok and result.text is not None:
                    summary.done_now += 1
                    generated += result.completion_tokens
                else:
                    summary.errors += 1
                elapsed = time.monotonic() - start
                finished = summary.done_now - summary.cached + summary.errors
                eta = elapsed / max(finished, 1) * (left - finished)
                report(f"{generated / max(elapsed, 1e-9):.1f} tok/s, ETA {eta:.0f} s")
            writer.flush()
    finally:
        writer.flush()
    if mismatched:
        log.warning(
            "run %d: %d of %d finished items decoded again for the batch plan came out "
            "different: outputs do not reproduce on this machine/build",
            run_id,
            mismatched,
            redecoded,
        )
    if to_decode:  # what this call took, beside the planner's estimate (engine.llm.planner)
        summary.actual = {
            "seconds": round(time.monotonic() - start, 2),
            "items": summary.done_now - summary.cached + summary.errors,
            "output_tokens": generated,
        }
        record_actual(ws, run_id, **summary.actual)
    summary.cancelled = bool(cancelled and cancelled()) and not summary.complete
    if summary.complete:
        with ws.transaction() as conn:
            mark_run_done(conn, run_id)
    report("done" if summary.complete else "stopped")
    return summary


def _estimate(
    ws: Workspace, run_id: int, backend: Backend, to_decode: list[Request]
) -> dict | None:
    """The planner's estimate for what this call decodes, recorded in the run card."""
    try:
        cal = calibrate(backend, to_decode)
    except Exception as exc:  # a failing backend: the job itself reports its items' errors
        log.warning("run %d: no estimate (%s)", run_id, exc)
        return None
    model_id = ws.scalar("SELECT model_id FROM runs WHERE id = ?", (run_id,))
    est = estimate(to_decode, cal, past_errors(ws, model_id))
    record_estimate(ws, run_id, est, cal)
    log.info("run %d: %s", run_id, est.describe())
    return {**est.as_dict(), "text": est.describe()}


def _differs(ws: Workspace, run_id: int, result: Result) -> int:
    stored = ws.scalar(
        "SELECT text FROM responses WHERE run_id = ? AND item_key = ? AND status = 'done'",
        (run_id, result.key),
    )
    return int(stored is not None and stored != redact(result.text))
