"""The adjudication queue and the adjudicator's decision, which becomes gold.

An item enters the queue when its annotators' latest decisions disagree (different
decisions, different edited texts, or scores further apart than the tolerance), when any
of them flagged it, or when a decision was made on a version of the item that has since
changed (``stale``, from a package merged after an edit). Adjudicating writes the gold:
for a variant through :mod:`engine.translation.review` (so ``variant_history`` records it),
for a judgment as a human score (:mod:`engine.workspace.human_annotations`, the same shape
as a reviewer's override); every annotator decision stays in place.
"""

from __future__ import annotations

import difflib
import json
import logging
import statistics

import regex

from engine.annotation.decisions import effective_decisions
from engine.annotation.items import contents, parse_scale, stamp
from engine.errors import UserError
from engine.i18n import _
from engine.text.text_rules import checked_name, clean_text
from engine.text.textnorm import normalize_text
from engine.translation.review import set_variant_status, set_variant_text, variant_history
from engine.workspace.human_annotations import JudgmentDetails, record_judgment_score
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)

ADJUDICATIONS = ("accept", "edit", "reject")
SCORE_TOLERANCE = 0.1  # share of the scale's range within which two scores agree


def char_diff(a: str, b: str) -> list[tuple[str, str, str]]:
    """(op, text in a, text in b) segments; op in equal/replace/delete/insert. Compared by
    grapheme cluster (``\\X``) so a Bengali vowel sign never splits from its consonant."""
    ga, gb = regex.findall(r"\X", a or ""), regex.findall(r"\X", b or "")
    matcher = difflib.SequenceMatcher(None, ga, gb, autojunk=False)
    return [
        (op, "".join(ga[i1:i2]), "".join(gb[j1:j2])) for op, i1, i2, j1, j2 in matcher.get_opcodes()
    ]


def _reasons(decisions: list[dict], scale: str) -> list[str]:
    reasons = []
    if any(d["decision"] == "flag" for d in decisions):
        reasons.append(_("flagged"))
    if any(d["stale"] for d in decisions):
        reasons.append(_("item changed after the decision"))
    if len(decisions) >= 2:
        if len({d["decision"] for d in decisions}) > 1:
            reasons.append(_("decisions differ"))
        elif len({d["text"] for d in decisions if d["decision"] == "edit"}) > 1:
            reasons.append(_("edits differ"))
        scores = [d["score"] for d in decisions if d["score"] is not None]
        low, high = parse_scale(scale)
        if len(scores) >= 2 and max(scores) - min(scores) > SCORE_TOLERANCE * (high - low):
            reasons.append(_("scores differ"))
    return reasons


def _grouped(ws: Workspace, batch_id: int | None, item_ids=None) -> dict[int, list[dict]]:
    by_item: dict[int, list[dict]] = {}
    for d in effective_decisions(ws, batch_id=batch_id, item_ids=item_ids):
        by_item.setdefault(d["item_id"], []).append(d)
    return by_item


def _scales(ws: Workspace) -> dict[int, str]:
    return {r[0]: r[1] for r in ws.conn.execute("SELECT id, score_scale FROM annotation_batches")}


def _adjudicated_after(ws: Workspace) -> dict[int, str]:
    """item id -> time of its latest adjudication."""
    return {
        r[0]: r[1]
        for r in ws.conn.execute(
            "SELECT item_id, max(at) FROM annotation_adjudications GROUP BY item_id"
        )
    }


def queue(ws: Workspace, *, batch_id: int | None = None) -> list[dict]:
    """Items needing an adjudicator, with reasons and each annotator's latest decision.

    An adjudicated item leaves the queue until a decision newer than the adjudication
    arrives (e.g. from a package merged later)."""
    scales, done = _scales(ws), _adjudicated_after(ws)
    out = []
    for item_id, decisions in sorted(_grouped(ws, batch_id).items()):
        if item_id in done and all(d["decided_at"] <= done[item_id] for d in decisions):
            if not any(d["stale"] and d["decided_at"] > done[item_id] for d in decisions):
                continue
        reasons = _reasons(decisions, scales[decisions[0]["batch_id"]])
        if reasons:
            first = decisions[0]
            out.append(
                {
                    "item_id": item_id,
                    "kind": first["kind"],
                    "target_id": first["target_id"],
                    "dialect": first["dialect"],
                    "reasons": reasons,
                    "decisions": decisions,
                }
            )
    return out


def agreed(ws: Workspace, *, batch_id: int | None = None) -> list[dict]:
    """Items whose annotators all agree (no flag, nothing stale) and that have no gold yet."""
    scales, done = _scales(ws), _adjudicated_after(ws)
    out = []
    for item_id, decisions in sorted(_grouped(ws, batch_id).items()):
        if item_id in done or _reasons(decisions, scales[decisions[0]["batch_id"]]):
            continue
        out.append({"item_id": item_id, "decisions": decisions})
    return out


