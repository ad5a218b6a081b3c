"""Reads behind the side-by-side answers panel (Qt-free).

Rows are the dialect answers of the answer runs (each paired with its standard answer),
listed as soon as they are generated, with the verdict of one judge run where it has judged
them. :func:`answer_ids` filters them in SQL and runs in a worker; the table then reads
the rows it shows in blocks with :func:`answer_rows`, and one row's full detail with
:func:`answer_detail`. Scores are effective: the newest human override replaces the
machine score, from the shared SQL of :mod:`engine.judging.judged_items`.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import TypedDict, cast

from engine.answering.generation import ANSWER_KIND
from engine.judging import store
from engine.judging.gate import check_answer
from engine.judging.judged_items import EFFECTIVE_FINAL, LATEST_OVERRIDE
from engine.workspace.store import Workspace

# SQLite steps between two looks at ``cancelled``: each look takes Python's GIL
CANCEL_CHECK_STEPS = 20_000


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


class AnsweringModel(TypedDict):
    id: int
    name: str


class DialectName(TypedDict):
    code: str
    name_en: str
    name_bn: str


class FilterOptions(TypedDict):
    """:func:`filter_options`: what each filter of the answers panel offers."""

    judges: list[store.JudgeRunRow]
    models: list[AnsweringModel]
    dialects: list[DialectName]
    domains: list[str]
    types: list[str]


def filter_options(ws: Workspace) -> FilterOptions:
    """The values each filter offers."""
    return {
        "judges": store.judge_runs(ws),
        "models": cast(
            "list[AnsweringModel]",
            ws.query(
                f"SELECT DISTINCT m.id, m.name FROM runs r JOIN models m "
                f"ON m.id = r.model_id WHERE r.kind = '{ANSWER_KIND}' "
                "ORDER BY m.name"
            ),
        ),
        "dialects": cast(
            "list[DialectName]",
            ws.query(
                "SELECT code, name_en, name_bn FROM dialects WHERE code != 'standard' "
                "ORDER BY name_en"
            ),
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


def _where(flt: AnswerFilter) -> tuple[list[str], list]:
    """Conditions on the answers ``d`` (run ``ar``, variant ``dv``, question ``q``) and their
    judged item ``ji`` of the chosen judge (absent: the judge-score filters drop the row)."""
    where: list[str] = []
    params: list = []
    for column, value in (
        ("ar.model_id", flt.model_id),
        ("dv.dialect", flt.dialect),
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


def judges_scores(flt: AnswerFilter) -> bool:
    """Whether ``flt`` asks about the judge's scores (a new judgment may add a row)."""
    return flt.min_gap > 0 or flt.max_confidence is not None or flt.needs_review


def _judge_run(ws: Workspace, judge_run: int | None) -> int | None:
    return judge_run if judge_run is not None else store.primary_judge(ws)


def answer_ids(workspace_path: str, flt: AnswerFilter, after_id: int = 0) -> list[int]:
    """Ids of the done dialect answers (responses of answer runs) matching ``flt``, judged or
    not (and above ``after_id``: answers that arrived since), ascending. The judge's scores
    come from the judged items the workspace keeps (:mod:`engine.judging.judged_items`)."""
    return answer_id_array(workspace_path, flt, after_id).tolist()


def answer_id_array(
    workspace_path: str,
    flt: AnswerFilter,
    after_id: int = 0,
    limit: int | None = None,
    cancelled=None,
) -> array:
    """:func:`answer_ids` as a compact array (the first ``limit`` of them: a screenful
    while the whole list is read): the answers panel lists the whole study, and SQLite
    joins the ids into one text (Python's GIL stays free while it reads) that numpy
    parses, where a Python int per row held the GIL from the charts' worker. ``cancelled``
    (a newer filter replaced this one) interrupts the read."""
    import numpy as np

    with Workspace(workspace_path, create=False) as ws:
        if cancelled is not None:
            ws.conn.set_progress_handler(lambda: 1 if cancelled() else 0, CANCEL_CHECK_STEPS)
        where, params = _where(flt)
        by_question = flt.domain is not None or flt.question_type is not None
        joins = "JOIN questions q ON q.id = dv.question_id" if by_question else ""
        # one judged item per judgment, one judgment per (run, answer): the join adds no row,
        # only the score filters read it
        judged = (
            "LEFT JOIN judged_items ji ON ji.run_id = ? AND ji.response_id = d.id"
            if judges_scores(flt)
            else ""
        )
        text = ws.conn.execute(
            f"""SELECT group_concat(id) FROM (SELECT d.id FROM responses d
                JOIN runs ar ON ar.id = d.run_id AND ar.kind = '{ANSWER_KIND}'
                JOIN variants dv ON dv.id = d.variant_id AND dv.dialect != 'standard' {joins}
                {judged}
                WHERE d.status = 'done' AND d.id > ? {"".join(" AND " + w for w in where)}
                {"ORDER BY d.id LIMIT ?" if limit is not None else ""})""",
            [
                *([_judge_run(ws, flt.judge_run)] if judged else []),
                after_id,
                *params,
                *([limit] if limit is not None else []),
            ],
        ).fetchone()[0]
    ids = array("q")
    if text:  # group_concat keeps no promised order: sorted here
        ids.frombytes(np.sort(np.fromstring(text, dtype=np.int64, sep=",")).tobytes())
    return ids


