"""One workspace = one SQLite file (WAL, synchronous=NORMAL), opened through sqlite-utils.

The connection runs in autocommit mode; writes that belong together go through
:meth:`Workspace.transaction`, which issues ``BEGIN IMMEDIATE`` and commits or rolls back
as a whole. Inside it use ``ws.conn.execute``/``executemany`` only: sqlite-utils' table
write helpers commit on their own (``with conn:``) and would end the transaction early.

``Workspace.db`` (sqlite-utils over the same connection) serves the schema: which tables and
views there are, their columns and row counts (``upabhasha status``, ``upabhasha export``).
It is made when first used: importing sqlite-utils imports pandas and numpy, which the
first window and ``--help`` do without.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import errno
import logging
import os
import sqlite3
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from engine.errors import Step, UserError, step
from engine.i18n import _
from engine.text.text_rules import checked_name
from engine.workspace import stages
from engine.workspace.schema import SCHEMA_VERSION

if TYPE_CHECKING:
    import sqlite_utils

log = logging.getLogger(__name__)

APPLICATION_ID = 0x55504248  # "UPBH": marks a file as an Upabhasha workspace
BUSY_TIMEOUT_MS = 10_000
# the schema and its migrations use DROP COLUMN and an upsert without a conflict target
MIN_SQLITE = (3, 35, 0)


def utcnow() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def _exists(path: Path) -> bool:
    try:
        return os.path.lexists(path)
    except ValueError:  # a NUL in the path: no such file, and its name is refused
        return False


def _require_sqlite() -> None:
    """Refuse before touching a file: an older SQLite fails mid-migration with a bare syntax
    error (the installers carry their own; this concerns installs from source)."""
    if sqlite3.sqlite_version_info < MIN_SQLITE:
        raise UserError(
            _(
                "this Python's SQLite is {found}; Upabhasha needs SQLite {needed} or newer "
                "(install a Python built with a newer SQLite, or use the installer)"
            ).format(found=sqlite3.sqlite_version, needed=".".join(map(str, MIN_SQLITE)))
        )


class Workspace:
    def __init__(self, path: str | Path, *, create: bool = True):
        _require_sqlite()
        self.path = Path(path)
        if create and not _exists(self.path):  # a new file's name is a name like any other
            checked_name(self.path.name, _("workspace file name"))
        try:
            os.stat(self.path)
        except FileNotFoundError:
            pass
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise UserError(
                    _("{path}: a symbolic link loop, not a workspace file").format(path=self.path)
                ) from None
            raise self._unusable(exc) from None  # a name too long, a folder not searchable
        if not self.path.exists() and not create:
            raise UserError(
                _("{path}: no such workspace (use {init} to create one)").format(
                    path=self.path, init=step(Step.CREATE_WORKSPACE)
                )
            )
        if self.path.exists() and self.path.is_dir():
            raise UserError(_("{path}: is a folder, not a workspace file").format(path=self.path))
        if self.path.exists() and not self.path.is_file():  # /dev/null, a FIFO, a socket
            raise UserError(
                _("{path}: not a regular file, so not a workspace file").format(path=self.path)
            )
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except (OSError, sqlite3.OperationalError) as exc:  # /proc, a read-only folder
            raise self._unusable(exc) from None
        try:
            self._configure()
            self._migrate()
        except Exception:
            self.conn.close()
            raise

    @cached_property
    def db(self) -> sqlite_utils.Database:
        import sqlite_utils  # lazy: it imports pandas and numpy

        return sqlite_utils.Database(self.conn)

    def _unusable(self, exc: Exception) -> UserError:
        why = getattr(exc, "strerror", None) or str(exc)
        return UserError(
            _("{path}: cannot be opened or created as a workspace file ({error})").format(
                path=self.path, error=why
            )
        )

    # -- lifecycle -----------------------------------------------------------------------
    def _configure(self) -> None:
        try:
            app_id = self.conn.execute("PRAGMA application_id").fetchone()[0]
            tables = self.conn.execute(
                "SELECT count(*) FROM sqlite_master WHERE type='table'"
            ).fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise UserError(
                _("{path}: not an Upabhasha workspace ({error})").format(path=self.path, error=exc)
            ) from None
        if tables and app_id != APPLICATION_ID:
            raise UserError(
                _(
                    "{path}: not an Upabhasha workspace (an SQLite file written by another program)"
                ).format(path=self.path)
            )
        self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.execute("PRAGMA synchronous = NORMAL")
        self.conn.execute("PRAGMA foreign_keys = ON")

    def _migrate(self) -> None:
        version = self.schema_version
        if version > SCHEMA_VERSION:
            raise UserError(
                _(
                    "{path}: written by a newer Upabhasha (schema {version}, this version "
                    "reads up to {supported}); please upgrade"
                ).format(path=self.path, version=version, supported=SCHEMA_VERSION)
            )
        migrations = stages.migrations()
        for target in range(version + 1, SCHEMA_VERSION + 1):
            with self.transaction():
                for statement in migrations[target - 1]:
                    self.conn.execute(statement)
                self.conn.execute(f"PRAGMA user_version = {target}")
                self.conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            log.info("migrated %s to schema %d", self.path, target)
        self._migrate_stages()

    def _migrate_stages(self) -> None:
        """Each stage's own track (engine.workspace.stages), after the shared history."""
        for stage in stages.tracks():
            row = self.conn.execute(
                "SELECT version FROM stage_versions WHERE stage = ?", (stage.name,)
            ).fetchone()
            version = row[0] if row else 0
            if version > len(stage.migrations):
                raise UserError(
                    _(
                        "{path}: written by a newer Upabhasha (stage {stage} at {version}, this "
                        "version reads up to {supported}); please upgrade"
                    ).format(
                        path=self.path,
                        stage=stage.name,
                        version=version,
                        supported=len(stage.migrations),
                    )
                )
            for target in range(version + 1, len(stage.migrations) + 1):
                with self.transaction():
                    for statement in stage.migrations[target - 1]:
                        self.conn.execute(statement)
                    self.conn.execute(
                        "INSERT INTO stage_versions(stage, version) VALUES (?, ?) "
                        "ON CONFLICT (stage) DO UPDATE SET version = excluded.version",
                        (stage.name, target),
                    )
                log.info("migrated %s: stage %s to %d", self.path, stage.name, target)

    @property
    def schema_version(self) -> int:
        return self.conn.execute("PRAGMA user_version").fetchone()[0]

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """All-or-nothing: commits on success, rolls back on any exception."""
        if self.conn.in_transaction:  # nested: the outer transaction decides
            yield self.conn
            return
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    # -- queries shared by CLI and GUI ------------------------------------------------------
    def query(self, sql: str, params: tuple | dict = ()) -> list[dict]:
        cur = self.conn.execute(sql, params)
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row)) for row in cur.fetchall()]

    def scalar(self, sql: str, params: tuple | dict = ()):
        row = self.conn.execute(sql, params).fetchone()
        return row[0] if row else None

    def dialect_codes(self) -> set[str]:
        return {r[0] for r in self.conn.execute("SELECT code FROM dialects")}

    def dialect_names(self) -> dict[str, dict]:
        """code -> {"code", "name_en", "name_bn"}: English and Bengali names of each dialect."""
        return {r["code"]: r for r in self.query("SELECT code, name_en, name_bn FROM dialects")}

    def table_names(self) -> list[str]:
        """The workspace's tables (SQLite's own ``sqlite_*`` tables left out), by name."""
        return sorted(n for n in self.db.table_names() if not n.startswith("sqlite_"))

    def view_names(self) -> list[str]:
        return sorted(self.db.view_names())

    def schema(self) -> list[dict]:
        """Every table and view: ``{"name", "type", "rows", "columns": [{"name", "type",
        "pk"}]}`` — what ``upabhasha status --schema`` shows."""
        out = []
        for kind, names in (("table", self.table_names()), ("view", self.view_names())):
            for name in names:
                source = self.db.table(name) if kind == "table" else self.db.view(name)
                out.append(
                    {
                        "name": name,
                        "type": kind,
                        "rows": source.count,
                        "columns": [
                            {"name": c.name, "type": c.type, "pk": bool(c.is_pk)}
                            for c in source.columns
                        ],
                    }
                )
        return out

    def integrity_ok(self) -> bool:
        return self.scalar("PRAGMA integrity_check") == "ok"

    def status(self) -> dict:
        """Totals per entity and per-dialect counts (``upabhasha status``)."""
        totals = {
            t: self.db.table(t).count
            for t in (
                "corpora",
                "sentence_pairs",
                "question_sets",
                "questions",
                "variants",
                "models",
                "runs",
                "responses",
                "judgments",
                "human_annotations",
            )
        }
        # items: distinct (corpus, standard sentence) per dialect; pairs = its references
        pairs = {
            r["dialect"]: {"pairs": r["n"], "items": r["items"], "splits": {}}
            for r in self.query(
                "SELECT dialect, count(*) AS n, count(DISTINCT corpus_id || ':' || standard_key) "
                "AS items FROM sentence_pairs GROUP BY dialect ORDER BY dialect"
            )
        }
        for r in self.query(
            "SELECT dialect, split, count(*) AS n FROM sentence_pairs "
            "GROUP BY dialect, split ORDER BY dialect, split"
        ):
            pairs[r["dialect"]]["splits"][r["split"]] = r["n"]
        variants: dict[str, dict[str, int]] = {}
        for r in self.query(
            "SELECT dialect, status, count(*) AS n FROM variants "
            "GROUP BY dialect, status ORDER BY dialect, status"
        ):
            variants.setdefault(r["dialect"], {})[r["status"]] = r["n"]
        return {
            "workspace": str(self.path),
            "schema_version": self.schema_version,
            "totals": totals,
            "pairs_by_dialect": pairs,
            "variants_by_dialect": variants,
            "models": self.query("SELECT name, kind, is_default FROM models ORDER BY id"),
        }
