"""The dialect check of every machine draft: is it in the target dialect, or a copy?

A draft gets the dialect identifier's probability of its target dialect
(:mod:`engine.text.dialect_id`) and its chrF++ against the standard question it
translates (sacrebleu). It is *flagged* when it is a copy (chrF++ at or above
:data:`COPY_CHRF`) or when another dialect, standard Bengali included, is the likeliest at
the model's flag confidence (calibrated and chosen on held-out sentences, so that genuine
dialect text is rarely flagged; :func:`figures_line` says what was measured). The review
queue shows flagged drafts first, then the least likely in their target dialect: the drafts
a reviewer most needs to see.

Checks are stored in ``draft_checks`` with the text they checked and the model's digest,
so an edited draft or a new model is checked again; the translation job checks its own
drafts, and the front ends call :func:`check_drafts` off the GUI thread.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import TypedDict

from engine.i18n import N_, _
from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)

COPY_CHRF = 90.0  # chrF++ against the standard source at or above this: a copy
ORDERS = ("question", "need")
FLAGS = ("copy", "other")

# the machine drafts (dialect, Bengali script) with their standard question
_DRAFTS = (
    "SELECT v.id, v.dialect, v.text, q.text AS source, c.text AS checked_text, "
    "c.model AS checked_model FROM variants v JOIN questions q ON q.id = v.question_id "
    "LEFT JOIN draft_checks c ON c.variant_id = v.id "
    "WHERE v.provenance = 'machine' AND v.dialect != 'standard' AND v.script = 'bengali'"
)


@dataclass(frozen=True)
class DraftCheck:
    target_probability: float | None  # None: the model does not know the target dialect
    likeliest: str
    likeliest_probability: float
    copy_chrf: float
    flag: str  # '' (fine), 'copy' or 'other' (another class likely at the flag confidence)


@cache
def model_digest() -> str:
    """The shipped model's identity: a check by another model is checked again."""
    from engine.text.dialect_id import MODEL_FILE  # numpy: not before the first window

    data = files("resources").joinpath(*MODEL_FILE).read_bytes()
    return hashlib.sha256(data).hexdigest()[:16]


def check_text(text: str, dialect: str, source: str) -> DraftCheck:
    """The check of one draft ``text`` meant to be in ``dialect``, translating ``source``."""
    from sacrebleu.metrics import CHRF

    from engine.text.dialect_id import dialect_model

    model = dialect_model()
    row = model.probabilities([text])
    probs = {c: float(p) for c, p in zip(model.classes, row[0], strict=True)}
    likeliest = max(probs, key=lambda c: probs[c])
    chrf = float(CHRF(word_order=2).sentence_score(text, [source]).score)
    other = bool(model.flags_other(row, [dialect])[0])
    flag = "copy" if chrf >= COPY_CHRF else "other" if other else ""
    return DraftCheck(probs.get(dialect), likeliest, probs[likeliest], chrf, flag)


class DraftsChecked(TypedDict):
    """:func:`check_drafts`: drafts checked now, how many of them were flagged, and
    whether it was cancelled (what was checked before is kept)."""

    checked: int
    flagged: int
    cancelled: bool


