"""One process decodes a run at a time (two ``generate`` processes on one run each decoded
every item before).

:func:`acquire_lease` writes the owner (``host:pid``) and a heartbeat time into the run row
in one ``BEGIN IMMEDIATE`` transaction; a second process finds a live holder and refuses with
a :class:`UserError` naming it. A holder that died (same host, no such process) or that has
not renewed for :data:`LEASE_TTL_S` is taken over. The job renews every
:data:`LEASE_BEAT_S` while it reports progress and releases at the end, whatever happens.
"""

from __future__ import annotations

import logging
import os
import socket
import time

from engine.errors import UserError
from engine.llm.runs.writes import beat_lease, clear_lease, set_lease
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)


LEASE_TTL_S = 600.0  # a holder that has not written for this long is presumed gone
LEASE_BEAT_S = 10.0


def lease_owner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def acquire_lease(ws: Workspace, run_id: int) -> str:
    """Take the run's lease for this process or raise a :class:`UserError` naming the
    process that decodes it now."""
    me, now = lease_owner(), time.time()
    with ws.transaction() as conn:
        row = conn.execute(
            "SELECT lease_owner, lease_heartbeat FROM runs WHERE id = ?", (run_id,)
        ).fetchone()
        if row is None:
            raise UserError(f"no run {run_id}")
        holder, beat = row[0], row[1] or 0.0
        if holder and holder != me:
            host, _, pid = holder.rpartition(":")
            dead = host == socket.gethostname() and pid.isdigit() and not _pid_alive(int(pid))
            if not dead and now - beat < LEASE_TTL_S:
                raise UserError(
                    f"run {run_id} is being decoded by process {pid} on {host} (last sign "
                    f"of life {now - beat:.0f} s ago); wait for it to finish, or stop it and "
                    "run this again - it resumes where that process stopped"
                )
            log.warning("run %d: taking over the lease of %s (gone)", run_id, holder)
        set_lease(conn, run_id, me, now)
    return me


def renew_lease(ws: Workspace, run_id: int, owner: str) -> None:
    with ws.transaction() as conn:
        beat_lease(conn, run_id, owner, time.time())


def release_lease(ws: Workspace, run_id: int, owner: str) -> None:
    with ws.transaction() as conn:
        clear_lease(conn, run_id, owner)
