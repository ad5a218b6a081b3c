"""Offline review packages: one SQLite file per annotator that opens with no workspace.

Layout: ``manifest`` (format, package id, workspace id, annotator, counts, ``complete`` and
``seal``), ``items`` (what the annotator sees, blind as the batch says) and ``decisions``
(the annotator's own, append-only). Every row carries a SHA-256 checksum of its fields; the
seal hashes the manifest and all row checksums. The annotator's app re-seals the file in the
same transaction as each decision. Checksums detect corruption, truncation and hand edits;
they are not a signature (the annotator's copy must be able to re-seal).

Import checks everything read-only first (file type, completeness, workspace id, seal,
every row, every item assigned to that annotator) and then merges in one transaction:
decisions are keyed by their uid, so a second import adds nothing and packages merge in any
order to the same result; a decision made on an item that has changed since is kept and
marked stale, which puts the item in the adjudication queue.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import uuid
from dataclasses import dataclass
from pathlib import Path

from engine.annotation.annotators import annotator as get_annotator
from engine.annotation.decisions import (
    CHECKSUM_FIELDS,
    decision_checksum,
    insert_decisions,
    make_decision,
    my_queue,
)
from engine.annotation.items import current_hashes, digest, row_digest
from engine.errors import UserError
from engine.i18n import _
from engine.workspace.identity import workspace_id
from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)

PACKAGE_APP_ID = 0x55504250  # "UPBP"
FORMAT = "upabhasha-review-package"
FORMAT_VERSION = "1"
SUFFIX = ".upkg"

_DDL = [
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


# -- export -------------------------------------------------------------------------------
def export_package(
    ws: Workspace, annotator: str, out: str | Path, *, batch_id: int | None = None
) -> dict:
    """Write the package for ``annotator`` (their items, blind, and their own decisions)."""
    who = get_annotator(ws, annotator)
    out = Path(out)
    queue = my_queue(ws, annotator, batch_id=batch_id)
    if not queue:
        raise UserError(
            _("{annotator!r} has no assigned items to export").format(annotator=annotator)
        )
    own = ws.query(
        "SELECT d.uid, d.item_id, a.name AS annotator, d.decision, d.text, d.score, d.comment, "
        "d.seconds, d.item_hash, d.decided_at, d.checksum FROM annotation_decisions d "
        "JOIN annotators a ON a.id = d.annotator_id WHERE a.id = ? ORDER BY d.uid",
        (who["id"],),
    )
    ids = {q["item_id"] for q in queue}
    own = [d for d in own if d["item_id"] in ids]
    package_id = uuid.uuid4().hex
    tmp = out.with_name(out.name + f".part-{package_id[:8]}")
    out.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(tmp, isolation_level=None)
    try:
        conn.execute(f"PRAGMA application_id = {PACKAGE_APP_ID}")
        conn.execute("PRAGMA journal_mode = DELETE")
        conn.execute("BEGIN")
        for statement in _DDL:
            conn.execute(statement)
        manifest = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "package_id": package_id,
            "workspace_id": workspace_id(ws),
            "workspace_name": ws.path.name,
            "annotator": annotator,
            "annotator_dialects": json.dumps(who["dialects"]),
            "created_at": utcnow(),
            "items": str(len(queue)),
        }
        conn.executemany("INSERT INTO manifest VALUES (?, ?)", manifest.items())
        for q in queue:
            row = {
                "item_id": q["item_id"],
                "kind": q["kind"],
                "dialect": q["dialect"],
                "batch": q["batch"],
                "score_scale": q["score_scale"],
                "blind_draft": q["blind_draft"],
                "content": json.dumps(q["content"], ensure_ascii=False, sort_keys=True),
                "item_hash": q["item_hash"],
            }
            row["checksum"] = _item_checksum(row)
            conn.execute(
                f"INSERT INTO items VALUES ({','.join('?' * 9)})",
                [row[f] for f in (*_ITEM_FIELDS, "checksum")],
            )
        conn.executemany(
            f"INSERT INTO decisions VALUES ({','.join('?' * len(_DECISION_COLS))})",
            [[d[c] for c in _DECISION_COLS] for d in own],
        )
        conn.execute("INSERT INTO manifest VALUES ('complete', '1')")
        conn.execute("INSERT INTO manifest VALUES ('seal', ?)", (_seal(conn),))
        conn.execute("COMMIT")
    except BaseException:
        conn.close()
        tmp.unlink(missing_ok=True)
        raise
    conn.close()
    os.replace(tmp, out)  # the file appears whole or not at all
    seal = read_package(out).manifest["seal"]
    with ws.transaction() as wconn:
        wconn.execute(
            "INSERT INTO annotation_packages(package_id, annotator_id, direction, seal, n_items, "
            "n_decisions, at) VALUES (?, ?, 'export', ?, ?, ?, ?)",
            (package_id, who["id"], seal, len(queue), len(own), utcnow()),
        )
    log.info("exported package %s for %s: %d items", out, annotator, len(queue))
    return {"path": str(out), "package_id": package_id, "items": len(queue), "decisions": len(own)}


# -- reading and verifying ----------------------------------------------------------------
@dataclass
class PackageData:
    manifest: dict[str, str]
    items: list[dict]
    decisions: list[dict]


def read_package(path: str | Path) -> PackageData:
    """Read and verify a package (read-only); any defect is a one-line UserError."""
    path = Path(path)
    if not path.is_file():
        raise _refuse(path, "no such file")
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    except sqlite3.Error as exc:
        raise _refuse(path, f"cannot open ({exc})") from None
    try:
        return _verify(path, conn)
    except sqlite3.DatabaseError as exc:
        raise _refuse(path, f"damaged or truncated file ({exc})") from None
    finally:
        conn.close()


def _verify(path: Path, conn: sqlite3.Connection) -> PackageData:
    if conn.execute("PRAGMA application_id").fetchone()[0] != PACKAGE_APP_ID:
        raise _refuse(path, "not an Upabhasha review package")
    if conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
        raise _refuse(path, "damaged or truncated file (integrity check failed)")
    manifest = dict(conn.execute("SELECT key, value FROM manifest"))
    if manifest.get("format") != FORMAT:
        raise _refuse(path, "not an Upabhasha review package")
    if manifest.get("format_version") != FORMAT_VERSION:
        raise _refuse(path, f"package format {manifest.get('format_version')} is not supported")
    if manifest.get("complete") != "1" or "seal" not in manifest:
        raise _refuse(path, "half-written package (no completion mark)")
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
    if len(items) != int(manifest.get("items", -1)):
        raise _refuse(path, "item count differs from the manifest (truncated?)")
    conn.row_factory = None
    if _seal(conn) != manifest["seal"]:
        raise _refuse(path, "seal does not match its contents (tampered or damaged)")
    return PackageData(manifest, items, decisions)


# -- import -------------------------------------------------------------------------------
def import_package(ws: Workspace, path: str | Path) -> dict:
    """Merge a package's decisions (idempotent, order-independent, all-or-nothing)."""
    pkg = read_package(path)
    m = pkg.manifest
    if m["workspace_id"] != workspace_id(ws):
        raise _refuse(path, f"package of another workspace ({m.get('workspace_name', '?')})")
    who = ws.query("SELECT id FROM annotators WHERE name = ?", (m["annotator"],))
    if not who:
        raise _refuse(path, f"annotator {m['annotator']!r} does not exist in this workspace")
    aid = who[0]["id"]
    assigned = {
        r[0]
        for r in ws.conn.execute(
            "SELECT item_id FROM annotation_assignments WHERE annotator_id = ?", (aid,)
        )
    }
    stray = sorted({d["item_id"] for d in pkg.decisions} - assigned)
    if stray:
        raise _refuse(path, f"item {stray[0]} is not assigned to {m['annotator']!r}")
    with ws.transaction() as conn:
        known = {
            r[0]: r[1]
            for r in conn.execute(
                "SELECT uid, checksum FROM annotation_decisions WHERE annotator_id = ?", (aid,)
            )
        }
        fresh = []
        for d in pkg.decisions:
            if d["uid"] in known:
                if known[d["uid"]] != d["checksum"]:
                    raise _refuse(path, f"decision {d['uid']} differs from the one merged before")
                continue
            fresh.append(d)
        hashes = current_hashes(ws, sorted({d["item_id"] for d in fresh}))
        rows = [
            dict(d, annotator_id=aid, stale=int(hashes.get(d["item_id"]) != d["item_hash"]))
            for d in fresh
        ]
        insert_decisions(conn, rows, f"package:{m['package_id']}")
        conn.execute(
            "INSERT INTO annotation_packages(package_id, annotator_id, direction, seal, n_items, "
            "n_decisions, n_new, at) VALUES (?, ?, 'import', ?, ?, ?, ?, ?)",
            (
                m["package_id"],
                aid,
                m["seal"],
                len(pkg.items),
                len(pkg.decisions),
                len(rows),
                utcnow(),
            ),
        )
    stale = sum(r["stale"] for r in rows)
    log.info("imported %s: %d new decisions (%d stale)", path, len(rows), stale)
    return {
        "annotator": m["annotator"],
        "decisions": len(pkg.decisions),
        "new": len(rows),
        "already_merged": len(pkg.decisions) - len(rows),
        "stale": stale,
    }


