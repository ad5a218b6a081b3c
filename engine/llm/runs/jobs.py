"""Resumable LLM jobs: generate every item of a run not yet done, in a reproducible batch
plan, under the run's lease.

What a run is lives in :mod:`engine.llm.runs.run` (keys, cards, plan timing), where its results
go in :mod:`engine.llm.runs.responses` (the batched writer and the response cache), and which
backend a run opens in :mod:`engine.llm.runs.backend`. Greedy requests are served from and
stored into ``response_cache``; sampled requests never are.

**Reproducible batches.** Batching changes greedy outputs, so for a backend with a batch
schedule (local GGUF: ``n_seq``) the *plan* is fixed by the items alone: the job's full
request list, in order, cut into consecutive groups of ``n_seq * refill``, each decoded
in one scheduler run whose freed slots take the group's next items
(:mod:`engine.llm.planning.batch_plan`). A group with any pending
item is decoded whole (its finished items again, their results dropped), so every item is
always decoded next to the same neighbours: a resumed run, a fresh workspace and an
uninterrupted run give the same bytes. The cache key of a planned item covers its group
(:func:`plan_cache_keys`), so a cached reply is only reused where it would be reproduced.

**Leases.** A run is decoded by one process at a time: :func:`run_job` takes the run's
lease (owner ``host:pid``, a heartbeat time) and a second process refuses with a message
naming the holder; a lease of a dead process (same host) or one silent for
``LEASE_TTL_S`` is taken over. A run row whose job failed before storing anything is
removed (:func:`engine.llm.runs.run.discard_if_empty`).
"""

from __future__ import annotations

import contextlib
import logging
import time
from dataclasses import dataclass

from engine.errors import UserError
from engine.i18n import N_, _
from engine.llm.planning.batch_plan import plan_cache_keys, plan_groups, plan_size
from engine.llm.planning.planner import Calibration, calibrate, estimate
from engine.llm.planning.schedule_choice import CANDIDATE_REFILLS, remember
from engine.llm.runs import backend as run_backend
from engine.llm.runs.leases import LEASE_BEAT_S, acquire_lease, release_lease, renew_lease
from engine.llm.runs.responses import (
    ResponseWriter,
    cached_replies,
    differs_from_stored,
    done_keys,
    has_responses,
)
from engine.llm.runs.run import (
    SCHEDULE_NOT_IN_KEY,
    adopt_refill,
    discard_if_empty,
    finish_run,
    grown_note,
    note_in_card,
    past_errors,
    record_actual,
    record_estimate,
    record_plan_size,
    run_card,
    run_model_id,
)
from engine.llm.types import Backend, CancelFn, ProgressFn, Request, Result, takes_metrics
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)

# a job call with this many items left is estimated first: its calibration is small beside it
ESTIMATE_MIN_ITEMS = 1000


@dataclass
class JobSummary:
    total: int
    done_before: int
    done_now: int
    errors: int
    cached: int
    cancelled: bool
    note: str = ""  # e.g. a new run opened because a larger --limit moved decoded items
    last_error: str = ""  # why the last failed item failed (a timeout, an HTTP status, …)
    estimate: dict | None = (
        None  # the planner's, when the call made one (engine.llm.planning.planner)
    )
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
            **({"last_error": self.last_error} if self.last_error else {}),
            **({"estimate": self.estimate, "actual": self.actual} if self.estimate else {}),
        }


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
        with contextlib.closing(run_backend.backend_for_run(ws, run_id)) as own:  # tests patch it
            return run_job(ws, run_id, own, requests, **options)
    except BaseException:
        discard_if_empty(ws, run_id)
        raise


