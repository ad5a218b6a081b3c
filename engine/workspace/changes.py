"""What changed in a workspace since the last look: one cheap query per poll (Qt-free).

The GUI's single workspace watcher (:mod:`widgets.common.workspace_watcher`) and any other
long-lived reader poll a :class:`ChangeTracker`. It holds a connection of its own, so
``PRAGMA data_version`` changes whenever *any* other connection commits — a job in a worker
thread, another process, or the window's own connection. Only then does it read one stamp
per topic, all in one ``SELECT`` whose parts stay cheap at any study size:

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

log = logging.getLogger(__name__)

# topic -> SQL expressions, each a scalar sub-query; together the topic's stamp
STAMPS: dict[str, tuple[str, ...]] = {
    "questions": (
        "(SELECT group_concat(id || '|' || name, ';') FROM question_sets)",
        "(SELECT count(*) FROM questions)",
        "(SELECT max(id) FROM questions)",
    ),
    "variants": (
        "(SELECT count(*) FROM variants)",
        "(SELECT max(id) FROM variants)",
        "(SELECT max(id) FROM variant_history)",
    ),
    "models": (
        "(SELECT group_concat(id || '|' || name || '|' || is_default || '|' || load_params, ';')"
        " FROM models)",
    ),
    "runs": (
        "(SELECT group_concat(id || '|' || status || '|' || "
        "ifnull(json_extract(card, '$.judge_role'), ''), ';') FROM runs)",
    ),
    "responses": ("(SELECT max(id) FROM responses)",),
    "judgments": ("(SELECT max(id) FROM judgments)",),
    "annotations": ("(SELECT max(id) FROM human_annotations)",),
    # probe sets and their items are imported whole; normalisation edits are insert-only
    "probes": (
        "(SELECT count(*) FROM probe_sets)",
        "(SELECT max(id) FROM probe_items)",
        "(SELECT max(id) FROM probe_norm_entries)",
    ),
    # field annotation: who annotates, what they are assigned, what they decided
    # (in the workspace, merged from a package, adjudicated). Rowid tables: max() is a descent.
    "annotators": (
        "(SELECT group_concat(id || '|' || name || '|' || dialects, ';') FROM annotators)",
    ),
    "assignments": (
        "(SELECT count(*) FROM annotation_batches)",
        "(SELECT max(id) FROM annotation_items)",
        "(SELECT max(rowid) FROM annotation_assignments)",
        "(SELECT count(*) FROM annotation_assignments)",
    ),
    "decisions": (
        "(SELECT max(id) FROM annotation_decisions)",
        "(SELECT max(id) FROM annotation_adjudications)",
        "(SELECT max(id) FROM annotation_packages)",
    ),
    # runs of one kind (few rows: a scan of runs), their status, and the item sets tasks draw
    # from; a run's answers move the ``responses`` topic
    "task_runs": (
        "(SELECT group_concat(id || '|' || status, ';') FROM runs WHERE kind LIKE 'task:%')",
        "(SELECT max(rowid) FROM task_run_items)",
        "(SELECT group_concat(id || '|' || name, ';') FROM task_item_sets)",
        "(SELECT max(id) FROM task_items)",
    ),
    "probe_runs": (
        "(SELECT group_concat(id || '|' || status, ';') FROM runs WHERE kind = 'probe')",
    ),
}
TOPICS = tuple(STAMPS)
_QUERY = "SELECT " + ", ".join(part for parts in STAMPS.values() for part in parts)


class ChangeTracker:
    """``poll()`` → the topics changed since the previous poll (empty on the first).

    Open it on the workspace file; it never writes. Not thread-safe: one owner polls.
    """

    def __init__(self, path: str | Path, *, busy_timeout_ms: int = 2000):
        self.path = Path(path)
        self.conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.conn.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")
        self.data_version = self._data_version()
        self.stamps = self.read_stamps()
        self.polls = 0  # data_version reads
        self.reads = 0  # stamp queries (only when data_version moved)

    def _data_version(self) -> int:
        return self.conn.execute("PRAGMA data_version").fetchone()[0]

    def read_stamps(self) -> dict[str, tuple]:
        row = self.conn.execute(_QUERY).fetchone()
        stamps, i = {}, 0
        for topic, parts in STAMPS.items():
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
        changed = frozenset(t for t in TOPICS if stamps[t] != self.stamps.get(t))
        self.stamps = stamps
        return changed

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> ChangeTracker:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
