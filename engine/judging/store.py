"""Judging data in the workspace: answer pairs, judgments, the human review queue and
overrides, judge roles, and the items statistics are computed on.

A *judge* is a judge run (kind ``'judge'``): one model with one rubric, template and
sampler. Its role (primary or secondary) is kept in the run's stored card under
``judge_role`` — a label, not part of the run key, so changing the primary judge never
re-judges anything. A human override is a ``human_annotations`` row (target
``'judgment'``, written by :mod:`engine.workspace.human_annotations`): who, when, why, the
scale and the scores; the machine judgment row is never changed, the newest override wins,
and all of them stay as history.
"""

from __future__ import annotations

import logging
import math
from typing import TypedDict, cast

from engine.answering.generation import ANSWER_KIND
from engine.errors import UserError
from engine.i18n import _
from engine.judging.rubric import LIKERT_VALUES, Rubric
from engine.llm.runs.run import label_runs
from engine.workspace.human_annotations import (
    JudgmentDetails,
    judgment_history,
    record_judgment_score,
)
from engine.workspace.store import Workspace, utcnow

log = logging.getLogger(__name__)

JUDGE_KIND = "judge"


# -- answer pairs ------------------------------------------------------------------------
def answer_pairs(ws: Workspace, answer_run_ids: list[int] | None = None) -> list[dict]:
    """Every done dialect answer with the same run's done standard answer to its question."""
    where = ""
    params: tuple[int, ...] = ()
    if answer_run_ids:
        where = f"AND d.run_id IN ({','.join('?' * len(answer_run_ids))})"
        params = tuple(answer_run_ids)
    return ws.query(
        f"""
        SELECT d.id AS dialect_response_id, s.id AS standard_response_id,
               d.run_id AS answer_run_id, r.model_id AS answer_model_id,
               dv.id AS variant_id, dv.dialect, dl.name_en AS dialect_name,
               q.id AS question_id, q.text AS standard_question, dv.text AS dialect_question,
               s.text AS standard_answer, d.text AS dialect_answer
        FROM responses d
        JOIN runs r ON r.id = d.run_id AND r.kind = '{ANSWER_KIND}'
        JOIN variants dv ON dv.id = d.variant_id AND dv.dialect != 'standard'
        JOIN dialects dl ON dl.code = dv.dialect
        JOIN questions q ON q.id = dv.question_id
        JOIN variants sv ON sv.question_id = q.id AND sv.dialect = 'standard'
        -- "+": keep the run_id indexes out of this join, so the standard answer is found by
        -- variant (a few rows each) instead of scanning a run's thousands of rows per item;
        -- without ANALYZE statistics SQLite picks the run index (11,880 pairs: 27 s -> 0.13 s).
        JOIN responses s ON +s.run_id = +d.run_id AND s.variant_id = sv.id AND s.status = 'done'
        WHERE d.status = 'done' {where}
        ORDER BY d.run_id, q.id, dv.dialect, d.id""",
        params,
    )


# -- judgments ---------------------------------------------------------------------------
def insert_judgments(ws: Workspace, run_id: int, rows: list[dict]) -> int:
    """Store scored pairs (keys: response_id, standard_response_id, judge_response_id and the
    fields of :class:`engine.judging.verdict.Scored`). Idempotent per (run, response)."""
    now = utcnow()
    values = [
        (
            run_id,
            r["response_id"],
            r.get("standard_response_id"),
            r.get("judge_response_id"),
            r["gate"],
            r["reasoning"],
            r["scores"]["comprehension"],
            r["scores"]["correctness"],
            r["scores"]["completeness"],
            r["scores"]["clarity"],
            r["scores"]["length"],
            r["confidence"],
            r["final"],
            r.get("flags", ""),
            now,
        )
        for r in rows
    ]
    with ws.transaction() as conn:
        # the cursor's count: total_changes would add the judged items its triggers write
        cur = conn.executemany(
            """INSERT INTO judgments(run_id, response_id, standard_response_id,
                   judge_response_id, gate, reasoning, comprehension, correctness,
                   completeness, clarity, length, confidence, final, flags, created_at)
               VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
               ON CONFLICT(run_id, response_id) DO NOTHING""",
            values,
        )
        return cur.rowcount


def judged_response_ids(ws: Workspace, run_id: int) -> set[int]:
    return {
        r[0]
        for r in ws.conn.execute("SELECT response_id FROM judgments WHERE run_id = ?", (run_id,))
    }


# -- judge runs and roles ----------------------------------------------------------------
class JudgeRunRow(TypedDict):
    """One judge run of :func:`judge_runs` (model None: its model was removed)."""

    run_id: int
    model_id: int | None
    model: str | None
    family: str | None
    created_at: str
    role: str  # primary or secondary
    judgments: int


