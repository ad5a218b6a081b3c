"""Reads behind the side-by-side answers panel (Qt-free).

Rows are judgments of one judge run (one dialect answer each, paired with its standard
answer). :func:`answer_ids` filters them in SQL and runs in a worker; the table then reads
the rows it shows in blocks with :func:`answer_rows`, and one row's full detail with
:func:`answer_detail`. Scores are effective: the newest human override replaces the
machine score, from the shared SQL of :mod:`engine.judging.judged_items`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.answering.generation import ANSWER_KIND
from engine.judging import store
from engine.judging.gate import check_answer
from engine.judging.judged_items import EFFECTIVE_FINAL, LATEST_OVERRIDE, judged_items_from
from engine.workspace.store import Workspace


@dataclass(frozen=True)
class AnswerFilter:
    """What the table shows; ``None`` means any. Immutable: handed to a worker as is."""

    judge_run: int | None = None  # None: the primary judge
    model_id: int | None = None
    dialect: str | None = None
    domain: str | None = None
    question_type: int | None = None
    min_gap: float = 0.0  # points lost against the standard answer (max − final)
    max_confidence: int | None = None
    needs_review: bool = False  # low confidence and no human score yet
    review_threshold: int = 3
    max_score: float = 10.0


def filter_options(ws: Workspace) -> dict:
    """The values each filter offers."""
    return {
        "judges": store.judge_runs(ws),
        "models": ws.query(
            f"SELECT DISTINCT m.id, m.name FROM runs r JOIN models m "
            f"ON m.id = r.model_id WHERE r.kind = '{ANSWER_KIND}' "
            "ORDER BY m.name"
        ),
        "dialects": ws.query(
            "SELECT code, name_en, name_bn FROM dialects WHERE code != 'standard' ORDER BY name_en"
        ),
        "domains": [
            r["domain"]
            for r in ws.query(
                "SELECT DISTINCT domain FROM questions WHERE domain IS NOT NULL ORDER BY domain"
            )
        ],
        "types": [
            r["question_type"]
            for r in ws.query(
                "SELECT DISTINCT question_type FROM questions WHERE question_type IS NOT NULL "
                "ORDER BY question_type"
            )
        ],
    }


def _where(flt: AnswerFilter, run: int) -> tuple[list[str], list]:
    """Conditions on the judged items ``ji`` (and their question ``q``)."""
    where: list[str] = ["ji.run_id = ?"]
    params: list = [run]
    for column, value in (
        ("ji.model_id", flt.model_id),
        ("ji.dialect", flt.dialect),
        ("q.domain", flt.domain),
        ("q.question_type", flt.question_type),
    ):
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value)
    if flt.min_gap > 0:
        where.append("? - ji.final >= ?")
        params += [flt.max_score, flt.min_gap]
    if flt.max_confidence is not None:
        where.append("ji.confidence <= ?")
        params.append(flt.max_confidence)
    if flt.needs_review:
        where.append("ji.confidence IS NOT NULL AND ji.confidence <= ? AND NOT ji.reviewed")
        params.append(flt.review_threshold)
    return where, params


def answer_ids(workspace_path: str, flt: AnswerFilter, after_id: int = 0) -> list[int]:
    """Judgment ids matching ``flt`` (and above ``after_id``: rows that arrived since), from
    the judged items the workspace keeps (:mod:`engine.judging.judged_items`)."""
    with Workspace(workspace_path, create=False) as ws:
        run = flt.judge_run if flt.judge_run is not None else store.primary_judge(ws)
        if run is None:
            return []
        where, params = _where(flt, run)
        where.append("ji.judgment_id > ?")
        params.append(after_id)
        by_question = flt.domain is not None or flt.question_type is not None
        joins = "JOIN questions q ON q.id = ji.question_id" if by_question else ""
        return [
            r[0]
            for r in ws.conn.execute(
                f"SELECT ji.judgment_id FROM judged_items ji {joins} "
                f"WHERE {' AND '.join(where)} ORDER BY ji.judgment_id",
                params,
            )
        ]


def answer_rows(ws: Workspace, ids: list[int]) -> dict[int, dict]:
    """What the table shows for each judgment id."""
    if not ids:
        return {}
    rows = ws.query(
        f"""
        SELECT j.id, m.name AS model, dv.dialect, dl.name_en AS dialect_en, dl.name_bn AS dialect_bn,
               q.ext_id,
               q.text AS question, q.domain,
               q.question_type, j.final AS machine_final, {LATEST_OVERRIDE} AS human_final,
               {EFFECTIVE_FINAL} AS final, j.confidence, j.gate
        {judged_items_from("JOIN dialects dl ON dl.code = dv.dialect")}
        WHERE j.id IN ({",".join("?" * len(ids))})""",
        tuple(ids),
    )
    return {r["id"]: r for r in rows}


def answer_detail(ws: Workspace, judgment_id: int) -> dict | None:
    """Both questions and answers, the script checks, the verdict and its override history."""
    joins = judged_items_from(
        "JOIN dialects dl ON dl.code = dv.dialect",
        "LEFT JOIN responses s ON s.id = j.standard_response_id",
        "JOIN runs jr ON jr.id = j.run_id",
        "LEFT JOIN models jm ON jm.id = jr.model_id",
    )
    rows = ws.query(
        f"""
        SELECT j.*, {LATEST_OVERRIDE} AS human_final, m.name AS model, dv.dialect,
               dl.name_en AS dialect_en, dl.name_bn AS dialect_bn, q.ext_id,
               q.text AS standard_question, dv.text AS dialect_question, q.domain,
               q.question_type, s.text AS standard_answer, d.text AS dialect_answer,
               jm.name AS judge_model
        {joins}
        WHERE j.id = ?""",
        (judgment_id,),
    )
    if not rows:
        return None
    detail = rows[0]
    detail["dialect_check"] = check_answer(detail["dialect_answer"])
    detail["standard_check"] = check_answer(detail["standard_answer"])
    detail["history"] = store.override_history(ws, judgment_id)
    return detail
