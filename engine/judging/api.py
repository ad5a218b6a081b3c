"""The judging stage's front door: judge runs (run, finish, choose the primary), the human
review queue and overrides, calibration against human scores, replication, the rubric and
judge prompt, and the answer browser's queries.

Background work of the judge panel is in :mod:`engine.judging.tasks`. Front ends import
these two modules, never the stage's others (.importlinter).
"""

from __future__ import annotations

from engine.judging.answer_queries import (
    AnswerFilter,
    answer_detail,
    answer_id_array,
    answer_ids,
    answer_of_judgment,
    answer_rows,
    filter_options,
    judges_scores,
)
from engine.judging.calibration import calibrate
from engine.judging.incomplete import JudgeDidNotLoad, JudgeStopped
from engine.judging.paired_scores import judge_run_choices
from engine.judging.prompt import build_judge_prompt, load_judge_template
from engine.judging.replication import replicate
from engine.judging.rubric import (
    CRITERION_KEYS,
    Rubric,
    default_rubric_path,
    load_rubric,
    rubric_from_dict,
)
from engine.judging.run import default_judge_sampler, finish_judge_run, judge_answers
from engine.judging.store import (
    add_override,
    answer_pairs,
    answer_run_ids,
    judge_runs,
    override_history,
    primary_judge,
    review_queue,
    self_preference_warnings,
    set_primary_judge,
)
from engine.judging.verdict import parse_verdict, verdict_schema

__all__ = [
    "CRITERION_KEYS",
    "AnswerFilter",
    "JudgeDidNotLoad",
    "JudgeStopped",
    "Rubric",
    "add_override",
    "answer_detail",
    "answer_id_array",
    "answer_ids",
    "answer_of_judgment",
    "answer_pairs",
    "answer_rows",
    "answer_run_ids",
    "build_judge_prompt",
    "calibrate",
    "default_judge_sampler",
    "default_rubric_path",
    "filter_options",
    "finish_judge_run",
    "judge_answers",
    "judge_run_choices",
    "judge_runs",
    "judges_scores",
    "load_judge_template",
    "load_rubric",
    "override_history",
    "parse_verdict",
    "primary_judge",
    "replicate",
    "review_queue",
    "rubric_from_dict",
    "self_preference_warnings",
    "set_primary_judge",
    "verdict_schema",
]
