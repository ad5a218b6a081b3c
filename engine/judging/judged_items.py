"""The SQL every surface reads judged items with: the CLI, the answers panel, the charts
and the report share these fragments, so they count the same items and the same scores.

A *judged item* is one judgment ``j`` of a dialect answer ``d`` (a response of the answer
run ``ar`` of model ``m``) to variant ``dv`` of question ``q``. Scores are *effective*: the
newest human override (a ``human_annotations`` row, target ``'judgment'``) replaces the
machine score; the machine row is never changed.

*Counted* judgments are the ones every figure rests on — charts, their CSV tables, the
statistics and report (and their CSV/LaTeX tables), judge agreement and CBS, PPI: a
judged, scored item that is either unflagged or flagged and then scored by a person. A
flagged judgment (an injection attempt, an inconsistent verdict, two verdicts that
disagree) is never a machine-only figure: until a person scores it, it is left out, and
every surface leaves it out through the kept table's ``counted`` (:func:`counted_items_from`;
:func:`counted` is the same rule over the base tables).

A human score is read on the figures' 0-10 scale, converted from the scale it was given on
(an adjudication on a 0-5 batch is a 0-5 score).

The figures read the table ``judged_items`` (alias ``ji``: one narrow row per judged item
with its effective score and whether it counts) and its per-group sums, which the
schema's V4 triggers keep up to date in the transaction of every write they rest on
(:mod:`engine.workspace.schema`): :func:`counted_items_from`. The join below
(:func:`judged_items_from`) computes the same rows from the base tables; the detail views
and the test that the table equals a recomputation use it (the review queue chooses its rows
from the table: engine.judging.store). The newest
override there is a correlated look-up on the ``(target, target_id)`` index: a join on a
CTE of the newest overrides was scanned once per judgment, far slower than a full recount
once a study has thousands of overrides.
"""

from __future__ import annotations

from engine.workspace.schema import V4_LATEST_HUMAN_SCORE

LATEST_OVERRIDE = V4_LATEST_HUMAN_SCORE  # on 0-10, whatever scale the person scored on

HAS_OVERRIDE = """EXISTS (SELECT 1 FROM human_annotations ha
    WHERE ha.target = 'judgment' AND ha.target_id = j.id)"""

EFFECTIVE_FINAL = f"coalesce({LATEST_OVERRIDE}, j.final)"

_FROM = """FROM judgments j
    JOIN responses d ON d.id = j.response_id
    JOIN runs ar ON ar.id = d.run_id
    LEFT JOIN models m ON m.id = ar.model_id
    JOIN variants dv ON dv.id = d.variant_id
    JOIN questions q ON q.id = dv.question_id"""


def counted(alias: str = "j") -> str:
    """SQL condition: judgment ``alias`` counts in the figures (unflagged, or reviewed)."""
    return (
        f"({alias}.flags = '' OR EXISTS (SELECT 1 FROM human_annotations ha "
        f"WHERE ha.target = 'judgment' AND ha.target_id = {alias}.id))"
    )


COUNTED = counted()


def judged_items_from(*extra_joins: str) -> str:
    """``FROM`` the judged items (aliases ``j d ar m dv q``), with ``extra_joins`` appended
    (e.g. ``"JOIN dialects dl ON dl.code = dv.dialect"``)."""
    return "\n    ".join((_FROM, *extra_joins))


# the three per-group sums of the counted judged items (run_id, the group, n, total)
SUM_TABLES = ("judged_model_dialect", "judged_dialect_question", "judged_dialect_score")


def counted_items_from(*extra_joins: str) -> str:
    """``FROM`` … ``WHERE``: the counted judged items (alias ``ji``: ``judgment_id``,
    ``run_id``, ``response_id``, ``answer_run_id``, ``model_id``, ``dialect``,
    ``question_id``, ``confidence``, ``machine_final``, ``human_final``, ``final``) of the
    judge run bound to the first ``?``, with ``extra_joins`` (e.g. ``"LEFT JOIN models m ON
    m.id = ji.model_id"``). Callers may append ``AND …``."""
    return "\n    ".join(("FROM judged_items ji", *extra_joins)) + (
        "\n    WHERE ji.run_id = ? AND ji.counted"
    )
