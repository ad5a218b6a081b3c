"""The judging steps as requests: judge the answers, calibrate a judge on the human-scored
items, replicate a run.

``upabhasha judge``, ``calibrate`` and ``replicate``, the judge panel and a batch file each
build one of these and run it through its :meth:`run`; the defaults below are the steps'
only ones. The rubric and the judge template travel inside the request as data (the CLI
reads the files into it, the panel puts its edited rubric in; left out, the bundled ones),
so a request replays anywhere and its digest changes when either does.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from engine.errors import Setting, UserError
from engine.files.nesting import too_deep
from engine.i18n import _
from engine.judging.calibration import CalibrateResult, calibrate
from engine.judging.prompt import (
    BUNDLED_TEMPLATE,
    JudgeTemplate,
    judge_template,
    judge_template_text,
)
from engine.judging.replication import replicate
from engine.judging.rubric import Rubric, rubric_data, rubric_from_dict
from engine.judging.run import JudgeSummary, finish_judge_run, judge_answers, judge_plan
from engine.judging.store import answer_run_ids
from engine.llm.api import find_models
from engine.llm.models.registry import find_model
from engine.llm.runs.model_runs import PlannedRun
from engine.llm.runs.replicate import Replication
from engine.llm.runs.step_request import (
    MAX_COUNT,
    MAX_TEXT_CHARS,
    RequestError,
    StepRequest,
    count_field,
    flag_field,
    id_field,
    n_seq_field,
    names_field,
    optional_name_field,
    refill_field,
    seed_field,
)
from engine.llm.types import CancelFn, ProgressFn
from engine.workspace.store import Workspace

MAX_ATTEMPTS = 100


def _data_field(name: Setting, check: Callable[[Any, Setting], Any]) -> Any:
    """A file's contents carried as data; left out (None), the bundled file's."""
    return dataclasses.field(default=None, metadata={"setting": name, "check": check})


def _rubric(value: Any, name: Setting) -> dict:
    """A rubric as JSON data, valid by :func:`rubric_from_dict`."""
    if value is None:
        return rubric_data()
    if not isinstance(value, dict):
        raise RequestError(name, _("a rubric (a JSON object) is needed"))
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        raise RequestError(name, _("the rubric holds values that are not JSON data")) from None
    if len(text) > MAX_TEXT_CHARS or too_deep(text):
        raise RequestError(name, _("the rubric is too large or nested too deeply"))
    data = json.loads(text)  # a copy: a later edit of the caller's dict changes nothing here
    try:
        rubric_from_dict(data)
    except (TypeError, ValueError) as exc:
        raise RequestError(name, _("invalid rubric: {error}").format(error=exc)) from None
    return data


def _template(value: Any, name: Setting) -> str:
    """A judge template's text, bounded (its own checks need its name: see validate)."""
    if value is None:
        return judge_template_text()
    if not isinstance(value, str) or not value.strip():
        raise RequestError(name, _("an empty value is not a value"))
    if len(value) > MAX_TEXT_CHARS or "\0" in value:
        raise RequestError(name, _("the value is too long or holds NUL characters"))
    return value


def rubric_field() -> Any:
    """A request's rubric, carried as JSON data; none given: the bundled rubric."""
    return _data_field(Setting.RUBRIC, _rubric)


def template_field() -> Any:
    """A request's judge template, carried as text; none given: the bundled one."""
    return _data_field(Setting.JUDGE_TEMPLATE, _template)


class JudgePromptData:
    """What a request that builds judge prompts reads of the rubric and template it carries
    (its fields ``rubric``, ``template`` and ``template_name``): the template checked when
    the request is built, not when the first prompt is, and both parsed once."""

    rubric: dict
    template: str
    template_name: str | None

    def validate(self) -> None:
        try:
            self.judge_template  # noqa: B018
        except UserError as exc:
            raise RequestError(Setting.JUDGE_TEMPLATE, str(exc)) from None

    @cached_property
    def parsed_rubric(self) -> Rubric:
        return rubric_from_dict(self.rubric)

    @cached_property
    def judge_template(self) -> JudgeTemplate:
        return judge_template(self.template, self.template_name or BUNDLED_TEMPLATE)


