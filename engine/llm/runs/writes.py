"""The one writer of ``runs``: opening a run, what its card learns, its judge-role labels,
its lease, finishing it and removing an empty one.

Every function writes inside the caller's transaction (``conn`` comes from
``Workspace.transaction``), so a caller that reads and then writes a run (a lease taken over,
a plan size recorded once) keeps both in one transaction. Which run to open, when a lease may
be taken and what a label means stay with the callers (``runs``, ``leases``).
"""

from __future__ import annotations

import sqlite3


def insert_run(
    conn: sqlite3.Connection, kind: str, run_key: str, model_id: int | None, card: str, now: str
) -> None:
    """Add an open run with its canonical card; a run with this key already there is kept."""
    conn.execute(
        "INSERT INTO runs(kind, run_key, model_id, card, status, created_at) "
        "VALUES (?, ?, ?, ?, 'open', ?) ON CONFLICT(run_key) DO NOTHING",
        (kind, run_key, model_id, card, now),
    )


def set_card_value(conn: sqlite3.Connection, run_id: int, path: str, value: str) -> None:
    """Set the JSON ``value`` at dotted ``path`` of the run's card (outside its key)."""
    conn.execute(
        "UPDATE runs SET card = json_set(card, '$.' || ?, json(?)) WHERE id = ?",
        (path, value, run_id),
    )


def set_run_key(conn: sqlite3.Connection, run_id: int, run_key: str) -> bool:
    """Give a run without responses another key (its schedule changed before it decoded
    anything), unless another run has that key; returns whether it did."""
    cur = conn.execute(
        "UPDATE runs SET run_key = ? WHERE id = ? "
        "AND NOT EXISTS (SELECT 1 FROM responses WHERE run_id = runs.id) "
        "AND NOT EXISTS (SELECT 1 FROM runs AS other WHERE other.run_key = ?)",
        (run_key, run_id, run_key),
    )
    return cur.rowcount > 0


def rekey_undecoded_run(
    conn: sqlite3.Connection, run_id: int, run_key: str, path: str, value: str
) -> bool:
    """Give a run that finished no response another key and set ``path`` of its card to the
    JSON ``value`` (what changed the key), unless another run has that key; returns whether
    it did. Its failed items are asked again under the new key, as they would be anyway."""
    cur = conn.execute(
        "UPDATE runs SET run_key = ?, card = json_set(card, '$.' || ?, json(?)) WHERE id = ? "
        "AND NOT EXISTS (SELECT 1 FROM responses WHERE run_id = runs.id AND status = 'done') "
        "AND NOT EXISTS (SELECT 1 FROM runs AS other WHERE other.run_key = ?)",
        (run_key, path, value, run_id, run_key),
    )
    return cur.rowcount > 0


def set_plan_size(conn: sqlite3.Connection, run_id: int, size: int | None) -> None:
    """Record the batch-plan size the run is decoded with (None: no plan), the first time
    only."""
    conn.execute(
        "UPDATE runs SET card = json_set(card, '$.plan_size', ?) "
        "WHERE id = ? AND json_type(card, '$.plan_size') IS NULL",
        (size, run_id),
    )


def set_card_label(
    conn: sqlite3.Connection, kind: str, key: str, run_id: int, *, chosen: str, others: str
) -> None:
    """Set card label ``key`` to ``chosen`` on run ``run_id`` and to ``others`` on every other
    run of ``kind``."""
    path = f"$.{key}"
    conn.execute(
        "UPDATE runs SET card = json_set(card, ?, ?) WHERE kind = ? AND id != ?",
        (path, others, kind, run_id),
    )
    conn.execute("UPDATE runs SET card = json_set(card, ?, ?) WHERE id = ?", (path, chosen, run_id))


def mark_run_done(conn: sqlite3.Connection, run_id: int) -> None:
    conn.execute("UPDATE runs SET status = 'done' WHERE id = ?", (run_id,))


def delete_empty_run(conn: sqlite3.Connection, run_id: int) -> bool:
    """Remove an open run without responses; returns whether it did. Rows of other stages
    that keep a run are checked by the caller (``runs.discard_if_empty``)."""
    cur = conn.execute(
        "DELETE FROM runs WHERE id = ? AND status = 'open' "
        "AND NOT EXISTS (SELECT 1 FROM responses WHERE run_id = runs.id)",
        (run_id,),
    )
    return cur.rowcount > 0


def set_lease(conn: sqlite3.Connection, run_id: int, owner: str, now: float) -> None:
    """Give the run's lease to ``owner`` (whoever held it before)."""
    conn.execute(
        "UPDATE runs SET lease_owner = ?, lease_heartbeat = ? WHERE id = ?", (owner, now, run_id)
    )


def beat_lease(conn: sqlite3.Connection, run_id: int, owner: str, now: float) -> None:
    """Renew the heartbeat of a lease ``owner`` still holds."""
    conn.execute(
        "UPDATE runs SET lease_heartbeat = ? WHERE id = ? AND lease_owner = ?",
        (now, run_id, owner),
    )


def clear_lease(conn: sqlite3.Connection, run_id: int, owner: str) -> None:
    """Drop the lease if ``owner`` still holds it."""
    conn.execute(
        "UPDATE runs SET lease_owner = NULL, lease_heartbeat = NULL "
        "WHERE id = ? AND lease_owner = ?",
        (run_id, owner),
    )
