"""The workspace's stable id (a UUID in ``workspace_meta``), the one writer of that table.

Made on first use; review packages carry it so a package from another workspace is refused
on import (engine.annotation.packages).
"""

from __future__ import annotations

import uuid

from engine.workspace.store import Workspace


def workspace_id(ws: Workspace) -> str:
    """This workspace's stable id, created (once, atomically) on first use."""
    with ws.transaction() as conn:
        conn.execute(
            "INSERT OR IGNORE INTO workspace_meta(key, value) VALUES ('workspace_id', ?)",
            (str(uuid.uuid4()),),
        )
    return ws.scalar("SELECT value FROM workspace_meta WHERE key = 'workspace_id'")
