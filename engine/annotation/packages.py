"""Offline review packages: one SQLite file per annotator that opens with no workspace.

Layout: ``manifest`` (format, package id, workspace id, annotator, counts, ``complete`` and
``seal``), ``items`` (what the annotator sees, blind as the batch says) and ``decisions``
(the annotator's own, append-only). Every row carries a SHA-256 checksum of its fields; the
seal hashes the manifest and all row checksums. The annotator's app re-seals the file in the
same transaction as each decision. Checksums detect corruption, truncation and hand edits;
they are not a signature (the annotator's copy must be able to re-seal). The exported
assignment is authenticated with the workspace's own key, and every file is read as
untrusted input (:mod:`engine.annotation.package_checks`).

Import checks everything read-only first (file type, schema, size, completeness, workspace
id, the assignment's HMAC, seal, every row and every value against the batch) for every
package given, and then merges them all in one transaction:
decisions are keyed by their uid, so a second import adds nothing and packages merge in any
order to the same result; a decision made on an item that has changed since is kept and
marked stale, which puts the item in the adjudication queue.
"""

from __future__ import annotations

import datetime as _dt
import json
import logging
import os
import sqlite3
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from engine.annotation import package_checks as checks
from engine.annotation.annotators import annotator as get_annotator
from engine.annotation.decisions import (
    insert_decisions,
    make_decision,
    my_queue,
)
from engine.annotation.items import current_hashes
from engine.annotation.package_file import (
    _DECISION_COLS,
    _ITEM_FIELDS,
    FORMAT,
    FORMAT_VERSION,
    PACKAGE_APP_ID,
    PackageData,
    _item_checksum,
    _refuse,
    _seal,
    open_package,
    read_package,
)
from engine.annotation.package_file import (
    SUFFIX as SUFFIX,
)
from engine.errors import UserError
from engine.files.output_path import writable_output
from engine.i18n import _
from engine.workspace.identity import workspace_id
from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)


# -- export -------------------------------------------------------------------------------
class PackageExport(TypedDict):
    """:func:`export_package`: the file written, its id, and what it holds."""

    path: str
    package_id: str
    items: int
    decisions: int


def export_package(
    ws: Workspace, annotator: str, out: str | Path, *, batch_id: int | None = None
) -> PackageExport:
    """Write the package for ``annotator`` (their items, blind, and their own decisions)."""
    who = get_annotator(ws, annotator)
    out = writable_output(out, "package file")  # before any work; no partial file after
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
    items = []
    for q in sorted(queue, key=lambda q: q["item_id"]):
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
        items.append(row)
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
    manifest["assignment_mac"] = checks.assignment_mac(ws, manifest, [r["checksum"] for r in items])
    tmp = out.with_name(out.name + f".part-{package_id[:8]}")
    try:
        _write_package(tmp, manifest, items, own)
        os.replace(tmp, out)  # the file appears whole or not at all
    except OSError as exc:
        raise UserError(f"package file {out}: cannot write it ({exc})") from None
    finally:
        tmp.unlink(missing_ok=True)
    seal = read_package(out).manifest["seal"]
    with ws.transaction() as wconn:
        wconn.execute(
            "INSERT INTO annotation_packages(package_id, annotator_id, direction, seal, n_items, "
            "n_decisions, at) VALUES (?, ?, 'export', ?, ?, ?, ?)",
            (package_id, who["id"], seal, len(queue), len(own), utcnow()),
        )
    log.info("exported package %s for %s: %d items", out, annotator, len(queue))
    return {"path": str(out), "package_id": package_id, "items": len(queue), "decisions": len(own)}


