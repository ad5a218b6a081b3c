"""What changed in a workspace since the last look: one cheap query per poll (Qt-free).

The GUI's single workspace watcher (:mod:`widgets.common.workspace_watcher`) and any other
long-lived reader poll a :class:`ChangeTracker`. It holds a connection of its own, so
``PRAGMA data_version`` changes whenever *any* other connection commits — a job in a worker
thread, another process, or the window's own connection. Only then does it read one stamp
per topic (each stage declares its own: engine.workspace.stages), all in one ``SELECT``
whose parts stay cheap at any study size:

- insert-only tables (``responses``, ``judgments``, ``human_annotations``,
  ``variant_history``) by ``max(id)``: a b-tree descent, not a scan;
- small tables (``runs``, ``models``, ``question_sets``) by their rows' changing columns;
- ``questions`` and ``variants`` (thousands of rows) by count and ``max(id)``, edits to
  variants through ``variant_history``, which every review and translation writes.

Deleting a run deletes its responses and judgments (ON DELETE CASCADE): the ``runs`` topic
changes with it, and a reader treats ``runs`` as "anything of the run's may have changed".
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from engine.workspace.stages import stamps

log = logging.getLogger(__name__)


class ChangeTracker:
    """``poll()`` → the topics changed since the previous poll (empty on the first).

    Open it on the workspace file; it never writes. Not thread-safe: one owner polls.
    """

    def __init__(self, path: str | Path, *, busy_timeout_ms: int = 2000):
        self.path = Path(path)
        self.conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.conn.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")
        self.stamp_sql = stamps()  # the stages' topics (engine.workspace.stages)
        self.query = "SELECT " + ", ".join(p for parts in self.stamp_sql.values() for p in parts)
        self.data_version = self._data_version()
        self.stamps = self.read_stamps()
        self.polls = 0  # data_version reads
        self.reads = 0  # stamp queries (only when data_version moved)

    def _data_version(self) -> int:
        return self.conn.execute("PRAGMA data_version").fetchone()[0]

    def read_stamps(self) -> dict[str, tuple]:
        row = self.conn.execute(self.query).fetchone()
        stamps, i = {}, 0
        for topic, parts in self.stamp_sql.items():
            stamps[topic] = tuple(row[i : i + len(parts)])
            i += len(parts)
        return stamps

    def poll(self) -> frozenset[str]:
        """The topics whose stamp moved since the last poll."""
        self.polls += 1
        version = self._data_version()
        if version == self.data_version:
            return frozenset()
        self.data_version = version
        self.reads += 1
        stamps = self.read_stamps()
        changed = frozenset(t for t in stamps if stamps[t] != self.stamps.get(t))
        self.stamps = stamps
        return changed

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> ChangeTracker:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
