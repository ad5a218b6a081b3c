"""Translation review: read the questions x dialects grid and record every reviewer edit.

Each edit is one transaction that updates the variant and appends a ``variant_history``
row (who, when, what changed, old and new text and status, comment), so nothing a
reviewer did is ever lost and undo is itself a recorded edit. Pure Python; the review
panel and the CLI share it.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from engine.errors import UserError
from engine.i18n import _
from engine.text.text_rules import checked_name, clean_text
from engine.text.textnorm import normalize_text
from engine.translation.draft_checks import ORDERS, draft_checks, need_key
from engine.workspace.schema import DIALECTS
from engine.workspace.store import Workspace, utcnow
from engine.workspace.variants import VARIANT_STATUSES, add_history, update_variant

log = logging.getLogger(__name__)

STATUSES = VARIANT_STATUSES
# What each reviewer action does to the status.
ACTION_STATUS = {"accept": "gold", "edit": "reviewed", "reject": "rejected", "flag": "flagged"}
_DIALECT_ORDER = {code: i for i, (code, *_rest) in enumerate(DIALECTS)}


@dataclass(frozen=True)
class VariantState:
    """The reviewable fields of a variant; what undo restores."""

    id: int
    text: str
    status: str
    provenance: str
    comment: str
    reviewer: str


# -- reading ------------------------------------------------------------------------------
def review_dialects(ws: Workspace, script: str = "bengali") -> list[dict]:
    """Dialects (not 'standard') that have variants, in the paper's order, with names."""
    rows = ws.query(
        "SELECT d.code, d.name_bn, d.name_en, count(v.id) AS variants FROM dialects d "
        "JOIN variants v ON v.dialect = d.code AND v.script = ? "
        "WHERE d.code != 'standard' GROUP BY d.code",
        (script,),
    )
    return sorted(
        rows, key=lambda r: (_DIALECT_ORDER.get(r["code"], len(_DIALECT_ORDER)), r["code"])
    )


def question_sets(ws: Workspace) -> list[dict]:
    return ws.query(
        "SELECT s.id, s.name, count(q.id) AS questions FROM question_sets s "
        "LEFT JOIN questions q ON q.set_id = s.id GROUP BY s.id ORDER BY s.id"
    )


def has_questions(ws: Workspace) -> bool:
    """False for a new workspace: nothing to review until a question set is imported."""
    return bool(ws.scalar("SELECT EXISTS (SELECT 1 FROM questions)"))


def review_question_ids(
    ws: Workspace,
    *,
    set_id: int | None = None,
    status: str | None = None,
    dialect: str | None = None,
    script: str = "bengali",
) -> list[int]:
    """Question ids in display order; ``status``/``dialect`` keep questions with such a variant."""
    where: list[str] = ["1 = 1"]
    params: list[object] = []
    if set_id is not None:
        where.append("q.set_id = ?")
        params.append(set_id)
    if status is not None or dialect is not None:
        sub = ["v.question_id = q.id", "v.script = ?", "v.dialect != 'standard'"]
        params.append(script)
        if status is not None:
            sub.append("v.status = ?")
            params.append(status)
        if dialect is not None:
            sub.append("v.dialect = ?")
            params.append(dialect)
        where.append(f"EXISTS (SELECT 1 FROM variants v WHERE {' AND '.join(sub)})")
    sql = (
        f"SELECT q.id FROM questions q WHERE {' AND '.join(where)} "
        "ORDER BY q.set_id, q.ext_id = '', q.ext_id, q.id"
    )
    return [r[0] for r in ws.conn.execute(sql, params)]


def question_rows(ws: Workspace, question_ids: list[int]) -> dict[int, dict]:
    if not question_ids:
        return {}
    marks = ",".join("?" * len(question_ids))
    rows = ws.query(
        f"SELECT id, set_id, ext_id, text, gloss_en, question_type, domain "
        f"FROM questions WHERE id IN ({marks})",
        tuple(question_ids),
    )
    return {r["id"]: r for r in rows}


def variant_cells(
    ws: Workspace, question_ids: list[int], dialects: list[str], script: str = "bengali"
) -> dict[tuple[int, str], dict]:
    """(question id, dialect) -> {id, status, text, provenance} for the given block."""
    if not question_ids or not dialects:
        return {}
    q_marks, d_marks = ",".join("?" * len(question_ids)), ",".join("?" * len(dialects))
    rows = ws.query(
        f"SELECT id, question_id, dialect, status, text, provenance FROM variants "
        f"WHERE script = ? AND question_id IN ({q_marks}) AND dialect IN ({d_marks})",
        (script, *question_ids, *dialects),
    )
    return {(r["question_id"], r["dialect"]): r for r in rows}


def variant_state(ws: Workspace, variant_id: int) -> VariantState:
    rows = ws.query(
        "SELECT id, text, status, provenance, comment, reviewer FROM variants WHERE id = ?",
        (variant_id,),
    )
    if not rows:
        raise UserError(
            _("variant {id} does not exist (deleted by another program?)").format(id=variant_id)
        )
    return VariantState(**rows[0])