# the dialect answer ``d`` with its run, model, variant, question and, when the judge run
# bound to the first ``?`` judged it, the judgment ``j``
_ANSWER_FROM = f"""FROM responses d
    JOIN runs ar ON ar.id = d.run_id AND ar.kind = '{ANSWER_KIND}'
    LEFT JOIN models m ON m.id = ar.model_id
    JOIN variants dv ON dv.id = d.variant_id
    JOIN questions q ON q.id = dv.question_id
    JOIN dialects dl ON dl.code = dv.dialect
    LEFT JOIN judgments j ON j.run_id = ? AND j.response_id = d.id"""


def answer_rows(ws: Workspace, ids: list[int], judge_run: int | None = None) -> dict[int, dict]:
    """What the table shows for each answer id (``judgment_id`` and the scores ``None``
    where ``judge_run``, by default the primary judge, has not judged it)."""
    if not ids:
        return {}
    rows = ws.query(
        f"""
        SELECT d.id, j.id AS judgment_id, m.name AS model, dv.dialect,
               dl.name_en AS dialect_en, dl.name_bn AS dialect_bn, q.ext_id,
               q.text AS question, q.domain,
               q.question_type, j.final AS machine_final, {LATEST_OVERRIDE} AS human_final,
               {EFFECTIVE_FINAL} AS final, j.confidence, j.gate
        {_ANSWER_FROM}
        WHERE d.id IN ({",".join("?" * len(ids))})""",
        (_judge_run(ws, judge_run), *ids),
    )
    return {r["id"]: r for r in rows}


def answer_of_judgment(ws: Workspace, judgment_id: int) -> int | None:
    """The answer (response id) a judgment scored."""
    return ws.scalar("SELECT response_id FROM judgments WHERE id = ?", (judgment_id,))


def answer_detail(ws: Workspace, answer_id: int, judge_run: int | None = None) -> dict | None:
    """Both questions and answers, the script checks, and the verdict of ``judge_run`` (by
    default the primary judge) with its override history; ``id`` is the judgment's, ``None``
    when that judge has not judged the answer yet."""
    rows = ws.query(
        f"""
        SELECT j.*, d.id AS answer_id, {LATEST_OVERRIDE} AS human_final, m.name AS model,
               dv.dialect, dl.name_en AS dialect_en, dl.name_bn AS dialect_bn, q.ext_id,
               q.text AS standard_question, dv.text AS dialect_question, q.domain,
               q.question_type, s.text AS standard_answer, d.text AS dialect_answer,
               jm.name AS judge_model
        {_ANSWER_FROM}
        LEFT JOIN responses s ON s.id = coalesce(j.standard_response_id, (
            SELECT sr.id FROM responses sr JOIN variants sv ON sv.id = sr.variant_id
            WHERE +sr.run_id = d.run_id AND sv.question_id = q.id AND sv.dialect = 'standard'
              AND sr.status = 'done' LIMIT 1))
        LEFT JOIN runs jr ON jr.id = j.run_id
        LEFT JOIN models jm ON jm.id = jr.model_id
        WHERE d.id = ?""",
        (_judge_run(ws, judge_run), answer_id),
    )
    if not rows:
        return None
    detail = rows[0]
    detail["dialect_check"] = check_answer(detail["dialect_answer"])
    detail["standard_check"] = check_answer(detail["standard_answer"])
    detail["history"] = store.override_history(ws, detail["id"]) if detail["id"] else []
    return detail