def judge_runs(ws: Workspace) -> list[JudgeRunRow]:
    """Judge runs with their model, family, role and number of judgments."""
    rows = ws.query(f"""
        SELECT r.id AS run_id, r.model_id, m.name AS model, m.family, r.created_at,
               json_extract(r.card, '$.judge_role') AS role,
               (SELECT count(*) FROM judgments j WHERE j.run_id = r.id) AS judgments
        FROM runs r LEFT JOIN models m ON m.id = r.model_id
        WHERE r.kind = '{JUDGE_KIND}' ORDER BY r.id""")
    primary = primary_judge(ws)
    for row in rows:
        row["role"] = "primary" if row["run_id"] == primary else "secondary"
    return cast("list[JudgeRunRow]", rows)


def judge_run_count(ws: Workspace) -> int:
    """How many judge runs there are (cheap: for panels that poll for a new one)."""
    return ws.scalar(f"SELECT count(*) FROM runs WHERE kind = '{JUDGE_KIND}'")


def primary_judge(ws: Workspace) -> int | None:
    """The judge run marked primary; without a mark, the oldest judge run."""
    marked = ws.scalar(
        f"SELECT id FROM runs WHERE kind = '{JUDGE_KIND}' "
        "AND json_extract(card, '$.judge_role') = 'primary' ORDER BY id LIMIT 1"
    )
    if marked is not None:
        return marked
    return ws.scalar(f"SELECT min(id) FROM runs WHERE kind = '{JUDGE_KIND}'")


def set_primary_judge(ws: Workspace, run_id: int) -> None:
    if ws.scalar("SELECT kind FROM runs WHERE id = ?", (run_id,)) != JUDGE_KIND:
        raise UserError(f"run {run_id} is not a judge run")
    label_runs(ws, JUDGE_KIND, "judge_role", run_id, chosen="primary", others="secondary")


def self_preference_warnings(ws: Workspace, judge_run_ids: list[int] | None = None) -> list[str]:
    """A judge that shares a model family (``models.family``) with a model it judged.

    The (judge run, answering run) pairs whose models match come first (a few rows of
    ``runs``); only for those is it checked that the judge judged one of that run's
    responses — not every judgment joined to its response, slow at ten times the paper's study."""
    rows = ws.query(f"""
        SELECT jr.id AS judge_run, jm.name AS judge, am.name AS answerer,
               jm.family AS family, jm.id = am.id AS same_model
        FROM runs jr
        JOIN models jm ON jm.id = jr.model_id
        JOIN models am ON jm.id = am.id
             OR (jm.family != '' AND lower(jm.family) = lower(am.family))
        JOIN runs ar ON ar.model_id = am.id AND ar.kind != '{JUDGE_KIND}'
        WHERE jr.kind = '{JUDGE_KIND}' AND EXISTS (
            SELECT 1 FROM responses d JOIN judgments j
            ON j.run_id = jr.id AND j.response_id = d.id WHERE d.run_id = ar.id)
        GROUP BY jr.id, am.id
        ORDER BY jr.id, am.name""")
    wanted = set(judge_run_ids) if judge_run_ids else None
    same = _(
        "self-preference risk: judge '{judge}' (run {run}) is the same model as "
        "answering model '{answerer}'"
    )
    family = _(
        "self-preference risk: judge '{judge}' (run {run}) shares family '{family}' with "
        "answering model '{answerer}'"
    )
    return [
        (same if r["same_model"] else family).format(
            judge=r["judge"], run=r["judge_run"], family=r["family"], answerer=r["answerer"]
        )
        for r in rows
        if wanted is None or r["judge_run"] in wanted
    ]


# -- human review ------------------------------------------------------------------------
def review_queue(
    ws: Workspace, *, threshold: int = 3, run_id: int | None = None, include_reviewed: bool = False
) -> list[dict]:
    """Judgments whose judge confidence is ≤ ``threshold`` (gate-decided rows have no
    confidence and are not queued) and every flagged judgment (an injection attempt or an
    inconsistent verdict: whatever confidence the judge claimed), flagged first, then
    oldest first, with what a reviewer needs to see. Chosen by the same condition as
    :func:`review_queue_size`, over the judged items (schema V4: their rows and newest human
    score are the base-table join's, tests/engine/judging/test_judging_counted.py). At ten
    times the paper's study it takes as long as that join did: choosing the rows is cheap,
    reading their four texts and making the dicts is the rest, so a view of the queue should
    fetch a page of ids at a time."""
    where, params = _queued(threshold, run_id, include_reviewed)
    return ws.query(
        f"""
        SELECT j.id AS judgment_id, j.run_id, j.confidence, j.final, j.gate, j.reasoning,
               j.comprehension, j.correctness, j.completeness, j.clarity, j.length, j.flags,
               ji.dialect, q.text AS standard_question, dv.text AS dialect_question,
               s.text AS standard_answer, d.text AS dialect_answer, ji.human_final
        FROM judgments j JOIN judged_items ji ON ji.judgment_id = j.id
            JOIN responses d ON d.id = ji.response_id
            JOIN variants dv ON dv.id = d.variant_id
            JOIN questions q ON q.id = ji.question_id
            LEFT JOIN responses s ON s.id = j.standard_response_id
        WHERE {where}
        ORDER BY j.flags = '', j.id""",
        params,
    )