def _plan_schedule(backend: Backend) -> dict:
    schedule = getattr(backend, "schedule", None)
    as_dict = schedule.as_dict() if schedule is not None else {}
    return {k: v for k, v in as_dict.items() if k not in SCHEDULE_NOT_IN_KEY}


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
    ``estimate``: calibrate and estimate the call's duration first (engine.llm.planning.planner;
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
    done = done_keys(ws, run_id)
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
    wants_estimate = estimate if estimate is not None else len(pending) >= ESTIMATE_MIN_ITEMS
    # a fresh run's schedule is chosen before its plan is cut (engine.llm.planning.schedule_choice)
    cal = _choose_schedule(ws, run_id, backend, pending) if wants_estimate and pending else None
    size = plan_size(backend)
    record_plan_size(ws, run_id, size)  # the plan the run is decoded with (see open_run)
    groups = plan_groups(list(requests), size)
    schedule = _plan_schedule(backend) if size else None
    plan_keys = plan_cache_keys(groups, model_id, schedule) if use_cache else {}
    pending_keys = {r.key for r in pending}
    cache_keys = {r.key: plan_keys[r.key] for r in pending if use_cache and r.sampler.greedy}
    # what each item is decoded with, recorded for replication (engine.llm.planning.plan_store)
    group_of = {r.key: g for g in (groups if size else [[r] for r in requests]) for r in g}
    writer = ResponseWriter(ws, run_id, variant_ids, cache_keys, batch_size, group_of)
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

    hits = cached_replies(ws, list(cache_keys.values())) if cache_keys else {}
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
    report(summary.note or _("cache"))
    # a group with anything left to generate is decoded whole (see the module docstring)
    to_decode = [g for g in groups if any(r.key in pending_keys and r.key not in served for r in g)]
    if not size:  # no plan: neighbours do not matter, only what is left is generated
        to_decode = [
            [r for g in to_decode for r in g if r.key in pending_keys and r.key not in served]
        ]
        to_decode = [g for g in to_decode if g]
    left = sum(1 for g in to_decode for r in g if r.key in pending_keys and r.key not in served)
    if to_decode and (estimate if estimate is not None else left >= ESTIMATE_MIN_ITEMS):
        summary.estimate = _estimate(ws, run_id, backend, [r for g in to_decode for r in g], cal)
        if summary.estimate:
            report(f"estimate: {summary.estimate['text']}")
    redecoded = mismatched = 0
    try:
        for group in to_decode:
            if cancelled and cancelled():
                break
            # the backend's own notes (retries, an endpoint down) over the job's counts
            notes = lambda _done, _total, note="": report(note)  # noqa: E731
            for result in backend.generate(group, progress=notes, cancelled=cancelled):
                if result.key not in pending_keys or result.key in served:
                    # a finished neighbour decoded again for the plan: the same bytes, or
                    # this machine/build does not reproduce (logged, the stored one stays)
                    redecoded += 1
                    if result.ok:
                        mismatched += differs_from_stored(ws, run_id, result)
                    continue
                writer.add(result)
                if result.ok and result.text is not None:
                    summary.done_now += 1
                    generated += result.completion_tokens
                else:
                    summary.errors += 1
                    summary.last_error = result.error or summary.last_error
                # the rate only: each front end times the phase itself (its ETA)
                elapsed = time.monotonic() - start
                report(f"{generated / max(elapsed, 1e-9):.1f} tok/s")
            writer.flush()
    finally:
        writer.flush()
    if mismatched:
        log.warning(
            N_(
                "run %d: %d of %d finished items decoded again for the batch plan came out "
                "different: outputs do not reproduce on this machine/build"
            ),
            run_id,
            mismatched,
            redecoded,
        )
    # what this call took, beside the planner's estimate (engine.llm.planning.planner); a
    # backend answering from files took no online time, and its near-zero time would read
    # as a pace
    if to_decode and getattr(backend, "timed", True):
        summary.actual = {
            "seconds": round(time.monotonic() - start, 2),
            "items": summary.done_now - summary.cached + summary.errors,
            "output_tokens": generated,
        }
        record_actual(ws, run_id, **summary.actual)
    # the backend and device the model ran on (a local model's worker knows, once loaded)
    compute = getattr(backend, "compute", None)
    if isinstance(compute, dict):
        note_in_card(ws, run_id, "compute", compute)
    summary.cancelled = bool(cancelled and cancelled()) and not summary.complete
    if summary.complete:
        finish_run(ws, run_id)
    report(_("done") if summary.complete else _("stopped"))
    return summary


def _choose_schedule(
    ws: Workspace, run_id: int, backend: Backend, pending: list[Request]
) -> Calibration | None:
    """For a run that has decoded nothing and whose refill nobody set or chose before
    (``schedule_choice.by`` is ``default``): calibrate on ``pending`` comparing the candidate
    refills, remember the faster one for the kind, model and machine, and give it to the
    run and to ``backend``. Returns the calibration (the estimate scales it), or None."""
    card = run_card(ws, run_id)
    choice = card.get("schedule_choice") or {}
    schedule = getattr(backend, "schedule", None)
    if (
        choice.get("by") != "default"
        or card.get("grown_from")
        or schedule is None
        or schedule.n_seq != (card.get("schedule") or {}).get("n_seq")
        or has_responses(ws, run_id)
    ):
        return None
    try:
        cal = calibrate(backend, pending, refills=CANDIDATE_REFILLS)
    except Exception as exc:  # a failing backend: the job itself reports its items' errors
        log.warning(N_("run %d: no estimate (%s)"), run_id, exc)
        return None
    if cal.refill is None:
        return cal
    timings = cal.as_dict()["schedules"]
    model = card["model"]["identity"]
    remember(ws, card["kind"], model, schedule.n_seq, choice["machine"], cal.refill, timings)
    if adopt_refill(ws, run_id, cal.refill, timings, round(cal.noise, 4)):
        run_backend.use_refill(backend, cal.refill)
    log.info("run %d: batch schedule refill %d (%s)", run_id, cal.refill, timings)
    return cal


def _estimate(
    ws: Workspace,
    run_id: int,
    backend: Backend,
    to_decode: list[Request],
    cal: Calibration | None = None,
) -> dict | None:
    """The planner's estimate for what this call decodes, recorded in the run card
    (``cal``: a calibration this call already made)."""
    try:
        cal = cal or calibrate(backend, to_decode)
    except Exception as exc:  # a failing backend: the job itself reports its items' errors
        log.warning(N_("run %d: no estimate (%s)"), run_id, exc)
        return None
    model_id = run_model_id(ws, run_id)
    est = estimate(to_decode, cal, past_errors(ws, model_id))
    record_estimate(ws, run_id, est, cal)
    log.info("run %d: %s", run_id, est.describe())
    return {**est.as_dict(), "text": est.describe()}