@dataclass(frozen=True)
class JudgeSettings(JudgePromptData, StepRequest):
    """What a judge run is made of, the same for judging every answer and for calibrating
    (a calibration's run is an ordinary judge run, which a full run later resumes)."""

    judge: str | None = optional_name_field(Setting.JUDGE_MODEL)  # none: the default model
    rubric: dict = rubric_field()
    template: str = template_field()
    template_name: str | None = optional_name_field(Setting.JUDGE_TEMPLATE)  # its file's
    max_attempts: int = count_field(Setting.MAX_ATTEMPTS, 3, MAX_ATTEMPTS)
    n_seq: int | None = n_seq_field()
    refill: int | None = refill_field()

    def judge_options(self) -> dict:
        """:func:`engine.judging.run.judge_answers`'s options this request sets."""
        options: dict = {
            "rubric": self.parsed_rubric,
            "template": self.judge_template,
            "max_attempts": self.max_attempts,
        }
        if self.schedule:
            options["schedule"] = self.schedule
        return options

    def judge_model(self, ws: Workspace) -> dict:
        return find_model(ws, self.judge)


@dataclass(frozen=True)
class JudgeResult:
    """A judge run's summary and what followed it: whether it is the primary judge, how
    many of its judgments wait for human review, self-preference warnings."""

    summary: JudgeSummary
    judge_model: str
    primary: bool
    review_queue: int
    warnings: tuple[str, ...]

    def as_dict(self) -> dict:
        return {
            **self.summary.as_dict(),
            "judge_model": self.judge_model,
            "primary": self.primary,
            "review_queue": self.review_queue,
            "warnings": list(self.warnings),
        }


@dataclass(frozen=True)
class JudgeRequest(JudgeSettings):
    """The judge scores every (standard answer, dialect answer) pair not judged yet
    (resumable), then the steps after a run (:func:`finish_judge_run`)."""

    STEP = "judge"

    answers_of: tuple[str, ...] = names_field(Setting.ANSWERS_OF)  # none: every model's
    primary: bool = flag_field(Setting.PRIMARY)

    def answer_runs(self, ws: Workspace) -> list[int] | None:
        """The answer runs to judge (None: all of them)."""
        if not self.answers_of:
            return None
        runs = [
            run_id
            for model in find_models(ws, list(self.answers_of))
            for run_id in answer_run_ids(ws, model["id"])
        ]
        if not runs:
            raise UserError(
                _("{models}: no answers yet; generate their answers first").format(
                    models=", ".join(self.answers_of)
                )
            )
        return runs

    def plan(self, ws: Workspace) -> tuple[dict, PlannedRun]:
        """The judge model and the first round of :meth:`run`, planned (what the time
        estimate calibrates on; nothing is written)."""
        judge = self.judge_model(ws)
        return judge, judge_plan(
            ws,
            judge,
            self.parsed_rubric,
            template=self.judge_template,
            answer_run_ids=self.answer_runs(ws),
            schedule=self.schedule,
        )

    def run(
        self,
        ws: Workspace,
        *,
        progress: ProgressFn | None = None,
        cancelled: CancelFn | None = None,
    ) -> JudgeResult:
        judge = self.judge_model(ws)
        summary = judge_answers(
            ws,
            judge,
            answer_run_ids=self.answer_runs(ws),
            progress=progress,
            cancelled=cancelled,
            **self.judge_options(),
        )
        after = finish_judge_run(
            ws,
            summary.run_id,
            primary=self.primary,
            review_threshold=self.parsed_rubric.review_confidence_threshold,
        )
        return JudgeResult(
            summary,
            judge["name"],
            primary=after["primary"],
            review_queue=after["review_queue"],
            warnings=tuple(after["warnings"]),
        )


@dataclass(frozen=True)
class CalibrateRequest(JudgeSettings):
    """The judge scores the human-scored items; the figures compare it with the humans
    (CBS's danger threshold is the rubric's)."""

    STEP = "calibrate"

    def run(
        self,
        ws: Workspace,
        *,
        progress: ProgressFn | None = None,
        cancelled: CancelFn | None = None,
    ) -> CalibrateResult:
        return calibrate(
            ws,
            self.judge_model(ws),
            danger_threshold=self.parsed_rubric.danger_threshold,
            progress=progress,
            cancelled=cancelled,
            **self.judge_options(),
        )


@dataclass(frozen=True)
class ReplicateRequest(StepRequest):
    """A seeded sample of a run's finished items decoded again and compared with what was
    stored (judge runs: how far the final scores moved); the result is stored."""

    STEP = "replicate"

    run_id: int = id_field(Setting.RUN)
    sample: int = count_field(Setting.SAMPLE, 20, MAX_COUNT)
    seed: int = seed_field(Setting.SEED)

    def run(
        self,
        ws: Workspace,
        *,
        progress: ProgressFn | None = None,
        cancelled: CancelFn | None = None,
    ) -> Replication:
        return replicate(
            ws,
            self.run_id,
            sample=self.sample,
            seed=self.seed,
            progress=progress,
            cancelled=cancelled,
        )
