"""The review package file: its layout, checksums and seal, and reading one as untrusted
input (see :mod:`engine.annotation.packages` for what a package is for)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from engine.annotation import package_checks as checks
from engine.annotation.decisions import CHECKSUM_FIELDS, decision_checksum
from engine.annotation.items import digest, row_digest
from engine.errors import UserError
from engine.i18n import _

PACKAGE_APP_ID = 0x55504250  # "UPBP"
FORMAT = "upabhasha-review-package"
FORMAT_VERSION = "1"
SUFFIX = ".upkg"

_ITEM_FIELDS = (
    "item_id",
    "kind",
    "dialect",
    "batch",
    "score_scale",
    "blind_draft",
    "content",
    "item_hash",
)
# a package's decision rows: the fields their checksum covers, and the checksum
_DECISION_COLS = (*CHECKSUM_FIELDS, "checksum")


def _item_checksum(row: dict) -> str:
    return row_digest([row[f] for f in _ITEM_FIELDS])


def _seal(conn: sqlite3.Connection) -> str:
    manifest = sorted(
        (k, v) for k, v in conn.execute("SELECT key, value FROM manifest") if k != "seal"
    )
    items = [r[0] for r in conn.execute("SELECT checksum FROM items ORDER BY item_id")]
    decisions = [r[0] for r in conn.execute("SELECT checksum FROM decisions ORDER BY uid")]
    return digest([manifest, items, decisions])


def _refuse(path, why: str) -> UserError:
    return UserError(
        _("{path}: not imported: {why}; the workspace is unchanged").format(path=path, why=why)
    )


# -- reading and verifying ----------------------------------------------------------------
@dataclass
class PackageData:
    manifest: dict[str, str]
    items: list[dict]
    decisions: list[dict]


def open_package(path: Path, *, read_only: bool = True):
    """Open a package file hardened (:func:`package_checks.harden`) after checking that it
    is a regular file of a sane size and that its schema is exactly a package's. Returns
    the connection and a function telling whether the time limit stopped a statement."""
    problem = checks.check_file(path)
    if problem:
        raise _refuse(path, problem)
    mode = "ro&immutable=1" if read_only else "rw"
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode={mode}", uri=True)
    except sqlite3.Error as exc:
        raise _refuse(path, f"cannot open ({exc})") from None
    try:
        over_time = checks.harden(conn, read_only=read_only)
        problem = checks.schema_problem(conn)
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise _refuse(path, f"damaged or truncated file ({exc})") from None
    if problem:
        conn.close()
        raise _refuse(path, problem)
    return conn, over_time


def read_package(path: str | Path, *, max_items=None) -> PackageData:
    """Read and verify a package (read-only); any defect is a one-line UserError.

    ``max_items(manifest) -> int`` says how many items the package may hold (the import
    knows the annotator's assignment); by default its own manifest's count."""
    path = Path(path)
    conn, over_time = open_package(path)
    try:
        return _verify(path, conn, max_items)
    except sqlite3.DataError:
        raise _refuse(
            path, f"{_oversized(conn)} is larger than {checks.MAX_VALUE_BYTES} bytes"
        ) from None
    except sqlite3.DatabaseError as exc:
        if over_time():
            raise _refuse(
                path, f"verifying it took longer than {checks.VERIFY_SECONDS:g} s"
            ) from None
        raise _refuse(path, f"damaged or truncated file ({exc})") from None
    finally:
        conn.close()


def _oversized(conn: sqlite3.Connection) -> str:
    """Which value is over SQLite's length limit, named by its item (each row is read alone
    under the limit, so none is ever loaded whole)."""
    for table, named in (
        ("items", "a value of item {key}"),
        ("decisions", "a value of a decision on item {key}"),
        ("manifest", "the manifest value {key!r}"),
    ):
        key_column = "key" if table == "manifest" else "item_id"
        for (rowid,) in conn.execute(f"SELECT rowid FROM {table}").fetchall():
            try:
                conn.execute(f"SELECT * FROM {table} WHERE rowid = ?", (rowid,)).fetchone()
            except sqlite3.DataError:
                try:
                    key = conn.execute(
                        f"SELECT {key_column} FROM {table} WHERE rowid = ?", (rowid,)
                    ).fetchone()[0]
                except sqlite3.DataError:
                    key = f"row {rowid}"
                return named.format(key=key)
    return "a value"


def _count(conn: sqlite3.Connection, table: str) -> int:
    return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def _verify(path: Path, conn: sqlite3.Connection, max_items) -> PackageData:
    if conn.execute("PRAGMA application_id").fetchone()[0] != PACKAGE_APP_ID:
        raise _refuse(path, "not an Upabhasha review package")
    if conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
        raise _refuse(path, "damaged or truncated file (integrity check failed)")
    if _count(conn, "manifest") > checks.MAX_MANIFEST_ROWS:
        raise _refuse(path, "its manifest is not a review package's")
    manifest = dict(conn.execute("SELECT key, value FROM manifest"))
    if manifest.get("format") != FORMAT:
        raise _refuse(path, "not an Upabhasha review package")
    if manifest.get("format_version") != FORMAT_VERSION:
        raise _refuse(path, f"package format {manifest.get('format_version')} is not supported")
    if manifest.get("complete") != "1" or "seal" not in manifest:
        raise _refuse(path, "half-written package (no completion mark)")
    if not str(manifest.get("items", "")).isdigit():
        raise _refuse(path, "its manifest is not a review package's")
    limit = int(manifest["items"]) if max_items is None else max_items(manifest)
    n_items, n_decisions = _count(conn, "items"), _count(conn, "decisions")
    if n_items > limit:
        raise _refuse(path, f"it holds {n_items} items, more than the {limit} assigned")
    if n_decisions > n_items * checks.MAX_DECISIONS_PER_ITEM:
        raise _refuse(path, f"it holds {n_decisions} decisions for {n_items} items")
    if path.stat().st_size > checks.max_bytes(n_items):
        raise _refuse(path, f"the file is larger than {n_items} items can take")
    conn.row_factory = sqlite3.Row
    items = [dict(r) for r in conn.execute("SELECT * FROM items ORDER BY item_id")]
    decisions = [dict(r) for r in conn.execute("SELECT * FROM decisions ORDER BY uid")]
    for it in items:
        if _item_checksum(it) != it["checksum"]:
            raise _refuse(path, f"item {it['item_id']} fails its checksum (edited or damaged)")
    for d in decisions:
        if decision_checksum(d) != d["checksum"]:
            raise _refuse(path, f"decision {d['uid']} fails its checksum (edited or damaged)")
        if d["annotator"] != manifest["annotator"]:
            raise _refuse(path, f"decision {d['uid']} names another annotator")
    if len(items) != int(manifest["items"]):
        raise _refuse(path, "item count differs from the manifest (truncated?)")
    conn.row_factory = None
    if _seal(conn) != manifest["seal"]:
        raise _refuse(path, "seal does not match its contents (tampered or damaged)")
    return PackageData(manifest, items, decisions)