def check_drafts(
    ws: Workspace,
    *,
    progress: Callable[[int, int, str], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> DraftsChecked:
    """Check every machine draft not yet checked in its present text by the present model.
    Returns {checked, flagged (among those checked now), cancelled}."""
    digest = model_digest()
    todo = [
        r
        for r in ws.query(_DRAFTS + " ORDER BY v.id")
        if r["checked_text"] != r["text"] or r["checked_model"] != digest
    ]
    rows, stopped = [], False
    for done, r in enumerate(todo, start=1):
        if cancelled is not None and cancelled():
            stopped = True
            break
        c = check_text(r["text"], r["dialect"], r["source"])
        rows.append(
            (
                r["id"],
                r["text"],
                c.target_probability,
                c.likeliest,
                c.likeliest_probability,
                c.copy_chrf,
                c.flag,
                digest,
                utcnow(),
            )
        )
        if progress is not None and (done % 50 == 0 or done == len(todo)):
            progress(done, len(todo), "check")
    with ws.transaction() as conn:
        conn.executemany(
            "INSERT INTO draft_checks (variant_id, text, target_probability, likeliest, "
            "likeliest_probability, copy_chrf, flag, model, checked_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (variant_id) DO UPDATE SET "
            "text = excluded.text, target_probability = excluded.target_probability, "
            "likeliest = excluded.likeliest, likeliest_probability = "
            "excluded.likeliest_probability, copy_chrf = excluded.copy_chrf, "
            "flag = excluded.flag, model = excluded.model, checked_at = excluded.checked_at",
            rows,
        )
    flagged = sum(1 for r in rows if r[6])
    log.info(N_("dialect check: %d draft(s) checked, %d flagged"), len(rows), flagged)
    return {"checked": len(rows), "flagged": flagged, "cancelled": stopped}


def draft_checks(ws: Workspace, variant_ids: list[int] | None = None) -> dict[int, dict]:
    """variant id -> its stored check (current ones only: the text it checked is the
    variant's text), with ``explanation``."""
    sql = (
        "SELECT c.* FROM draft_checks c JOIN variants v ON v.id = c.variant_id "
        "WHERE c.text = v.text"
    )
    params: tuple = ()
    if variant_ids is not None:
        if not variant_ids:
            return {}
        sql += f" AND c.variant_id IN ({','.join('?' * len(variant_ids))})"
        params = tuple(variant_ids)
    out = {}
    for r in ws.query(sql, params):
        r["explanation"] = explain(r)
        out[r["variant_id"]] = r
    return out


def explain(check: dict) -> str:
    """One line saying why a draft is (or is not) flagged."""
    if check["flag"] == "copy":
        return _("copy: chrF++ {chrf:.0f} against the standard question (≥ {limit:.0f})").format(
            chrf=check["copy_chrf"], limit=COPY_CHRF
        )
    if check["target_probability"] is None:
        return _("the dialect model does not know this dialect; chrF++ {chrf:.0f}").format(
            chrf=check["copy_chrf"]
        )
    from engine.text.dialect_id import dialect_model

    limit = dialect_model().flag_confidence
    if check["flag"] == "other":
        return _(
            "likely another dialect: reads as {likeliest} ({p:.0%}, the flag needs "
            "{limit:.0%}); target {target:.0%}"
        ).format(
            likeliest=check["likeliest"],
            p=check["likeliest_probability"],
            limit=limit,
            target=check["target_probability"],
        )
    if check["likeliest_probability"] > check["target_probability"]:
        return _(
            "reads more as {likeliest} ({p:.0%}), below the flag's {limit:.0%}: "
            "queued by its target-dialect probability {target:.0%}"
        ).format(
            likeliest=check["likeliest"],
            p=check["likeliest_probability"],
            limit=limit,
            target=check["target_probability"],
        )
    return _("target dialect {target:.0%}, chrF++ {chrf:.0f}: no flag").format(
        target=check["target_probability"], chrf=check["copy_chrf"]
    )


def figures_line() -> str:
    """What the flag was measured to do, in-domain beside out of the collection, from the
    figures stored with the shipped model."""
    from engine.text.dialect_id import dialect_model

    f = dialect_model().figures
    if not f:
        return ""
    ind, far = f["in_domain"], f["in_domain_unfamiliar"]
    std = f["out_of_collection_standard"]
    caught = min(s["flagged_as_paraphrase"] for s in std.values())
    return _(
        "The flag fires at {limit:.0%} confidence. Genuine dialect sentences falsely flagged: "
        "{ind:.1%} on held-out Vashantor sentences, {far:.1%} on their least familiar third "
        "(the likeliest-dialect rule: {ind_old:.1%}, {far_old:.1%}); accuracy {acc:.1%} and "
        "{far_acc:.1%}. Standard Bengali from other collections (BlanCK, BanglaSocialBias): "
        "named standard {named:.1%}, flagged {caught:.0%} or more when not a copy; copies "
        "all flagged. Not measured: dialect text from other collections."
    ).format(
        limit=f["flag_confidence"],
        ind=ind["false_flags"],
        far=far["false_flags"],
        ind_old=ind["false_flags_likeliest_rule"],
        far_old=far["false_flags_likeliest_rule"],
        acc=ind["accuracy"],
        far_acc=far["accuracy"],
        named=min(s["named_standard"] for s in std.values()),
        caught=caught,
    )


def need_key(check: dict | None) -> tuple:
    """Sort key of the review queue by need: flagged first, then the least likely in the
    target dialect; drafts the model cannot judge, then unchecked ones, last."""
    if check is None:
        return (3, 0.0)
    p = check["target_probability"]
    return (0 if check["flag"] else 1 if p is not None else 2, p if p is not None else 0.0)


def flagged_shares(ws: Workspace) -> dict[str, dict]:
    """dialect -> {drafts, checked, flagged, share, copies, other}: each dialect's share of
    flagged drafts among its checked machine drafts (share None when none is checked)."""
    out: dict[str, dict] = {}
    for r in ws.query(
        "SELECT v.dialect, count(*) AS drafts, count(c.variant_id) AS checked, "
        "sum(c.flag != '') AS flagged, sum(c.flag = 'copy') AS copies, "
        "sum(c.flag = 'other') AS other FROM variants v "
        "LEFT JOIN draft_checks c ON c.variant_id = v.id AND c.text = v.text "
        "WHERE v.provenance = 'machine' AND v.dialect != 'standard' AND v.script = 'bengali' "
        "GROUP BY v.dialect ORDER BY v.dialect"
    ):
        checked = r["checked"]
        out[r["dialect"]] = {
            "drafts": r["drafts"],
            "checked": checked,
            "flagged": r["flagged"] or 0,
            "copies": r["copies"] or 0,
            "other": r["other"] or 0,
            "share": (r["flagged"] or 0) / checked if checked else None,
        }
    return out


def checked_share(texts: list[str], dialect: str, sources: list[str]) -> dict:
    """The dialect check of machine translations not stored as drafts (an evaluation's):
    {n, flagged, copies, other, share}."""
    flags = [check_text(t, dialect, s).flag for t, s in zip(texts, sources, strict=True)]
    flagged = sum(1 for f in flags if f)
    return {
        "n": len(flags),
        "flagged": flagged,
        "copies": flags.count("copy"),
        "other": flags.count("other"),
        "share": flagged / len(flags) if flags else None,
    }


def flagged_notice(ws: Workspace) -> str | None:
    """The report's line on each dialect's share of flagged machine drafts."""
    shares = {d: s for d, s in flagged_shares(ws).items() if s["checked"]}
    if not shares:
        return None
    parts = ", ".join(
        f"{d} {s['flagged']}/{s['checked']} ({s['share']:.0%})" for d, s in shares.items()
    )
    # in the report's language, as its other notices
    return (
        "Dialect check of the machine drafts, share flagged as copies of the standard "
        f"question or likely another dialect: {parts}."
    )


def questions_by_need(
    ws: Workspace, question_ids: list[int], *, flagged: bool = False
) -> list[int]:
    """``question_ids`` ordered by their neediest draft (flagged first, then the least
    likely in its target dialect), question order within equal need; ``flagged``: only
    questions with a flagged draft."""
    checks = draft_checks(ws)
    need: dict[int, tuple] = {}
    for r in ws.query(
        "SELECT id, question_id FROM variants WHERE provenance = 'machine' "
        "AND dialect != 'standard' AND script = 'bengali'"
    ):
        key = need_key(checks.get(r["id"]))
        need[r["question_id"]] = min(key, need.get(r["question_id"], key))
    keep = [q for q in question_ids if not flagged or need.get(q, (3,))[0] == 0]
    return sorted(keep, key=lambda q: need.get(q, (4, 0.0)))
