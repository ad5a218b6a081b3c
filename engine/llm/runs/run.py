"""Runs: what one run is (its key and card), opening, finishing and dropping it, and what it
learnt while it ran (plan timing, the planner's estimate and the actual, labels).

This module is the only writer of ``runs`` besides the leases (:mod:`engine.llm.runs.leases`).
A *run* is one combination of kind, model, prompt template, sampler, seed and schedule;
its ``run_key`` hashes all of them, so changing any makes a new run instead of mixing
results (:func:`open_run`). Labels such as a judge's role live in the card, outside the key
(:func:`label_runs`). A run that asks an endpoint for JSON records how the endpoint takes the
schema (:mod:`engine.llm.runs.output_mode`).

A run row whose job failed before storing anything is removed (:func:`discard_if_empty`).
Which rows of other stages keep a run is theirs to say: each declares the query in its
schema declarations (``RUN_HOLDERS``, engine.workspace.stages), so this stage names no table
it does not own.
"""

from __future__ import annotations

import hashlib
import json
import logging
import platform
import sqlite3
from importlib import metadata

from engine.errors import Setting, UserError, setting
from engine.i18n import N_
from engine.llm.endpoints.batch_backends import replaying_runs
from engine.llm.endpoints.structured import MODES
from engine.llm.models.settings import Schedule, model_identity_with_adapter
from engine.llm.planning.batch_plan import PLAN, plan_groups
from engine.llm.planning.planner import Calibration, Estimate
from engine.llm.planning.schedule_choice import CANDIDATE_REFILLS, machine, remembered
from engine.llm.runs.output_mode import CARD_KEY, card_with_mode, keyed_card
from engine.llm.runs.writes import (
    delete_empty_run,
    insert_run,
    mark_run_done,
    rekey_undecoded_run,
    set_card_label,
    set_card_value,
    set_plan_size,
    set_run_key,
)
from engine.llm.runtime.factory import local_options
from engine.llm.runtime.sampling import sampling_places
from engine.llm.types import Request
from engine.workspace.stages import run_holders
from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)

# n_threads does not change which floats are summed in which order; it is recorded only.
SCHEDULE_NOT_IN_KEY = ("n_threads",)


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
    # an endpoint asked for JSON: how it takes the schema (probed once), in the card
    card = card_with_mode(ws, model_row, card, requests)
    existing, run_key, schedule, base, choice = _resolve_replayed(ws, kind, model_row, card)
    if existing is None and CARD_KEY in card:
        existing = _adopt_undecoded(ws, kind, model_row, card, run_key)
    identity, keyed = base["model"], base["schedule"]
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
            N_(
                "run %d decoded its items in other batches than %d items give; a new run is "
                "opened so that its outputs equal a fresh run's"
            ),
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
        "versions": (versions := library_versions()),
        # how items are batched (a function of the item list and the schedule: see the
        # docstring of engine.llm.runs.jobs) and where: greedy bytes are reproducible on the
        # same build
        "plan": PLAN,
        "platform": {"machine": platform.machine(), "system": platform.platform()},
        **({"grown_from": grown_from, "plan_items": len(requests or [])} if grown_from else {}),
        **({"schedule_choice": choice} if choice else {}),
        # where tokens are sampled (llama.cpp's backend or the worker), not in the key:
        # greedy bytes are the same on either side, and seeded chains stay on the host
        **({"sampling": _sampling(model_row, versions)} if model_row.get("kind") == "gguf" else {}),
    }
    with ws.transaction() as conn:
        insert_run(conn, kind, run_key, model_row.get("id"), canonical_json(full_card), utcnow())
    return ws.scalar("SELECT id FROM runs WHERE run_key = ?", (run_key,))


def _key_parts(kind: str, model_row: dict, card: dict) -> tuple[str, dict, dict, dict]:
    """What a run key hashes: the model's identity, its schedule (all of it, and the part
    in the key) and the base of the key."""
    identity = model_identity(model_row)
    schedule = effective_schedule(model_row, card)
    keyed = {k: v for k, v in schedule.items() if k not in SCHEDULE_NOT_IN_KEY}
    return (
        identity,
        schedule,
        keyed,
        {"kind": kind, "model": identity, "card": keyed_card(card), "schedule": keyed},
    )