def _write_package(tmp: Path, manifest: dict, items: list[dict], own: list[dict]) -> None:
    try:
        conn = sqlite3.connect(tmp, isolation_level=None)
    except sqlite3.Error as exc:
        raise OSError(str(exc)) from None
    try:
        conn.execute(f"PRAGMA application_id = {PACKAGE_APP_ID}")
        conn.execute("PRAGMA journal_mode = DELETE")
        conn.execute("BEGIN")
        for statement in checks.DDL:
            conn.execute(statement)
        conn.executemany("INSERT INTO manifest VALUES (?, ?)", manifest.items())
        conn.executemany(
            f"INSERT INTO items VALUES ({','.join('?' * 9)})",
            [[row[f] for f in (*_ITEM_FIELDS, "checksum")] for row in items],
        )
        conn.executemany(
            f"INSERT INTO decisions VALUES ({','.join('?' * len(_DECISION_COLS))})",
            [[d[c] for c in _DECISION_COLS] for d in own],
        )
        conn.execute("INSERT INTO manifest VALUES ('complete', '1')")
        conn.execute("INSERT INTO manifest VALUES ('seal', ?)", (_seal(conn),))
        conn.execute("COMMIT")
    except sqlite3.OperationalError as exc:  # disk full, read-only place
        raise OSError(str(exc)) from None
    finally:
        conn.close()


# -- import -------------------------------------------------------------------------------
@dataclass
class _Checked:
    path: Path
    pkg: PackageData
    annotator_id: int
    targets: dict[int, tuple[str, int]]  # assigned item -> (kind, target id): staleness


def _check_for_import(ws: Workspace, path: Path) -> _Checked:
    """Read ``path`` as untrusted and check it against this workspace (writes nothing)."""
    assigned: dict[int, str] = {}
    targets: dict[int, tuple[str, int]] = {}
    found: dict[str, int] = {}

    def max_items(m: dict) -> int:
        if m.get("workspace_id") != workspace_id(ws):
            raise _refuse(path, f"package of another workspace ({m.get('workspace_name', '?')})")
        who = ws.query("SELECT id FROM annotators WHERE name = ?", (m.get("annotator"),))
        if not who:
            raise _refuse(path, f"annotator {m.get('annotator')!r} does not exist here")
        found["id"] = who[0]["id"]
        for item, scale, kind, target in ws.conn.execute(
            "SELECT s.item_id, b.score_scale, i.kind, i.target_id FROM annotation_assignments s "
            "JOIN annotation_items i ON i.id = s.item_id "
            "JOIN annotation_batches b ON b.id = i.batch_id WHERE s.annotator_id = ?",
            (found["id"],),
        ):
            assigned[item], targets[item] = scale, (kind, target)
        return len(assigned)

    pkg = read_package(path, max_items=max_items)
    m = pkg.manifest
    if "assignment_mac" not in m:
        raise _refuse(
            path,
            "exported by an older version (its assignment is not authenticated); "
            "export the package again",
        )
    if not checks.mac_matches(ws, m, [it["checksum"] for it in pkg.items]):
        raise _refuse(path, "its assignment was not exported by this workspace (forged or edited)")
    for it in pkg.items:
        if assigned.get(it["item_id"]) != it["score_scale"]:
            raise _refuse(path, f"item {it['item_id']} is not assigned to {m['annotator']!r}")
    since = checks.parse_time(m.get("created_at"))
    if since is None:
        raise _refuse(path, "its manifest is not a review package's")
    until = _dt.datetime.now(_dt.UTC)
    for d in pkg.decisions:
        if d["item_id"] not in assigned:
            raise _refuse(path, f"item {d['item_id']} is not assigned to {m['annotator']!r}")
        problem = checks.decision_problem(d, assigned[d["item_id"]], since=since, until=until)
        if problem and not _exported_with(ws, d):
            raise _refuse(path, f"decision {str(d['uid'])[:32]} {problem}")
    return _Checked(path, pkg, found["id"], targets)


def _exported_with(ws: Workspace, d: dict) -> bool:
    """Whether ``d`` is a decision this workspace already holds unchanged (exported with the
    package, made before its export time): those are not checked against the window."""
    row = ws.scalar("SELECT checksum FROM annotation_decisions WHERE uid = ?", (d["uid"],))
    return row is not None and row == d["checksum"]