def item_detail(ws: Workspace, item_id: int) -> dict:
    """The item, every decision ever made on it (superseded ones too), its adjudications,
    the diffs of edited texts against the current text, and the variant's review history."""
    rows = ws.query(
        "SELECT i.*, b.score_scale, b.name AS batch FROM annotation_items i "
        "JOIN annotation_batches b ON b.id = i.batch_id WHERE i.id = ?",
        (item_id,),
    )
    if not rows:
        raise UserError(f"no annotation item {item_id}")
    item = rows[0]
    item["content"] = contents(ws, item["kind"], [item["target_id"]]).get(item["target_id"], {})
    item["decisions"] = ws.query(
        "SELECT d.id, d.uid, a.name AS annotator, d.decision, d.text, d.score, d.comment, "
        "d.seconds, d.stale, d.source, d.decided_at FROM annotation_decisions d "
        "JOIN annotators a ON a.id = d.annotator_id WHERE d.item_id = ? "
        "ORDER BY d.decided_at, d.uid",
        (item_id,),
    )
    base = item["content"].get("text") or ""
    for d in item["decisions"]:
        d["diff"] = char_diff(base, d["text"]) if d["text"] else []
    item["adjudications"] = ws.query(
        "SELECT * FROM annotation_adjudications WHERE item_id = ? ORDER BY id", (item_id,)
    )
    item["history"] = variant_history(ws, item["target_id"]) if item["kind"] == "variant" else []
    return item


def adjudicate(
    ws: Workspace,
    item_id: int,
    adjudicator: str,
    decision: str,
    *,
    text: str | None = None,
    score: float | None = None,
    comment: str = "",
) -> dict:
    """The adjudicator's decision becomes gold, in one transaction with its record."""
    if not adjudicator.strip():
        raise UserError("enter the adjudicator's name: gold records who decided it")
    adjudicator = checked_name(adjudicator, "adjudicator name")
    if decision not in ADJUDICATIONS:
        raise UserError(f"unknown adjudication {decision!r}; use one of {', '.join(ADJUDICATIONS)}")
    item = item_detail(ws, item_id)
    if decision == "edit":
        where = _("item {item}").format(item=item_id)
        text = normalize_text(clean_text(text or "", where, optional=True))
        if not text:
            raise UserError(f"item {item_id}: an edit needs the gold text")
    else:
        text = None
    comment = clean_text(
        comment.strip(), _("item {item}: the comment").format(item=item_id), optional=True
    )
    if score is not None:
        low, high = parse_scale(item["score_scale"])
        if not low <= float(score) <= high:
            raise UserError(f"item {item_id}: score {score:g} is outside {item['score_scale']}")
    if item["kind"] == "judgment" and decision != "reject" and score is None:
        raise UserError(f"item {item_id}: a judged answer needs the adjudicated score")
    ids = [d["id"] for d in item["decisions"]]
    note = f"adjudicated item {item_id} ({len(ids)} decisions)" + (
        f": {comment.strip()}" if comment.strip() else ""
    )
    with ws.transaction() as conn:
        if item["kind"] == "variant":
            vid = item["target_id"]
            if decision == "edit":
                set_variant_text(
                    ws,
                    vid,
                    text or "",
                    actor=adjudicator,
                    status="gold",
                    comment=note,
                    action="adjudicate",
                )
            else:
                status = "gold" if decision == "accept" else "rejected"
                set_variant_status(
                    ws, vid, status, actor=adjudicator, comment=note, action="adjudicate"
                )
        elif decision != "reject":
            machine = conn.execute(
                "SELECT final, confidence FROM judgments WHERE id = ?", (item["target_id"],)
            ).fetchone()
            record_judgment_score(
                conn,
                item["target_id"],
                annotator=adjudicator,
                score=float(score or 0),
                scale=parse_scale(item["score_scale"]),
                details=JudgmentDetails(
                    source="adjudication",
                    machine={"final": machine[0], "confidence": machine[1]} if machine else {},
                    annotation_item=item_id,
                    decision_ids=ids,
                ),
                reason=note,
            )
        conn.execute(
            "INSERT INTO annotation_adjudications(item_id, adjudicator, decision, text, score, "
            "comment, decision_ids, at) VALUES (?,?,?,?,?,?,?,?)",
            (
                item_id,
                adjudicator,
                decision,
                text,
                score,
                comment.strip(),
                json.dumps(ids),
                stamp(),
            ),
        )
    log.info("item %d adjudicated by %s: %s", item_id, adjudicator, decision)
    return {"item_id": item_id, "decision": decision, "text": text, "score": score}


def accept_agreed(ws: Workspace, adjudicator: str, *, batch_id: int | None = None) -> int:
    """Make gold of every unanimous item (accept/edit/reject as agreed; mean score)."""
    n = 0
    with ws.transaction():
        n = _accept_agreed(ws, adjudicator, batch_id)
    return n


def _accept_agreed(ws: Workspace, adjudicator: str, batch_id: int | None) -> int:
    n = 0
    for entry in agreed(ws, batch_id=batch_id):
        ds = entry["decisions"]
        scores = [d["score"] for d in ds if d["score"] is not None]
        kind = ds[0]["kind"]
        if kind == "judgment" and not scores and ds[0]["decision"] != "reject":
            continue
        adjudicate(
            ws,
            entry["item_id"],
            adjudicator,
            ds[0]["decision"],
            text=ds[0]["text"],
            score=statistics.fmean(scores) if scores else None,
            comment=f"unanimous ({len(ds)} annotators)",
        )
        n += 1
    return n
