"""A review package is untrusted input: how it is opened, bounded and re-validated.

Anyone can write a SQLite file, so a package is opened read-only with SQLite's defensive
settings (``trusted_schema`` off, ``query_only``, defensive mode where Python exposes it,
a bound on any one value's size and a time limit on every statement) and its schema must
equal the one this module defines *exactly*: no triggers, views or extra objects, which
could otherwise run code or loop forever when the file is read. Row counts are bounded by
the annotator's assignment, and every value is checked again against the workspace's batch
as if it had been typed in (the annotator's app validates too, but a file can be written by
hand).

Python 3.11's sqlite3 module cannot set SQLite's defensive, trigger or view flags
(``Connection.setconfig`` came in 3.12, and SQLite has no PRAGMA or URI parameter for
them), so there an import is protected by: the file opened ``mode=ro&immutable=1`` (nothing
written, a schema changed after the check is not re-read), ``query_only`` (no statement
writes, so no trigger can fire), ``trusted_schema`` off, the exact ``sqlite_master`` check
before any package table is read (a view, trigger, index or virtual table is refused
unread), the value-size limit, no mmap, ``cell_size_check`` and ``quick_check``, and the
statement time limit. The annotator's app writes, so it checks the schema again under the
write lock before each write (a trigger added between check and write would fire
otherwise). What defensive mode adds (no ``writable_schema``, shadow-table or
``sqlite_dbpage`` writes) concerns SQL that these connections never run.

The exported assignment (package id, workspace, annotator, export time and every item) is
authenticated with an HMAC keyed by a secret kept in the workspace that never leaves it, so
a package can only be one this workspace exported. This is integrity, not annotator
authentication: the annotator's own decisions are only checksummed, since their app must be
able to re-seal the file offline, and whoever holds a package can record decisions in it.
"""

from __future__ import annotations

import datetime as _dt
import functools
import hashlib
import hmac
import math
import os
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from engine.annotation.items import DECISIONS, digest, parse_scale
from engine.files.user_files import regular_file_problem
from engine.text.text_rules import text_problem
from engine.text.textnorm import normalize_text
from engine.workspace.identity import existing_package_key, package_key
from engine.workspace.store import Workspace

# The package's tables, as export writes them; the schema check compares against these.
DDL = [
    "CREATE TABLE manifest (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE items (item_id INTEGER PRIMARY KEY, kind TEXT NOT NULL,
        dialect TEXT NOT NULL, batch TEXT NOT NULL, score_scale TEXT NOT NULL,
        blind_draft INTEGER NOT NULL, content TEXT NOT NULL, item_hash TEXT NOT NULL,
        checksum TEXT NOT NULL)""",
    """CREATE TABLE decisions (uid TEXT PRIMARY KEY, item_id INTEGER NOT NULL
        REFERENCES items(item_id), annotator TEXT NOT NULL, decision TEXT NOT NULL, text TEXT,
        score REAL, comment TEXT NOT NULL, seconds REAL, item_hash TEXT NOT NULL,
        decided_at TEXT NOT NULL, checksum TEXT NOT NULL)""",
]

# Limits. An annotator may change their mind, which adds a row, so a package holds up to
# MAX_DECISIONS_PER_ITEM decisions per assigned item; the file's size is bounded by what
# that many items and decisions can take at the longest texts allowed.
MAX_DECISIONS_PER_ITEM = 20
MAX_TEXT_CHARS = 20_000  # an edited dialect rendering
MAX_COMMENT_CHARS = 5_000
MAX_CONTENT_BYTES = 256 * 1024  # one item's question, text and notes as JSON
MAX_VALUE_BYTES = 1024 * 1024  # SQLite refuses to read any larger value
MAX_MANIFEST_ROWS = 64
MAX_SECONDS = 7 * 24 * 3600.0  # time spent on one item
CLOCK_SKEW = _dt.timedelta(days=1)  # the annotator's clock may differ from this machine's
VERIFY_SECONDS = 30.0  # any one package's verification, whatever its contents
_FIXED_BYTES = 1024 * 1024
_DECISION_BYTES = 4 * (MAX_TEXT_CHARS + MAX_COMMENT_CHARS) + 4096  # UTF-8, row overhead
_ITEM_BYTES = MAX_CONTENT_BYTES + 4096
# The absolute cap before anything is known about the package (a million-item assignment).
MAX_PACKAGE_BYTES = 2 * 1024**3


def max_bytes(n_items: int) -> int:
    """The largest file a package of ``n_items`` assigned items can honestly be."""
    return _FIXED_BYTES + n_items * (_ITEM_BYTES + MAX_DECISIONS_PER_ITEM * _DECISION_BYTES)


def expected_schema() -> set[tuple]:
    """``sqlite_master`` of a package as export writes it (tables and their own indexes)."""
    conn = sqlite3.connect(":memory:")
    try:
        for statement in DDL:
            conn.execute(statement)
        return set(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"))
    finally:
        conn.close()


def check_file(path: Path) -> str | None:
    """Why ``path`` cannot be a package (not there, not a regular file, too big), or None."""
    problem = regular_file_problem(path)
    if problem is not None:
        return problem
    st = os.stat(path)
    if st.st_size == 0:
        return "the file is empty, so not a review package"
    if st.st_size > MAX_PACKAGE_BYTES:
        return f"the file is larger than any review package can be ({st.st_size} bytes)"
    return None


def harden(conn: sqlite3.Connection, *, read_only: bool = True) -> Callable[[], bool]:
    """Apply SQLite's defensive settings and a time limit to ``conn``; returns a function
    that tells whether the time limit stopped a statement."""
    conn.execute("PRAGMA trusted_schema = OFF")  # no functions or virtual tables from schema
    conn.execute("PRAGMA cell_size_check = ON")
    conn.execute("PRAGMA mmap_size = 0")
    if read_only:
        conn.execute("PRAGMA query_only = ON")
    setconfig = getattr(conn, "setconfig", None)  # Python >= 3.12
    if setconfig is not None:
        setconfig(sqlite3.SQLITE_DBCONFIG_DEFENSIVE, True)  # type: ignore[attr-defined]
        setconfig(sqlite3.SQLITE_DBCONFIG_ENABLE_TRIGGER, False)  # type: ignore[attr-defined]
        setconfig(sqlite3.SQLITE_DBCONFIG_ENABLE_VIEW, False)  # type: ignore[attr-defined]
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
    deadline = time.monotonic() + VERIFY_SECONDS
    expired = {"yes": False}

    def over_time() -> int:
        if time.monotonic() > deadline:
            expired["yes"] = True
            return 1  # non-zero interrupts the running statement
        return 0

    conn.set_progress_handler(over_time, 1000)
    return lambda: expired["yes"]


def schema_problem(conn: sqlite3.Connection) -> str | None:
    """Why the file's schema is not exactly a package's (an extra trigger, view, …), or None."""
    found = set(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"))
    expected = expected_schema()
    if found == expected:
        return None
    first = {"trigger": 0, "view": 1}  # the objects that run code are named first
    extra = sorted(found - expected, key=lambda r: (first.get(r[0], 2), str(r[1])))
    if extra:
        kind, name = extra[0][0], extra[0][1]
        return f"it holds a {kind} {name!r} that no review package has"
    return "its tables differ from a review package's"


# -- the per-workspace key ----------------------------------------------------------------
def _assignment_message(manifest: dict, item_checksums: list[str]) -> bytes:
    fields = [manifest.get(k) for k in ("package_id", "workspace_id", "annotator", "created_at")]
    return digest([fields, manifest.get("items"), item_checksums]).encode("ascii")


def assignment_mac(ws: Workspace, manifest: dict, item_checksums: list[str]) -> str:
    """HMAC-SHA256 of the exported assignment under this workspace's key."""
    message = _assignment_message(manifest, item_checksums)
    return hmac.new(package_key(ws), message, hashlib.sha256).hexdigest()


