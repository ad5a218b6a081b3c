"""Responses: the writer of a job's results, the greedy response cache, and the later changes
other stages may ask for.

This module is the only writer of ``responses`` and ``response_cache``. Results are written
``batch_size`` at a time, one transaction per batch (:class:`ResponseWriter`): a kill at any
moment loses at most the unwritten batch and the ``UNIQUE (run_id, item_key)`` constraint
makes duplicates impossible. An errored item keeps its error and attempt count; a later job
retries it. The two later changes: :func:`reject_responses` (a reply that failed the caller's
own check) and :func:`link_variant` (which variant a translation draft became, an id the
translation stage passes in).
"""

from __future__ import annotations

from engine.llm.planning.plan_store import record_groups
from engine.llm.types import Request, Result
from engine.text.redact import redact
from engine.workspace.store import Workspace, utcnow

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


class ResponseWriter:
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
    the reason, and the next :func:`~engine.llm.runs.jobs.run_job` of the run asks for the item
    again."""
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


def finished_responses(ws: Workspace, run_id: int) -> dict[str, dict]:
    """The run's finished responses (id, item_key, text) by item key."""
    return {
        r["item_key"]: r
        for r in ws.query(
            "SELECT id, item_key, text FROM responses WHERE run_id = ? AND status = 'done'",
            (run_id,),
        )
    }


def run_responses(ws: Workspace, run_id: int) -> list[dict]:
    """The responses of one run: key, status, text, error, attempts and completion tokens."""
    return ws.query(
        "SELECT item_key AS key, status, text, error, attempts, completion_tokens "
        "FROM responses WHERE run_id = ?",
        (run_id,),
    )


def done_keys(ws: Workspace, run_id: int) -> set[str]:
    """The item keys of the run's finished responses."""
    return {
        r["item_key"]
        for r in ws.query(
            "SELECT item_key FROM responses WHERE run_id = ? AND status = 'done'", (run_id,)
        )
    }


def has_responses(ws: Workspace, run_id: int) -> bool:
    """Whether the run stored any response (done or failed: its items were decoded)."""
    return ws.scalar("SELECT 1 FROM responses WHERE run_id = ? LIMIT 1", (run_id,)) is not None


def cached_replies(ws: Workspace, keys: list[str]) -> dict[str, dict]:
    """The cached replies of ``keys`` by request key (asked in chunks that stay under
    SQLite's variable limit)."""
    found: dict[str, dict] = {}
    for i in range(0, len(keys), 500):
        chunk = keys[i : i + 500]
        marks = ",".join("?" * len(chunk))
        for row in ws.query(
            f"SELECT * FROM response_cache WHERE request_key IN ({marks})", tuple(chunk)
        ):
            found[row["request_key"]] = row
    return found


def differs_from_stored(ws: Workspace, run_id: int, result: Result) -> int:
    """1 when a finished item decoded again gives other text than the stored one, else 0."""
    stored = ws.scalar(
        "SELECT text FROM responses WHERE run_id = ? AND item_key = ? AND status = 'done'",
        (run_id, result.key),
    )
    return int(stored is not None and stored != redact(result.text))
