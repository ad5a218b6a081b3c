"""The validity suite as a model step: ``upabhasha validity``, the validity panel and a batch
file each build a :class:`ValidityRequest` and run it (engine.steps.tasks.run_request_at).

The judge run's own judge decodes every probe (engine.validity.probes) in one run of kind
``judge_validity``, resumable like any job; when every probe is decoded, the card is
computed and stored (engine.validity.figures). The rubric and template travel in the request
as in the judge's, and must be the judge run's: a probe is the judge's own prompt, changed
in one respect only. The bands shape the card, not what is decoded: a band changed later
reuses every reply.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.errors import Setting, UserError
from engine.i18n import _
from engine.judging.request import JudgePromptData, rubric_field, template_field
from engine.judging.verdict import verdict_schema
from engine.llm.models.registry import find_model
from engine.llm.runs.model_runs import PlannedRun, RunSummary, run_models
from engine.llm.runs.responses import finished_responses
from engine.llm.runs.run import run_card, run_model_id
from engine.llm.runs.step_request import (
    MAX_COUNT,
    RequestError,
    StepRequest,
    count_field,
    n_seq_field,
    optional_count_field,
    optional_name_field,
    refill_field,
    seed_field,
)
from engine.llm.types import CancelFn, ProgressFn, Sampler
from engine.validity.card import Bands, ValidityCard
from engine.validity.figures import Settings, card_dialects, compare
from engine.validity.probes import Probes, build_probes
from engine.validity.sample import Item, draw, judge_run_id, judged_items
from engine.validity.store import insert_card
from engine.workspace.store import Workspace, utcnow

VALIDITY_KIND = "judge_validity"  # the probe runs' kind
LEVEL = 0.95
RESAMPLES = 1000


def _share(value: Any, _name: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise UserError(_("a band is a share from 0 to 1, not {value!r}").format(value=value))
    return float(value)


def _band(default: float) -> Any:
    # a band names no setting of its own: every front end checks it as a share first
    return dataclasses.field(default=default, metadata={"setting": None, "check": _share})


class Plan(NamedTuple):
    """What a suite decodes: the judge run checked, its judge, the sampled items, their
    probes and the planned run holding them."""

    judge_run: int
    model: dict
    items: list[Item]
    probes: Probes
    planned: PlannedRun


@dataclass(frozen=True)
class ValidityResult:
    """The probe run's summary and, once every probe is decoded, the stored card."""

    runs: tuple[RunSummary, ...]
    card: ValidityCard | None

    @property
    def complete(self) -> bool:
        return self.card is not None

    def as_dict(self) -> dict:
        return {
            "runs": list(self.runs),
            "card": None if self.card is None else self.card.as_dict(),
        }


