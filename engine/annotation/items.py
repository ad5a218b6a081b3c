"""What an annotator sees of an item, and the hash that tells whether it changed.

Kinds: ``variant`` (a dialect rendering of a question) and ``judgment`` (a model's answer
with the judge's score). ``content`` is what a package carries; ``content_hash`` covers only
what is being judged (question and text), so a status change alone does not make a decision
stale, but an edited text does.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json

from engine.errors import UserError
from engine.i18n import _
from engine.scales import DOTTED_SCALE, Scale, scale_bounds
from engine.workspace.store import Workspace

KINDS = ("variant", "judgment")
DECISIONS = ("accept", "edit", "flag", "reject")
# Default score scale per kind: "low..high"; every score is checked against its scale.
DEFAULT_SCALE = {"variant": "1..5", "judgment": "0..10"}


def stamp() -> str:
    """UTC time to the microsecond: orders one annotator's successive decisions (the
    workspace's second-resolution ``utcnow`` would tie two clicks within a second)."""
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="microseconds")


def parse_scale(scale: str) -> Scale:
    """A batch's score scale (LOW..HIGH, e.g. '0..10') as (low, high): engine.scales' bounds
    in the notation batches store, with the annotation's own messages."""
    bounds = scale_bounds(scale, DOTTED_SCALE)
    if bounds is None:
        raise UserError(
            _("score scale {scale!r}: write it as LOW..HIGH, e.g. 0..10").format(scale=scale)
        )
    if not bounds[0] < bounds[1]:
        raise UserError(_("score scale {scale!r}: LOW must be below HIGH").format(scale=scale))
    return bounds


def _field(value) -> str:
    if value is None:
        return "\x00"
    if isinstance(value, bool | int):
        return f"i{int(value)}"
    if isinstance(value, float):
        return f"f{value!r}"
    return f"s{value}"


def row_digest(values) -> str:
    """SHA-256 of a row of scalars, typed so None, '' and 0 differ (fast: no JSON)."""
    return hashlib.sha256("\x1f".join(map(_field, values)).encode("utf-8")).hexdigest()


def digest(data) -> str:
    blob = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


_VARIANT_SQL = (
    "SELECT v.id, v.dialect, v.text, v.status, v.provenance, q.text AS question, q.gloss_en, "
    "q.ext_id FROM variants v JOIN questions q ON q.id = v.question_id WHERE v.id IN ({})"
)
_JUDGMENT_SQL = (
    "SELECT j.id, dv.dialect, r.text AS answer, j.final AS judge_score, dv.text AS question, "
    "q.ext_id, m.name AS model FROM judgments j JOIN responses r ON r.id = j.response_id "
    "JOIN variants dv ON dv.id = r.variant_id JOIN questions q ON q.id = dv.question_id "
    "JOIN runs ar ON ar.id = r.run_id LEFT JOIN models m ON m.id = ar.model_id "
    "WHERE j.id IN ({})"
)


def contents(ws: Workspace, kind: str, target_ids: list[int]) -> dict[int, dict]:
    """target id -> content dict (with 'dialect'); missing targets are absent."""
    if kind not in KINDS:
        raise UserError(f"unknown item kind {kind!r}; use one of {', '.join(KINDS)}")
    out: dict[int, dict] = {}
    sql = _VARIANT_SQL if kind == "variant" else _JUDGMENT_SQL
    for start in range(0, len(target_ids), 900):
        chunk = target_ids[start : start + 900]
        for r in ws.query(sql.format(",".join("?" * len(chunk))), tuple(chunk)):
            out[r.pop("id")] = r
    return out


def content_hash(kind: str, content: dict) -> str:
    if kind == "variant":
        return _target_hash(kind, content["question"], content["text"])
    return _target_hash(kind, content["question"], content["answer"])


def _target_hash(kind: str, question, text) -> str:
    if type(question) is str and type(text) is str:
        # row_digest's encoding of three strings, written out: a merge hashes every item it
        # adds a decision to, and this is twice as fast (a test holds the two equal)
        return hashlib.sha256(f"s{kind}\x1fs{question}\x1fs{text}".encode()).hexdigest()
    return row_digest((kind, question, text))


# The two texts each kind's hash covers, per target, through the same joins as contents()
# (a target that is gone has no row). The ids travel as one JSON array: one query per kind
# instead of 900-id chunks, and no content dicts built only to be hashed (a merge computes
# this for every item it adds a decision to).
_HASHED_SQL = {
    "variant": (
        "SELECT v.id, q.text, v.text FROM variants v JOIN questions q ON q.id = v.question_id "
        "WHERE v.id IN (SELECT value FROM json_each(?))"
    ),
    "judgment": (
        "SELECT j.id, dv.text, r.text FROM judgments j JOIN responses r ON r.id = j.response_id "
        "JOIN variants dv ON dv.id = r.variant_id JOIN questions q ON q.id = dv.question_id "
        "JOIN runs ar ON ar.id = r.run_id WHERE j.id IN (SELECT value FROM json_each(?))"
    ),
}


def _target_hashes(ws: Workspace, kind: str, target_ids: list[int]) -> dict[int, str]:
    ids = json.dumps([int(i) for i in target_ids])
    return {
        target: _target_hash(kind, question, text)
        for target, question, text in ws.conn.execute(_HASHED_SQL[kind], (ids,))
    }


def current_hashes(
    ws: Workspace, item_ids, *, targets: dict[int, tuple[str, int]] | None = None
) -> dict[int, str]:
    """annotation item id -> hash of its target as it is now (absent when deleted).

    ``targets`` (item id -> (kind, target id)), where the caller has read them already,
    spares looking the items up again (an item never changes its target)."""
    if targets is None:
        targets = {
            item: (kind, target)
            for item, kind, target in ws.conn.execute(
                "SELECT id, kind, target_id FROM annotation_items "
                "WHERE id IN (SELECT value FROM json_each(?))",
                (json.dumps([int(i) for i in item_ids]),),
            )
        }
    out: dict[int, str] = {}
    for kind in KINDS:
        mine = [(i, targets[i][1]) for i in item_ids if i in targets and targets[i][0] == kind]
        found = _target_hashes(ws, kind, [target for _item, target in mine])
        out.update((item, found[target]) for item, target in mine if target in found)
    return out