def mac_matches(ws: Workspace, manifest: dict, item_checksums: list[str]) -> bool:
    """Whether the package's assignment is one this workspace exported (a workspace that
    never exported has no key, and creates none here)."""
    key = existing_package_key(ws)
    if key is None:
        return False
    message = _assignment_message(manifest, item_checksums)
    expected = hmac.new(key, message, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, str(manifest.get("assignment_mac") or ""))


# -- values -------------------------------------------------------------------------------
def parse_time(value) -> _dt.datetime | None:
    """An aware ISO-8601 timestamp, or None when ``value`` is not one."""
    if not isinstance(value, str) or len(value) > 40:
        return None
    try:
        when = _dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    return when if when.tzinfo is not None else None


# Checked for every decision of every package: compiled and cached once, not per row.
_UID = re.compile(r"[0-9a-f]{32}")
_bounds = functools.lru_cache(maxsize=64)(parse_scale)


def _is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _text_problem(text: str) -> str | None:
    """Why an edited text is not one the annotator's app stores (the import text rules:
    no control characters, something visible, the stored form of ``normalize_text``)."""
    problem = text_problem(text)
    if problem:
        return problem
    if normalize_text(text) != text:
        return (
            "is not in the stored form (Unicode NFC, white space folded, "
            "no BOM or zero-width space)"
        )
    return None


def decision_problem(
    d: dict, scale: str, *, since: _dt.datetime, until: _dt.datetime
) -> str | None:
    """Why decision row ``d`` is not one the annotator's app could have written, or None."""
    uid = d.get("uid")
    if not isinstance(uid, str) or _UID.fullmatch(uid) is None:
        return "has a malformed id"
    if d.get("decision") not in DECISIONS:
        return f"has an unknown kind {str(d.get('decision'))[:20]!r}"
    text = d.get("text")
    if d["decision"] == "edit":
        if not isinstance(text, str) or not text.strip():
            return "is an edit without the corrected text"
        if len(text) > MAX_TEXT_CHARS:
            return f"has an edited text longer than {MAX_TEXT_CHARS} characters"
        problem = _text_problem(text)
        if problem:
            return f"has an edited text that {problem}"
    elif text is not None:
        return "carries a text although it is not an edit"
    score = d.get("score")
    if score is not None:
        low, high = _bounds(scale)
        if not _is_number(score):
            return f"has a score that is not a number ({str(score)[:20]!r})"
        if not low <= score <= high:
            return f"has the score {score:g}, outside the batch's scale {scale}"
    comment = d.get("comment")
    if not isinstance(comment, str):
        return "has a comment that is not text"
    if len(comment) > MAX_COMMENT_CHARS:
        return f"has a comment longer than {MAX_COMMENT_CHARS} characters"
    problem = text_problem(comment) if comment else None
    if problem:
        return f"has a comment that {problem}"
    seconds = d.get("seconds")
    if seconds is not None and not (_is_number(seconds) and 0 <= seconds <= MAX_SECONDS):
        return f"has an impossible time spent ({str(seconds)[:20]})"
    if not isinstance(d.get("item_hash"), str) or len(d["item_hash"]) > 128:
        return "has a malformed item hash"
    when = parse_time(d.get("decided_at"))
    if when is None:
        return "has a malformed time"
    if not since - CLOCK_SKEW <= when <= until + CLOCK_SKEW:
        return f"was made at {d['decided_at'][:25]}, outside the time the package was out"
    return None