# -- the annotator's side (no workspace) ---------------------------------------------------
class ReviewPackage:
    """An opened package on the annotator's machine: read items, record decisions."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        data = read_package(self.path)
        self.manifest = data.manifest
        self.annotator = data.manifest["annotator"]
        self._items = {it["item_id"]: it for it in data.items}

    def items(self) -> list[dict]:
        return [dict(it, content=json.loads(it["content"])) for it in self._items.values()]

    def decisions(self) -> list[dict]:
        conn = sqlite3.connect(self.path)
        conn.row_factory = sqlite3.Row
        try:
            return [
                dict(r) for r in conn.execute("SELECT * FROM decisions ORDER BY decided_at, uid")
            ]
        finally:
            conn.close()

    def queue(self) -> list[dict]:
        """Items with this annotator's latest decision, undecided first (like my_queue)."""
        latest: dict[int, dict] = {}
        for d in self.decisions():
            latest[d["item_id"]] = d
        rows = []
        for it in self.items():
            last = latest.get(it["item_id"])
            mine = (
                None
                if last is None
                else {k: last[k] for k in ("decision", "text", "score", "comment", "seconds")}
            )
            rows.append(dict(it, mine=mine))
        rows.sort(key=lambda r: (r["mine"] is not None, r["item_id"]))
        return rows

    def record(self, item_id: int, decision: str, **kw) -> dict:
        """Store one decision and re-seal the file, in one transaction."""
        return self.record_many([dict(kw, item_id=item_id, decision=decision)])[0]

    def record_many(self, entries: list[dict]) -> list[dict]:
        """Store several decisions (dicts of ``item_id``, ``decision`` and the keywords of
        :func:`make_decision`) and re-seal once; all or nothing."""
        rows = []
        for entry in entries:
            kw = dict(entry)
            item_id, decision = kw.pop("item_id"), kw.pop("decision")
            item = self._items.get(item_id)
            if item is None:
                raise UserError(
                    _("{path}: item {item} is not in this package").format(
                        path=self.path, item=item_id
                    )
                )
            rows.append(
                make_decision(
                    item_id,
                    self.annotator,
                    decision,
                    item_hash=item["item_hash"],
                    scale=item["score_scale"],
                    **kw,
                )
            )
        conn = sqlite3.connect(self.path, isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.executemany(
                    f"INSERT INTO decisions VALUES ({','.join('?' * len(_DECISION_COLS))})",
                    [[row[c] for c in _DECISION_COLS] for row in rows],
                )
                conn.execute("UPDATE manifest SET value = ? WHERE key = 'seal'", (_seal(conn),))
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        finally:
            conn.close()
        return rows