@dataclass(frozen=True)
class ValidityRequest(JudgePromptData, StepRequest):
    """Check one judge run (none given: the primary judge's) on ``per_dialect`` seeded items
    of each dialect, against the bands."""

    STEP = "validity"

    judge_run: int | None = optional_count_field(Setting.RUN)
    per_dialect: int = count_field(Setting.SAMPLE, 20, MAX_COUNT)
    seed: int = seed_field(Setting.SEED)
    flip_max: float = _band(Bands.flip_max)
    retest_min: float = _band(Bands.retest_min)
    invariance_min: float = _band(Bands.invariance_min)
    discrimination_min: float = _band(Bands.discrimination_min)
    # the judge run's own rubric and template, checked as the judge request checks them
    rubric: dict = rubric_field()
    template: str = template_field()
    template_name: str | None = optional_name_field(Setting.JUDGE_TEMPLATE)
    n_seq: int | None = n_seq_field()
    refill: int | None = refill_field()

    @property
    def bands(self) -> Bands:
        return Bands(self.flip_max, self.retest_min, self.invariance_min, self.discrimination_min)

    def _judge_card(self, ws: Workspace, run_id: int) -> dict:
        """The judge run's card, its rubric and template checked against the request's."""
        card = run_card(ws, run_id)
        rubric, template = card.get("rubric") or {}, card.get("template") or {}
        if not rubric.get("sha256"):  # imported or made-up judgments: no judge to ask again
            raise RequestError(
                Setting.RUBRIC,
                _("judge run {run} records no rubric: its judge cannot be asked again").format(
                    run=run_id
                ),
            )
        if rubric.get("sha256") != self.parsed_rubric.content_hash:
            raise RequestError(
                Setting.RUBRIC,
                _("judge run {run} was judged with the rubric {name}; give that rubric").format(
                    run=run_id, name=_version(rubric.get("name"), rubric.get("sha256"))
                ),
            )
        if template.get("sha256") != self.judge_template.content_hash:
            raise RequestError(
                Setting.JUDGE_TEMPLATE,
                _("judge run {run} was judged with the template {name}; give that template").format(
                    run=run_id, name=template.get("source") or "?"
                ),
            )
        return card

    def plan(self, ws: Workspace) -> Plan:
        """The judge model, the probes and the sample they ask about (nothing is written)."""
        judge_run = judge_run_id(ws, self.judge_run)
        card = self._judge_card(ws, judge_run)
        model_id = run_model_id(ws, judge_run)
        if model_id is None:  # find_model(None) would be the default model: another judge
            raise UserError(
                _(
                    "judge run {run}: its judge model was removed, so it cannot be asked again"
                ).format(run=judge_run)
            )
        model = find_model(ws, model_id)
        pool = judged_items(ws, judge_run)
        if not pool:
            raise UserError(
                _("judge run {run} has no answers its judge scored: nothing to check").format(
                    run=judge_run
                )
            )
        items = draw(pool, self.per_dialect, self.seed)
        raw = card.get("sampler") or {}
        sampler = Sampler(**{**raw, "stop": tuple(raw.get("stop", ()))})
        probes = build_probes(
            items,
            pool,
            rubric=self.parsed_rubric,
            template=self.judge_template,
            sampler=sampler,
            spotlight=card.get("spotlight", "datamark") != "none",
            seed=self.seed,
            romanize=_romanizer(ws),
        )
        schedule = {"schedule": self.schedule} if self.schedule else {}
        probe_card = {
            **schedule,
            "task": self.STEP,
            "judge_run": judge_run,
            "seed": self.seed,
            "rubric": card["rubric"],
            "template": card["template"],
            "sampler": sampler.as_dict(),
            "schema": verdict_schema(self.parsed_rubric),
        }
        planned = PlannedRun(
            VALIDITY_KIND,
            probe_card,
            probes.requests,
            label="validity",
            summary={"judge_run": judge_run},
            job_options={"use_cache": False},  # a retest must decode again
        )
        return Plan(judge_run, model, items, probes, planned)

    def run(
        self,
        ws: Workspace,
        *,
        progress: ProgressFn | None = None,
        cancelled: CancelFn | None = None,
    ) -> ValidityResult:
        judge_run, model, items, probes, planned = self.plan(ws)
        runs = run_models(
            ws, [model], lambda _model: [planned], progress=progress, cancelled=cancelled
        )
        done = [s for s in runs if s.get("complete") and not s.get("load_error")]
        if not runs or len(done) != len(runs):  # estimated only, or probes still missing
            return ValidityResult(tuple(runs), None)
        run_id = runs[0]["run_id"]
        assert run_id is not None  # a complete run has its row
        replies = {k: r["text"] for k, r in finished_responses(ws, run_id).items()}
        compared = compare(probes, replies, self.parsed_rubric)
        settings = Settings(self.bands, self.parsed_rubric.max_score, LEVEL, RESAMPLES, self.seed)
        card = ValidityCard(
            judge_run_id=judge_run,
            judge_model=model["name"],
            run_id=run_id,
            created_at=utcnow(),
            per_dialect=self.per_dialect,
            seed=self.seed,
            level=LEVEL,
            bands=self.bands,
            dialects=card_dialects(
                compared,
                items,
                probes,
                settings,
                {code: row["name_bn"] for code, row in ws.dialect_names().items()},
            ),
        )
        return ValidityResult(tuple(runs), insert_card(ws, card))


def _version(name: str | None, sha: str | None) -> str:
    """A rubric as run cards name it: ``name@first 12 hex digits`` (or '?')."""
    return f"{name or '?'}@{(sha or '?')[:12]}"


def _romanizer(ws: Workspace):
    """Bengali -> Roman script, where the study has Romanized texts (else None)."""
    if not ws.scalar("SELECT 1 FROM variants WHERE script = 'roman' LIMIT 1"):
        return None
    from engine.understanding.scripts import romanize  # its transliteration libraries

    return romanize
