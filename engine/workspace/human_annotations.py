"""Human scores: the one writer of ``human_annotations``.

A row is a person's score of one machine result; the machine row is never changed, the
newest row wins and every row stays as history. Each row carries its scale (``scale``,
``MIN-MAX`` as :func:`engine.scales.scale_text` writes it: nothing assumes 0–10 silently)
and one typed ``details`` per target:

- ``'judgment'``: :class:`JudgmentDetails`, the same shape whether the score is a
  reviewer's override (``engine.judging.store.add_override``) or an adjudicated decision
  (``engine.annotation.adjudication``);
- ``'translation'``: :class:`TranslationScoreDetails`, a person's score of a translate-eval
  response (``engine.translation.evaluate``).

It lives in the workspace stage because judging, annotation and translation all write it
and none of them may import another's level.
"""

from __future__ import annotations

import dataclasses
import json
import math
import sqlite3
from typing import Literal

from engine.errors import UserError
from engine.scales import Scale, check_on_scale, parse_scale, scale_text
from engine.text.text_rules import checked_name
from engine.workspace.store import Workspace, utcnow

JudgmentSource = Literal["override", "adjudication"]


@dataclasses.dataclass(frozen=True)
class JudgmentDetails:
    """What a human judgment score rests on; every key is present for both sources."""

    source: JudgmentSource
    # the five Likert scores when the person gave them; None when they gave a final score
    scores: dict[str, int] | None = None
    rubric: str | None = None  # the rubric version the scores were given under
    # the machine judgment's final score and confidence when the person scored it
    machine: dict[str, float | int | None] = dataclasses.field(default_factory=dict)
    annotation_item: int | None = None  # the adjudicated annotation item
    decision_ids: list[int] = dataclasses.field(default_factory=list)  # the decisions it settled


@dataclasses.dataclass(frozen=True)
class TranslationScoreDetails:
    """A translate-eval response's human score needs nothing beyond the row's columns."""


def record_judgment_score(
    conn: sqlite3.Connection,
    judgment_id: int,
    *,
    annotator: str,
    score: float,
    scale: Scale,
    details: JudgmentDetails,
    reason: str,
) -> int:
    """Store a human score of a judgment inside the caller's transaction; its id."""
    return _insert(conn, "judgment", judgment_id, annotator, score, scale, details, reason)


def record_translation_score(
    ws: Workspace,
    response_id: int,
    *,
    annotator: str,
    score: float,
    scale: Scale,
    reason: str = "",
) -> int:
    """Store a person's score of one translate-eval response; its id."""
    with ws.transaction() as conn:
        return _insert(
            conn,
            "translation",
            response_id,
            annotator,
            score,
            scale,
            TranslationScoreDetails(),
            reason,
        )


def judgment_history(ws: Workspace, judgment_id: int) -> list[dict]:
    """Every human score of a judgment, oldest first, ``details`` as a plain dict."""
    rows = ws.query(
        "SELECT id, annotator, score, scale, details, reason, created_at "
        "FROM human_annotations WHERE target = 'judgment' AND target_id = ? ORDER BY id",
        (judgment_id,),
    )
    for row in rows:
        row["details"] = dataclasses.asdict(read_judgment_details(row["details"]))
    return rows


def read_judgment_details(raw: str) -> JudgmentDetails:
    """The typed details of a ``'judgment'`` row (unknown keys are refused)."""
    return JudgmentDetails(**json.loads(raw))


def _insert(
    conn: sqlite3.Connection,
    target: str,
    target_id: int,
    annotator: str,
    score: float,
    scale: Scale,
    details: JudgmentDetails | TranslationScoreDetails,
    reason: str,
) -> int:
    annotator = checked_name(annotator, "annotator name")  # the rule of every name
    scale = parse_scale(scale_text(scale))  # MIN < MAX, as every reader of the column expects
    problem = "a number is needed" if math.isnan(score) else check_on_scale(float(score), scale)
    if problem is not None:
        raise UserError(f"a human score of a {target}: {problem}")
    cur = conn.execute(
        "INSERT INTO human_annotations(target, target_id, annotator, score, scale, details, "
        "reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            target,
            target_id,
            annotator,
            float(score),
            scale_text(scale),
            json.dumps(dataclasses.asdict(details), ensure_ascii=False, sort_keys=True),
            reason,
            utcnow(),
        ),
    )
    assert cur.lastrowid is not None  # an INSERT always has a row id
    return cur.lastrowid
