"""Each annotator's decisions: one row each, never changed by anyone else; blind reads.

A decision is accept / edit / flag / reject with an optional score (on the batch's scale),
a comment and the seconds spent. Changing one's mind adds a row; an annotator's *effective*
decision on an item is their latest (by time, then uid, so it does not depend on the order
in which packages were merged). Reads for an annotator return their own decisions only,
and hide the machine draft (or the judge's score) when the batch is blind.
"""

from __future__ import annotations

import logging
import statistics
import unicodedata
import uuid
from typing import TypedDict, cast

from engine.annotation.items import (
    DECISIONS,
    content_hash,
    contents,
    current_hashes,
    parse_scale,
    row_digest,
    stamp,
)
from engine.errors import UserError
from engine.i18n import _
from engine.text.text_rules import control_problem, invisible_only, text_problem
from engine.text.textnorm import normalize_text
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)

# The fields a decision's checksum covers (the annotator by name: ids differ per file).
CHECKSUM_FIELDS = (
    "uid",
    "item_id",
    "annotator",
    "decision",
    "text",
    "score",
    "comment",
    "seconds",
    "item_hash",
    "decided_at",
)


def decision_checksum(row: dict) -> str:
    return row_digest([row.get(f) for f in CHECKSUM_FIELDS])


def make_decision(
    item_id: int,
    annotator: str,
    decision: str,
    *,
    item_hash: str,
    scale: str,
    text: str | None = None,
    score: float | None = None,
    comment: str = "",
    seconds: float | None = None,
) -> dict:
    """Validate and build one decision row (with uid and checksum); writes nothing."""
    if decision not in DECISIONS:
        raise UserError(f"unknown decision {decision!r}; use one of {', '.join(DECISIONS)}")
    if decision == "edit":
        text = normalize_text(text or "")
        if invisible_only(text) and control_problem(text) is None:
            raise UserError(_("item {item}: an edit needs the corrected text").format(item=item_id))
        problem = text_problem(text)
        if problem:
            raise UserError(
                _("item {item}: the corrected text {problem}").format(item=item_id, problem=problem)
            )
    else:
        text = None
    comment = unicodedata.normalize("NFC", comment or "").strip()
    problem = text_problem(comment) if comment else None
    if problem:
        raise UserError(
            _("item {item}: the comment {problem}").format(item=item_id, problem=problem)
        )
    if score is not None:
        low, high = parse_scale(scale)
        score = float(score)
        if not low <= score <= high:
            raise UserError(
                _("item {item}: score {score:g} is outside the scale {scale}").format(
                    item=item_id, score=score, scale=scale
                )
            )
    if seconds is not None and seconds < 0:
        raise UserError(_("item {item}: time spent cannot be negative").format(item=item_id))
    row = {
        "uid": uuid.uuid4().hex,
        "item_id": int(item_id),
        "annotator": annotator,
        "decision": decision,
        "text": text,
        "score": score,
        "comment": comment,
        "seconds": None if seconds is None else round(float(seconds), 3),
        "item_hash": item_hash,
        "decided_at": stamp(),
    }
    row["checksum"] = decision_checksum(row)
    return row


def _item(ws: Workspace, item_id: int, annotator: str) -> dict:
    rows = ws.query(
        "SELECT i.id, i.kind, i.target_id, i.dialect, b.score_scale, b.blind_draft, a.id AS aid "
        "FROM annotation_items i JOIN annotation_batches b ON b.id = i.batch_id "
        "JOIN annotation_assignments s ON s.item_id = i.id "
        "JOIN annotators a ON a.id = s.annotator_id WHERE i.id = ? AND a.name = ?",
        (item_id, annotator),
    )
    if not rows:
        raise UserError(
            _("item {item} is not assigned to {annotator!r}").format(
                item=item_id, annotator=annotator
            )
        )
    return rows[0]


def record_decision(ws: Workspace, item_id: int, annotator: str, decision: str, **kw) -> dict:
    """Store one decision of ``annotator`` on an item assigned to them (one transaction)."""
    item = _item(ws, item_id, annotator)
    item_hash = current_hashes(ws, [item_id]).get(item_id)
    if item_hash is None:
        raise UserError(
            _("item {item}: its {kind} was deleted").format(item=item_id, kind=item["kind"])
        )
    row = make_decision(
        item_id, annotator, decision, item_hash=item_hash, scale=item["score_scale"], **kw
    )
    with ws.transaction() as conn:
        insert_decisions(conn, [dict(row, annotator_id=item["aid"], stale=0)], "workspace")
    log.info("item %d: %s by %s", item_id, decision, annotator)
    return row


def insert_decisions(conn, rows: list[dict], source: str) -> None:
    conn.executemany(
        "INSERT INTO annotation_decisions(uid, item_id, annotator_id, decision, text, score, "
        "comment, seconds, item_hash, stale, source, decided_at, checksum) "
        "VALUES (:uid, :item_id, :annotator_id, :decision, :text, :score, :comment, :seconds, "
        ":item_hash, :stale, :source, :decided_at, :checksum)",
        [dict(r, source=source) for r in rows],
    )


