"""Resumable LLM jobs: runs, items with stable keys, batched writes, a response cache.

A *run* is one combination of kind, model, prompt template, sampler, seed and schedule;
its ``run_key`` hashes all of them, so changing any makes a new run instead of mixing
results. Results are written ``batch_size`` at a time, one transaction per batch: a kill at
any moment loses at most the unwritten batch (which the next call regenerates) and the
``UNIQUE (run_id, item_key)`` constraint makes duplicates impossible. An errored item keeps
its error and attempt count; a later call retries it. Greedy requests are served from and
stored into ``response_cache``; sampled requests never are.
"""

from __future__ import annotations

import hashlib
import json
import logging
import platform
import sqlite3
import time
from dataclasses import dataclass

from engine.errors import UserError
from engine.llm.types import Backend, CancelFn, ProgressFn, Request, Result
from engine.redact import redact
from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)

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

    @property
    def complete(self) -> bool:
        return self.done_before + self.done_now == self.total


def canonical_json(data) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def model_identity(model_row: dict) -> str:
    """Model sha256 for GGUF files; the endpoint's name and served model otherwise."""
    if model_row.get("kind") == "gguf":
        if not model_row.get("sha256"):
            raise UserError(f"model {model_row.get('name')!r} has no sha256")
        return model_row["sha256"]
    return f"endpoint:{model_row.get('name')}#{model_row.get('api_model') or ''}"


def effective_schedule(model_row: dict, card: dict) -> dict:
    """The batch schedule a local run uses: saved load_params, then the card's 'schedule'."""
    if model_row.get("kind") != "gguf":
        return {}
    from engine.llm.factory import local_options
    from engine.llm.settings import Schedule

    return (
        Schedule.from_options(local_options(model_row, **card.get("schedule", {})))
        .resolved()
        .as_dict()
    )


def library_versions() -> dict:
    from importlib import metadata

    versions = {"python": platform.python_version(), "sqlite": sqlite3.sqlite_version}
    for dist in ("llama-cpp-python", "upabhasha", "httpx"):
        try:
            versions[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[dist] = None
    return versions


def open_run(ws: Workspace, kind: str, model_row: dict, card: dict) -> int:
    """The run for (kind, model, card); an existing one with the same key is resumed."""
    identity = model_identity(model_row)
    schedule = effective_schedule(model_row, card)
    keyed = {k: v for k, v in schedule.items() if k not in _SCHEDULE_NOT_IN_KEY}
    run_key = hashlib.sha256(
        canonical_json({"kind": kind, "model": identity, "card": card, "schedule": keyed}).encode()
    ).hexdigest()
    existing = ws.scalar("SELECT id FROM runs WHERE run_key = ?", (run_key,))
    if existing is not None:
        return existing
    full_card = {
        **card,
        "kind": kind,
        "schedule": schedule,
        "model": {
            "name": model_row.get("name"),
            "kind": model_row.get("kind"),
            "identity": identity,
        },
        "versions": library_versions(),
    }
    with ws.transaction() as conn:
        conn.execute(
            "INSERT INTO runs(kind, run_key, model_id, card, status, created_at) "
            "VALUES (?, ?, ?, ?, 'open', ?) ON CONFLICT(run_key) DO NOTHING",
            (kind, run_key, model_row.get("id"), canonical_json(full_card), utcnow()),
        )
    return ws.scalar("SELECT id FROM runs WHERE run_key = ?", (run_key,))


def run_card(ws: Workspace, run_id: int) -> dict:
    raw = ws.scalar("SELECT card FROM runs WHERE id = ?", (run_id,))
    if raw is None:
        raise UserError(f"no run {run_id}")
    return json.loads(raw)


def backend_for_run(ws: Workspace, run_id: int, **options) -> Backend:
    """Open the run's model with the schedule its card records (reproducible reruns)."""
    from engine.llm.factory import open_backend

    row = ws.query(
        "SELECT m.* FROM runs r JOIN models m ON m.id = r.model_id WHERE r.id = ?", (run_id,)
    )
    if not row:
        raise UserError(f"run {run_id} has no model")
    schedule = run_card(ws, run_id).get("schedule") or {}
    return open_backend(row[0], **{**schedule, **options})


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
    if backend is not None:
        return run_job(ws, run_id, backend, requests, **options)
    with backend_for_run(ws, run_id) as own:
        return run_job(ws, run_id, own, requests, **options)


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
    """Buffers results and writes them one transaction per batch."""

    def __init__(
        self, ws: Workspace, run_id: int, variant_ids: dict, cache_keys: dict, batch_size: int
    ):
        self.ws, self.run_id, self.variant_ids = ws, run_id, variant_ids
        self.cache_keys, self.batch_size = cache_keys, max(1, batch_size)
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
        for r in self.buffer:
            ok = r.ok and r.text is not None
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
        self.buffer = []


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
) -> JobSummary:
    """Generate every request of ``run_id`` not yet done; see the module docstring."""
    keys = [r.key for r in requests]
    if len(set(keys)) != len(keys):
        raise UserError("a job's item keys must be unique")
    done = {
        r["item_key"]
        for r in ws.query(
            "SELECT item_key FROM responses WHERE run_id = ? AND status = 'done'", (run_id,)
        )
    }
    pending = [r for r in requests if r.key not in done]
    summary = JobSummary(
        total=len(requests),
        done_before=len(requests) - len(pending),
        done_now=0,
        errors=0,
        cached=0,
        cancelled=False,
    )
    model_id = backend.info().model_id
    cache_keys = {r.key: r.cache_key(model_id) for r in pending if use_cache and r.sampler.greedy}
    writer = _Writer(ws, run_id, variant_ids or {}, cache_keys, batch_size)
    total, start, generated = len(requests), time.monotonic(), 0

    def report(note: str = "") -> None:
        if progress:
            progress(summary.done_before + summary.done_now, total, note)

    hits = _cached(ws, list(cache_keys.values())) if cache_keys else {}
    to_generate = []
    for req in pending:
        row = hits.get(cache_keys.get(req.key, ""))
        if row is None:
            to_generate.append(req)
            continue
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
    report("cache")
    try:
        for result in backend.generate(to_generate, cancelled=cancelled):
            writer.add(result)
            if result.ok and result.text is not None:
                summary.done_now += 1
                generated += result.completion_tokens
            else:
                summary.errors += 1
            elapsed = time.monotonic() - start
            finished = summary.done_now + summary.errors
            eta = elapsed / max(finished, 1) * (len(pending) - finished)
            report(f"{generated / max(elapsed, 1e-9):.1f} tok/s, ETA {eta:.0f} s")
    finally:
        writer.flush()
    summary.cancelled = bool(cancelled and cancelled()) and not summary.complete
    if summary.complete:
        with ws.transaction() as conn:
            conn.execute("UPDATE runs SET status = 'done' WHERE id = ?", (run_id,))
    report("done" if summary.complete else "stopped")
    return summary
