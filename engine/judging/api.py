"""The judging stage's front door: the judging steps as requests (judge, calibrate against
human scores, replicate a run: :mod:`engine.judging.request`), judge runs (finish, choose the
primary), the human review queue and overrides, the rubric and judge prompt, and the answer
browser's queries.

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
from engine.judging.calibration import CalibrateResult
from engine.judging.incomplete import JudgeDidNotLoad, JudgeStopped
from engine.judging.injection.detect import detect_injection
from engine.judging.paired_scores import judge_run_choices
from engine.judging.prompt import build_judge_prompt, judge_template_text, load_judge_template
from engine.judging.request import (
    CalibrateRequest,
    JudgeRequest,
    JudgeResult,
    ReplicateRequest,
)
from engine.judging.rubric import (
    CRITERION_KEYS,
    Rubric,
    default_rubric_path,
    load_rubric,
    rubric_data,
    rubric_from_dict,
)
from engine.judging.run import default_judge_sampler, finish_judge_run, judge_answers
from engine.judging.store import (
    add_override,
    answer_pairs,
    judge_runs,
    override_history,
    primary_judge,
    review_queue,
    self_preference_warnings,
    set_primary_judge,
)
from engine.judging.verdict import parse_verdict, verdict_schema
from engine.llm.runs.replicate import Replication

__all__ = [
    "detect_injection",
    "CRITERION_KEYS",
    "AnswerFilter",
    "CalibrateRequest",
    "CalibrateResult",
    "JudgeDidNotLoad",
    "JudgeRequest",
    "JudgeResult",
    "JudgeStopped",
    "ReplicateRequest",
    "Replication",
    "Rubric",
    "add_override",
    "answer_detail",
    "answer_id_array",
    "answer_ids",
    "answer_of_judgment",
    "answer_pairs",
    "answer_rows",
    "build_judge_prompt",
    "default_judge_sampler",
    "default_rubric_path",
    "filter_options",
    "finish_judge_run",
    "judge_answers",
    "judge_run_choices",
    "judge_runs",
    "judge_template_text",
    "judges_scores",
    "load_judge_template",
    "load_rubric",
    "override_history",
    "parse_verdict",
    "primary_judge",
    "review_queue",
    "rubric_data",
    "rubric_from_dict",
    "self_preference_warnings",
    "set_primary_judge",
    "verdict_schema",
]