def _adopt_undecoded(
    ws: Workspace, kind: str, model_row: dict, card: dict, run_key: str
) -> int | None:
    """A run of the same step under another structured-output mode that finished nothing
    (opened before its endpoint's mode was found, or before modes existed, every request
    refused): it takes this mode and key, so what it stored (gated items, say) is kept."""
    for mode in MODES:
        if mode == card[CARD_KEY]:
            continue
        other = _resolve(ws, kind, model_row, {**card, CARD_KEY: mode})[0]
        if other is None:
            continue
        with ws.transaction() as conn:
            value = json.dumps(card[CARD_KEY])
            if rekey_undecoded_run(conn, other, run_key, CARD_KEY, value):
                log.info("run %d takes structured output as %s", other, card[CARD_KEY])
                return other
    return None


def _resolve_replayed(
    ws: Workspace, kind: str, model_row: dict, card: dict
) -> tuple[int | None, str, dict, dict, dict]:
    """:func:`_resolve`; while batch results are replayed, the exported run they answer,
    whatever structured-output mode the endpoint has taken since the export."""
    found = _resolve(ws, kind, model_row, card)
    replayed = replaying_runs()
    if replayed is None or CARD_KEY not in card or found[0] in replayed:
        return found
    for mode in MODES:
        other = _resolve(ws, kind, model_row, {**card, CARD_KEY: mode})
        if other[0] is not None and other[0] in replayed:
            return other
    return found


def _resolve(
    ws: Workspace, kind: str, model_row: dict, card: dict
) -> tuple[int | None, str, dict, dict, dict]:
    """The run (kind, model, card) resumes, or None, and the key, schedule and key base it
    has or a new one gets, and how its refill is decided (``schedule_choice`` in its card).

    A refill the user set is the one; otherwise the run is looked for under the refill
    this machine chose for the kind (engine.llm.planning.schedule_choice) or the default first, then
    under the other candidates: a run keeps the schedule it was opened with, wherever and
    whenever a choice is made."""
    identity, schedule, keyed, base = _key_parts(kind, model_row, card)
    model_id = model_row.get("id")
    choice = _schedule_choice(ws, kind, model_row, card, schedule, identity)
    refills = [choice["refill"]] if "refill" in choice else [None]
    refills += [r for r in CANDIDATE_REFILLS if "refill" in choice and r not in refills]
    candidates = []  # (key base, schedule, run key) per refill, in the order looked for
    for refill in refills:
        option = {**base, "schedule": {**keyed, "refill": refill}} if refill else base
        with_refill = {**schedule, "refill": refill} if refill else schedule
        candidates.append((option, with_refill, _hash({**option, "model_id": model_id})))
    if "refill" in choice:
        choice["keys"] = {str(r): key for r, (_, _, key) in zip(refills, candidates)}
    for option, with_refill, run_key in candidates:
        existing = ws.scalar("SELECT id FROM runs WHERE run_key = ?", (run_key,))
        if existing is None:
            # a run keyed before runs carried their model's id: resumed by that model only
            existing = ws.scalar(
                "SELECT id FROM runs WHERE run_key = ? AND model_id IS ?", (_hash(option), model_id)
            )
        if existing is not None:
            return existing, run_key, with_refill, option, choice
    option, with_refill, run_key = candidates[0]
    return None, run_key, with_refill, option, choice


def _schedule_choice(
    ws: Workspace, kind: str, model_row: dict, card: dict, schedule: dict, identity: str
) -> dict:
    """How a new run's refill is decided: ``set`` by the user (load parameters or the job's
    schedule), ``remembered`` (this machine's choice for the kind, with its timings) or
    ``default``; empty for a backend without a batch schedule."""
    if not schedule.get("n_seq"):
        return {}
    options = local_options(model_row)
    if "refill" in options or "refill" in (card.get("schedule") or {}):
        return {"by": "set"}
    here = machine(schedule, options)
    known = remembered(ws, kind, identity, int(schedule["n_seq"]), here)
    if known is None:
        return {"by": "default", "refill": schedule["refill"], "machine": here}
    return {"by": "remembered", "machine": here, **known}