def variant_history(ws: Workspace, variant_id: int) -> list[dict]:
    return ws.query(
        "SELECT at, actor, action, old_text, new_text, old_status, new_status, "
        "comment FROM variant_history WHERE variant_id = ? ORDER BY id",
        (variant_id,),
    )


def machine_text(ws: Workspace, variant_id: int) -> str | None:
    """The machine draft as first written (before any human edit); None for imported or
    hand-typed variants. A run id or 'machine' provenance marks a machine origin."""
    rows = ws.query("SELECT text, provenance, run_id FROM variants WHERE id = ?", (variant_id,))
    if not rows or (rows[0]["run_id"] is None and rows[0]["provenance"] != "machine"):
        return None
    # the translation job logs its own writes as 'machine-translate'; skip those
    first_edit = ws.query(
        "SELECT old_text FROM variant_history WHERE variant_id = ? "
        "AND action != 'machine-translate' AND old_text IS NOT NULL "
        "AND old_text != new_text ORDER BY id LIMIT 1",
        (variant_id,),
    )
    return first_edit[0]["old_text"] if first_edit else rows[0]["text"]


def variant_detail(ws: Workspace, variant_id: int) -> dict:
    """Everything the review detail pane shows for one variant."""
    rows = ws.query(
        "SELECT v.*, q.text AS question_text, q.gloss_en, q.ext_id, q.question_type, q.domain, "
        "d.name_en AS dialect_name_en, d.name_bn AS dialect_name_bn FROM variants v "
        "JOIN questions q ON q.id = v.question_id JOIN dialects d ON d.code = v.dialect "
        "WHERE v.id = ?",
        (variant_id,),
    )
    if not rows:
        raise UserError(
            _("variant {id} does not exist (deleted by another program?)").format(id=variant_id)
        )
    detail = rows[0]
    detail["retrieval"] = _parse_json(detail["retrieval"], {}, variant_id, "retrieval")
    detail["exemplar_ids"] = _parse_json(detail["exemplar_ids"], [], variant_id, "exemplar_ids")
    detail["exemplars"] = _exemplars(ws, detail)
    detail["machine_text"] = machine_text(ws, variant_id)
    detail["history"] = variant_history(ws, variant_id)
    return detail


def _parse_json(text: str, default, variant_id: int, column: str):
    try:
        value = json.loads(text or "null")
    except ValueError:
        log.warning("variant %d: %s is not valid JSON; ignored", variant_id, column)
        return default
    return value if isinstance(value, type(default)) else default


def _exemplars(ws: Workspace, detail: dict) -> list[dict]:
    """Exemplars with their scores: from the retrieval explanation when present, else the
    bare pairs named by ``exemplar_ids`` (older or imported variants)."""
    explained = detail["retrieval"].get("exemplars")
    if isinstance(explained, list) and explained:
        return [e for e in explained if isinstance(e, dict)]
    ids = [i for i in detail["exemplar_ids"] if isinstance(i, int)]
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    pairs = {
        r["pair_id"]: r
        for r in ws.query(
            f"SELECT id AS pair_id, dialect, district, standard_text, dialect_text "
            f"FROM sentence_pairs WHERE id IN ({marks})",
            tuple(ids),
        )
    }
    return [dict(pairs[i], rank=rank) for rank, i in enumerate(ids, start=1) if i in pairs]


def review_counts(ws: Workspace, script: str = "bengali") -> dict[str, dict[str, int]]:
    counts: dict[str, dict[str, int]] = {}
    for r in ws.query(
        "SELECT dialect, status, count(*) AS n FROM variants "
        "WHERE script = ? AND dialect != 'standard' GROUP BY dialect, status",
        (script,),
    ):
        counts.setdefault(r["dialect"], {})[r["status"]] = r["n"]
    return counts


# -- writing ------------------------------------------------------------------------------
def set_variant_text(
    ws: Workspace,
    variant_id: int,
    text: str,
    *,
    actor: str,
    status: str | None = None,
    comment: str | None = None,
    action: str = "edit",
) -> VariantState:
    """Save a reviewer's text (NFC-normalised); the variant becomes human-provenance.

    ``status`` defaults to the action's status ('reviewed' for an edit, 'gold' for accept).
    """
    where = _("variant {id}").format(id=variant_id)
    text = normalize_text(clean_text(text, where, optional=True))
    if not text:
        raise UserError(_("a translation cannot be empty; reject the variant instead"))
    new_status = status or ACTION_STATUS.get(action, "reviewed")
    return _write(
        ws, variant_id, actor=actor, action=action, text=text, status=new_status, comment=comment
    )