_EFFECTIVE = """
    SELECT d.*, a.name AS annotator, i.dialect, i.kind, i.target_id, i.batch_id
    FROM annotation_decisions d JOIN annotators a ON a.id = d.annotator_id
    JOIN annotation_items i ON i.id = d.item_id
    WHERE NOT EXISTS (
        SELECT 1 FROM annotation_decisions e WHERE e.item_id = d.item_id
        AND e.annotator_id = d.annotator_id
        AND (e.decided_at > d.decided_at OR (e.decided_at = d.decided_at AND e.uid > d.uid)))
"""


def effective_decisions(
    ws: Workspace, *, batch_id: int | None = None, item_ids: list[int] | None = None
) -> list[dict]:
    """Each annotator's latest decision per item (superseded ones stay in the history)."""
    sql, params = _EFFECTIVE, []
    if batch_id is not None:
        sql += " AND i.batch_id = ?"
        params.append(batch_id)
    if item_ids is not None:
        sql += f" AND d.item_id IN ({','.join('?' * len(item_ids))})"
        params += item_ids
    return ws.query(sql + " ORDER BY d.item_id, a.name", tuple(params))


def my_queue(ws: Workspace, annotator: str, *, batch_id: int | None = None) -> list[dict]:
    """The items assigned to ``annotator``, blind: their own latest decision only, and no
    machine draft / judge score when the batch says so. Order: undecided first, then id."""
    sql = (
        "SELECT i.id AS item_id, i.kind, i.target_id, i.dialect, b.name AS batch, "
        "b.score_scale, b.blind_draft FROM annotation_items i "
        "JOIN annotation_batches b ON b.id = i.batch_id "
        "JOIN annotation_assignments s ON s.item_id = i.id "
        "JOIN annotators a ON a.id = s.annotator_id WHERE a.name = ?"
    )
    params: list = [annotator]
    if batch_id is not None:
        sql += " AND i.batch_id = ?"
        params.append(batch_id)
    rows = ws.query(sql + " ORDER BY i.id", tuple(params))
    own = {d["item_id"]: d for d in ws.query(_EFFECTIVE + " AND a.name = ?", (annotator,))}
    for kind in {r["kind"] for r in rows}:
        mine = [r for r in rows if r["kind"] == kind]
        found = contents(ws, kind, [r["target_id"] for r in mine])
        for r in mine:
            content = found.get(r["target_id"], {})
            r["content"] = blind_content(kind, content, bool(r["blind_draft"]))
            r["item_hash"] = content_hash(kind, content) if content else ""
    for r in rows:
        d = own.get(r["item_id"])
        r["mine"] = (
            None
            if d is None
            else {k: d[k] for k in ("decision", "text", "score", "comment", "seconds")}
        )
    rows.sort(key=lambda r: (r["mine"] is not None, r["item_id"]))
    return rows


def blind_content(kind: str, content: dict, blind: bool) -> dict:
    """What the annotator is shown: the draft/judge score removed in blind batches."""
    shown = dict(content)
    if blind and kind == "variant" and shown.get("provenance") == "machine":
        shown["text"] = ""
        shown["hidden"] = "machine draft hidden (blind batch)"
    if blind and kind == "judgment":
        shown.pop("judge_score", None)
    return shown


class AnnotatorProgress(TypedDict):
    """One annotator's row of :func:`progress` (seconds None: no timed decision yet)."""

    annotator: str
    assigned: int
    decided: int | None
    median_seconds: float | None
    mean_seconds: float | None


def progress(ws: Workspace, *, batch_id: int | None = None) -> list[AnnotatorProgress]:
    """Per annotator: items assigned, items decided, median and mean seconds per item."""
    where = "" if batch_id is None else "WHERE i.batch_id = ?"
    params = () if batch_id is None else (batch_id,)
    rows = ws.query(
        f"SELECT a.name AS annotator, count(*) AS assigned, "
        f"sum(EXISTS (SELECT 1 FROM annotation_decisions d WHERE d.item_id = s.item_id "
        f"AND d.annotator_id = s.annotator_id)) AS decided "
        f"FROM annotation_assignments s JOIN annotators a ON a.id = s.annotator_id "
        f"JOIN annotation_items i ON i.id = s.item_id {where} GROUP BY a.id ORDER BY a.name",
        params,
    )

    for r in rows:
        secs = [
            x[0]
            for x in ws.conn.execute(
                "SELECT d.seconds FROM annotation_decisions d JOIN annotators a "
                "ON a.id = d.annotator_id JOIN annotation_items i ON i.id = d.item_id "
                f"WHERE a.name = ? AND d.seconds IS NOT NULL {where.replace('WHERE', 'AND')}",
                (r["annotator"], *params),
            )
        ]
        r["median_seconds"] = statistics.median(secs) if secs else None
        r["mean_seconds"] = statistics.fmean(secs) if secs else None
    return cast("list[AnnotatorProgress]", rows)


def inputs_stamp(ws: Workspace) -> str:
    """What agreement reads, in one line: it changes when a decision, an item or an
    assignment is added, changed or removed, and stays when a merge adds nothing (a package
    imported again)."""
    row = ws.query(
        """SELECT (SELECT count(*) || ':' || coalesce(max(id), 0) || ':' || coalesce(sum(stale), 0)
                   FROM annotation_decisions) AS decisions,
                  (SELECT count(*) || ':' || coalesce(max(id), 0) FROM annotation_items) AS items,
                  (SELECT count(*) || ':' || coalesce(sum(annotator_id + item_id), 0)
                   FROM annotation_assignments) AS assignments"""
    )[0]
    return f"{row['decisions']}|{row['items']}|{row['assignments']}"