def existing_run(ws: Workspace, kind: str, model_row: dict, card: dict) -> int | None:
    """The run :func:`open_run` resumes for (kind, model, card), or None; creates nothing
    (the planner asks what is left to decode). Runs keyed before slot refill are not found."""
    card = card_with_mode(ws, model_row, card, may_probe=False)
    return _resolve(ws, kind, model_row, card)[0]


def planned_schedule(ws: Workspace, kind: str, model_row: dict, card: dict) -> tuple[dict, dict]:
    """The schedule :func:`open_run` would give (kind, model, card) — the run it resumes, or
    a new one's — and how its refill is decided; creates nothing."""
    card = card_with_mode(ws, model_row, card, may_probe=False)
    _, _, schedule, _, choice = _resolve(ws, kind, model_row, card)
    return schedule, choice


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
    planner's model-error term (engine.llm.planning.planner)."""
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
    from engine.llm.planning.plan_store import group_payload, item_groups

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
        f"its items in other batches (a smaller {setting(Setting.LIMIT)}), so extending it "
        "would give other outputs than a fresh run"
    )


def _hash(data: dict) -> str:
    return hashlib.sha256(canonical_json(data).encode()).hexdigest()


def _sampling(model_row: dict, versions: dict) -> dict:
    offloaded = local_options(model_row).get("n_gpu_layers", 0) != 0  # the worker's rule
    return sampling_places(versions["llama-cpp-python"], offloaded)


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


def recorded_schedule(card: dict) -> dict:
    """The schedule a run card records; one written before slot refill (no ``refill``)
    decoded whole groups of ``n_seq``, which is ``refill`` 1."""
    schedule = dict(card.get("schedule") or {})
    if schedule.get("n_seq") and "refill" not in schedule:
        schedule["refill"] = 1
    return schedule


def adopt_refill(
    ws: Workspace, run_id: int, refill: int, timings: dict, noise: float = 0.0
) -> bool:
    """Give a run that has decoded nothing the ``refill`` its calibration chose: the key and
    card schedule it would have had with that refill (its card's ``schedule_choice.keys``),
    and the timings in its card. A run that holds a response keeps its schedule (its bytes
    depend on it), as does one whose new key another run has. Returns whether it changed."""
    card = run_card(ws, run_id)
    choice = card.get("schedule_choice") or {}
    run_key = (choice.get("keys") or {}).get(str(refill))
    if run_key is None:
        return False
    record = {**choice, "by": "calibration", "refill": refill, "timings": timings, "noise": noise}
    with ws.transaction() as conn:
        same = refill == (card.get("schedule") or {}).get("refill")
        changed = same or set_run_key(conn, run_id, run_key)
        if changed:
            set_card_value(conn, run_id, "schedule.refill", canonical_json(refill))
            set_card_value(conn, run_id, "schedule_choice", canonical_json(record))
    return changed and not same


def run_model_id(ws: Workspace, run_id: int) -> int | None:
    """The id of the model a run belongs to (None: a run of no registered model)."""
    return ws.scalar("SELECT model_id FROM runs WHERE id = ?", (run_id,))


def record_plan_size(ws: Workspace, run_id: int, size: int | None) -> None:
    """Record the plan size the run's jobs decode with, once: the first job's stays (see
    :func:`open_run`, 'growing a run')."""
    with ws.transaction() as conn:
        set_plan_size(conn, run_id, size)


def finish_run(ws: Workspace, run_id: int) -> None:
    """Mark a run whose every item has a finished response as done."""
    with ws.transaction() as conn:
        mark_run_done(conn, run_id)


def discard_if_empty(ws: Workspace, run_id: int) -> bool:
    """Remove a run row that holds nothing (its job failed before storing a result, e.g. the
    model did not load), so no empty ``open`` run is left behind. Returns whether it did.
    Rows of other stages that point at the run keep it (their ``RUN_HOLDERS``)."""
    try:
        with ws.transaction() as conn:
            if any(conn.execute(query, (run_id,)).fetchone() for query in run_holders()):
                return False
            return delete_empty_run(conn, run_id)
    except sqlite3.Error:  # cleaning up must not hide the error that brought us here
        log.exception("could not remove the empty run %d", run_id)
        return False