def import_package(ws: Workspace, path: str | Path) -> dict:
    """Merge one package's decisions (idempotent, order-independent, all-or-nothing)."""
    return import_packages(ws, [path])[0]


def import_packages(ws: Workspace, paths, *, progress=None, cancelled=None) -> list[dict]:
    """Check every package first, then merge them all in one transaction: either every
    package is merged or none is (a refusal names the package and says nothing changed)."""
    checked = []
    for done, path in enumerate(paths):
        if cancelled is not None and cancelled():
            return []
        if progress is not None:
            progress(done, len(paths), Path(path).name)
        checked.append(_check_for_import(ws, Path(path)))
    results = []
    with ws.transaction() as conn:
        for c in checked:
            results.append(_merge(ws, conn, c))
    if progress is not None:
        progress(len(paths), len(paths), "")
    for r in results:
        log.info("imported %s: %d new decisions (%d stale)", r["path"], r["new"], r["stale"])
    return results


def _merge(ws: Workspace, conn: sqlite3.Connection, c: _Checked) -> dict:
    m, aid, path = c.pkg.manifest, c.annotator_id, c.path
    hashes = current_hashes(ws, sorted({d["item_id"] for d in c.pkg.decisions}), targets=c.targets)
    rows = [
        dict(d, annotator_id=aid, stale=int(hashes.get(d["item_id"]) != d["item_hash"]))
        for d in c.pkg.decisions
    ]
    # A first import holds no uid the workspace has, and the UNIQUE index on uid checks that
    # as the rows go in: the known ones are looked up only when it refuses one.
    conn.execute("SAVEPOINT package_rows")
    try:
        insert_decisions(conn, rows, f"package:{m['package_id']}")
    except sqlite3.IntegrityError:
        conn.execute("ROLLBACK TO package_rows")
        rows = _not_yet_merged(conn, c, rows)
        insert_decisions(conn, rows, f"package:{m['package_id']}")
    conn.execute("RELEASE package_rows")
    conn.execute(
        "INSERT INTO annotation_packages(package_id, annotator_id, direction, seal, n_items, "
        "n_decisions, n_new, at) VALUES (?, ?, 'import', ?, ?, ?, ?, ?)",
        (
            m["package_id"],
            aid,
            m["seal"],
            len(c.pkg.items),
            len(c.pkg.decisions),
            len(rows),
            utcnow(),
        ),
    )
    stale = sum(r["stale"] for r in rows)
    return {
        "path": str(path),
        "annotator": m["annotator"],
        "decisions": len(c.pkg.decisions),
        "new": len(rows),
        "already_merged": len(c.pkg.decisions) - len(rows),
        "stale": stale,
    }


def _not_yet_merged(conn: sqlite3.Connection, c: _Checked, rows: list[dict]) -> list[dict]:
    """``rows`` less those the workspace holds already; a uid that is another annotator's,
    or a decision that differs from the one merged before, is refused."""
    known: dict[str, tuple[int, str]] = {
        uid: (owner, checksum)
        for uid, owner, checksum in conn.execute(
            "SELECT uid, annotator_id, checksum FROM annotation_decisions "
            "WHERE uid IN (SELECT value FROM json_each(?))",
            (json.dumps([r["uid"] for r in rows]),),
        )
    }
    for r in rows:
        if r["uid"] in known and known[r["uid"]][0] != c.annotator_id:
            raise _refuse(c.path, f"decision {r['uid']} has the id of another's decision")
        if r["uid"] in known and known[r["uid"]][1] != r["checksum"]:
            raise _refuse(c.path, f"decision {r['uid']} differs from the one merged before")
    return [r for r in rows if r["uid"] not in known]


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
        conn, _over_time = open_package(self.path)
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
        # the file is checked again as it is opened for writing: a trigger must never run
        conn, _over_time = open_package(self.path, read_only=False)
        conn.isolation_level = None
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                # once more under the write lock: before Python 3.12 no SQLite flag stops a
                # trigger another program added since the check from firing on these inserts
                problem = checks.schema_problem(conn)
                if problem:
                    raise _refuse(self.path, problem)
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