def set_variant_status(
    ws: Workspace,
    variant_id: int,
    status: str,
    *,
    actor: str,
    comment: str | None = None,
    action: str | None = None,
) -> VariantState:
    """Change only the status (accept as is, reject, flag) with an optional comment."""
    return _write(
        ws,
        variant_id,
        actor=actor,
        action=action or _action_for(status),
        status=status,
        comment=comment,
    )


def restore_variant(
    ws: Workspace, state: VariantState, *, actor: str, action: str = "undo"
) -> VariantState:
    """Put back an earlier state (undo/redo); recorded in the history like any edit."""
    return _write(
        ws,
        state.id,
        actor=actor,
        action=action,
        text=state.text,
        status=state.status,
        comment=state.comment,
        provenance=state.provenance,
    )


def _action_for(status: str) -> str:
    return {v: k for k, v in ACTION_STATUS.items()}.get(status, "status")


def _write(
    ws: Workspace,
    variant_id: int,
    *,
    actor: str,
    action: str,
    status: str,
    text: str | None = None,
    comment: str | None = None,
    provenance: str | None = None,
) -> VariantState:
    if status not in STATUSES:
        raise UserError(f"unknown review status {status!r}; use one of {', '.join(STATUSES)}")
    if not actor.strip():
        raise UserError(_("enter your reviewer name first: every review edit records who made it"))
    actor = checked_name(actor, "reviewer name")
    with ws.transaction() as conn:
        old = variant_state(ws, variant_id)
        new_text = old.text if text is None else text
        if status == "gold" and text is None:  # a machine draft becomes gold as it is
            clean_text(new_text, _("variant {id}").format(id=variant_id))
        new_comment = old.comment if comment is None else comment.strip()
        if comment is not None:
            clean_text(
                new_comment, _("variant {id}: the comment").format(id=variant_id), optional=True
            )
        new_provenance = provenance or ("human" if new_text != old.text else old.provenance)
        now = utcnow()
        update_variant(
            conn,
            variant_id,
            text=new_text,
            status=status,
            provenance=new_provenance,
            comment=new_comment,
            reviewer=actor,
            now=now,
        )
        add_history(
            conn,
            variant_id,
            at=now,
            actor=actor,
            action=action,
            old_text=old.text,
            new_text=new_text,
            old_status=old.status,
            new_status=status,
            comment=new_comment,
        )
    log.info("variant %d: %s by %s (%s -> %s)", variant_id, action, actor, old.status, status)
    return VariantState(variant_id, new_text, status, new_provenance, new_comment, actor)


def variants_to_review(
    ws: Workspace,
    status: str | None = None,
    dialects: list[str] | None = None,
    *,
    order: str = "question",
    flagged: bool = False,
) -> list[dict]:
    """Dialect variants (id, question's external id, dialect, status, provenance, text, and
    the dialect check: flag, target_probability, explanation), optionally only one status,
    some dialects and the flagged drafts; by question then dialect, or by need (flagged
    first, then least likely in the target dialect: engine.translation.draft_checks). An
    unknown dialect code is a :class:`UserError`."""
    if order not in ORDERS:
        raise UserError(f"unknown order {order!r}; use one of {', '.join(ORDERS)}")
    rows = _variants_to_review(ws, status, dialects)
    checks = draft_checks(ws, [r["id"] for r in rows])
    for r in rows:
        c = checks.get(r["id"])
        r["flag"] = c["flag"] if c else None
        r["target_probability"] = c["target_probability"] if c else None
        r["explanation"] = c["explanation"] if c else ""
    if flagged:
        rows = [r for r in rows if r["flag"]]
    if order == "need":
        rows.sort(key=lambda r: need_key(checks.get(r["id"])))  # stable: question order within
    return rows


def _variants_to_review(
    ws: Workspace, status: str | None, dialects: list[str] | None
) -> list[dict]:
    sql = (
        "SELECT v.id, q.ext_id AS question, v.dialect, v.status, v.provenance, v.text "
        "FROM variants v JOIN questions q ON q.id = v.question_id WHERE v.dialect != 'standard'"
    )
    params: list = []
    if status:
        sql += " AND v.status = ?"
        params.append(status)
    if dialects:
        unknown = set(dialects) - ws.dialect_codes()
        if unknown:
            raise UserError(f"unknown dialect(s): {', '.join(sorted(unknown))}")
        sql += f" AND v.dialect IN ({','.join('?' * len(dialects))})"
        params += dialects
    return ws.query(sql + " ORDER BY v.question_id, v.dialect", tuple(params))


def variant_exists(ws: Workspace, variant_id: int) -> bool:
    return bool(ws.scalar("SELECT count(*) FROM variants WHERE id = ?", (variant_id,)))


def machine_variants(ws: Workspace, dialect: str) -> list[dict]:
    """The machine-drafted variants of one dialect (id, text)."""
    return ws.query(
        "SELECT id, text FROM variants WHERE dialect = ? AND provenance = 'machine'", (dialect,)
    )
