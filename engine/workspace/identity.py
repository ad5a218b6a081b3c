"""The workspace's identity in ``workspace_meta`` (this module is that table's one writer):
its stable id (a UUID) and its secret package key.

Both are made on first use. Review packages carry the id, so a package from another
workspace is refused on import, and an HMAC under the key, so a package whose assignment was
not exported here is refused too (engine.annotation.package_checks). The key never leaves the
workspace: it proves integrity, not who the annotator was.
"""

from __future__ import annotations

import secrets
import uuid

from engine.workspace.store import Workspace


def workspace_id(ws: Workspace) -> str:
    """This workspace's stable id, created (once, atomically) on first use."""
    found = ws.scalar("SELECT value FROM workspace_meta WHERE key = 'workspace_id'")
    if found is not None:  # read first: every import asks, and a write would take the lock
        return found
    with ws.transaction() as conn:
        conn.execute(
            "INSERT OR IGNORE INTO workspace_meta(key, value) VALUES ('workspace_id', ?)",
            (str(uuid.uuid4()),),
        )
    return ws.scalar("SELECT value FROM workspace_meta WHERE key = 'workspace_id'")


_PACKAGE_KEY = "package_mac_key"


def package_key(ws: Workspace) -> bytes:
    """The workspace's package key (32 random bytes), created once on first use."""
    with ws.transaction() as conn:
        conn.execute(
            "INSERT OR IGNORE INTO workspace_meta(key, value) VALUES (?, ?)",
            (_PACKAGE_KEY, secrets.token_hex(32)),
        )
    return bytes.fromhex(
        ws.scalar("SELECT value FROM workspace_meta WHERE key = ?", (_PACKAGE_KEY,))
    )


def existing_package_key(ws: Workspace) -> bytes | None:
    """The package key, or None when this workspace never exported a package (none is made)."""
    key = ws.scalar("SELECT value FROM workspace_meta WHERE key = ?", (_PACKAGE_KEY,))
    return None if key is None else bytes.fromhex(key)