def review_queue_size(ws: Workspace, *, threshold: int = 3, run_id: int | None = None) -> int:
    """``len(review_queue(ws, threshold=threshold, run_id=run_id))`` without reading the
    answers: a count over the judged items."""
    where, params = _queued(threshold, run_id, include_reviewed=False)
    return ws.scalar(
        f"SELECT count(*) FROM judgments j JOIN judged_items ji ON ji.judgment_id = j.id "
        f"WHERE {where}",
        params,
    )


def _queued(threshold: int, run_id: int | None, include_reviewed: bool) -> tuple[str, tuple]:
    """SQL condition (over judgment ``j`` and its judged item ``ji``) and parameters: the
    judged items that wait for review. Conditions on ``j``'s own columns, so that SQLite
    scans the judgments and looks each judged item up by its key."""
    where = ["(j.flags != '' OR (j.confidence IS NOT NULL AND j.confidence <= ?))"]
    params: list = [threshold]
    if run_id is not None:
        where.append("j.run_id = ?")
        params.append(run_id)
    if not include_reviewed:
        where.append("NOT ji.reviewed")
    return " AND ".join(where), tuple(params)


def add_override(
    ws: Workspace,
    judgment_id: int,
    *,
    annotator: str,
    reason: str,
    rubric: Rubric,
    scores: dict[str, int] | None = None,
    final: float | None = None,
) -> int:
    """Record a human score for a judgment (five Likert scores, or a final score)."""
    annotator, reason = (annotator or "").strip(), (reason or "").strip()
    if not annotator:
        raise UserError(_("an override needs the annotator's name"))
    if not reason:
        raise UserError(_("an override needs a reason"))
    original = ws.query("SELECT * FROM judgments WHERE id = ?", (judgment_id,))
    if not original:
        raise UserError(f"no judgment {judgment_id}")
    if (scores is None) == (final is None):
        raise UserError("give either the five criterion scores or a final score")
    if scores is not None:
        if set(scores) != set(rubric.keys):
            raise UserError(f"scores must cover exactly {list(rubric.keys)}")
        for key, value in scores.items():
            if isinstance(value, bool) or value not in LIKERT_VALUES:
                raise UserError(f"{key}: {value!r} is not on the Likert scale 0-5")
        final = rubric.final_score(scores)
    elif not (
        isinstance(final, (int, float)) and math.isfinite(final) and 0 <= final <= rubric.max_score
    ):
        raise UserError(f"final score must be between 0 and {rubric.max_score:g}")
    details = JudgmentDetails(
        source="override",
        scores=scores,
        rubric=rubric.version,
        machine={"final": original[0]["final"], "confidence": original[0]["confidence"]},
    )
    with ws.transaction() as conn:
        return record_judgment_score(
            conn,
            judgment_id,
            annotator=annotator,
            score=float(final),
            scale=(0.0, rubric.max_score),
            details=details,
            reason=reason,
        )


def override_history(ws: Workspace, judgment_id: int) -> list[dict]:
    """Every human score of a judgment (overrides and adjudications alike), oldest first."""
    return judgment_history(ws, judgment_id)


# -- items for statistics ----------------------------------------------------------------
def scored_items(ws: Workspace, run_id: int) -> list[dict]:
    """One row per judgment of a judge run: machine and human scores, the effective score
    (the newest human override if any, else the machine score), whether it is ``counted``
    in the figures (the ``counted`` of :mod:`engine.judging.judged_items`), and the grouping keys —
    read from the judged items the workspace keeps (:mod:`engine.judging.judged_items`)."""
    return ws.query(
        """
        SELECT ji.judgment_id, ji.response_id, j.gate, ji.confidence, j.flags,
               ji.machine_final, ji.human_final, ji.final, ji.counted,
               m.name AS model, m.family AS model_family, ji.answer_run_id,
               ji.dialect, ji.question_id, q.domain, q.question_type
        FROM judged_items ji
        JOIN judgments j ON j.id = ji.judgment_id
        LEFT JOIN models m ON m.id = ji.model_id
        JOIN questions q ON q.id = ji.question_id
        WHERE ji.run_id = ? AND ji.machine_final IS NOT NULL
        ORDER BY ji.judgment_id""",
        (run_id,),
    )


def answer_run_ids(ws: Workspace, model_id: int) -> list[int]:
    """The answer runs of one model (what ``judge --answers-of`` judges)."""
    return [
        r["id"]
        for r in ws.query("SELECT id FROM runs WHERE kind = 'answer' AND model_id = ?", (model_id,))
    ]
