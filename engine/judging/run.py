"""Judge jobs: score every (standard answer, dialect answer) pair with one judge model.

For each pair not yet judged by this judge run:

1. the dialect answer goes through the script and refusal gates; a failure is stored as a
   zeroed judgment without asking the judge (paper 000, §3.3);
2. otherwise the judge gets the fenced prompt with the verdict JSON schema (a grammar for
   local models, ``response_format`` for endpoints) through the resumable job engine, which
   stores the raw reply in ``responses``;
3. every stored reply is parsed strictly; an invalid one marks its response as an error
   and is asked again — with sampling (seeded by the attempt), since a greedy retry would
   repeat the same reply — up to ``max_attempts``; it never becomes a default score;
4. a flagged or high-scoring verdict is checked by judging the answer again without its
   suspicious sentences (:mod:`engine.judging.disagreement`); its judgment is stored once
   the check is done, flagged for review when the two verdicts differ.

A kill at any moment loses at most the unwritten batch: replies already stored are parsed
on the next call, judgments are unique per (run, response).
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass

from engine.errors import StepIncomplete
from engine.judging import disagreement, store
from engine.judging.consistency import consistency_flags
from engine.judging.disagreement import RETRY_TEMPERATURE, retry_sampler
from engine.judging.gate import check_answer
from engine.judging.incomplete import judge_stopped
from engine.judging.injection.detect import detect_injection, flag_labels
from engine.judging.prompt import JudgeTemplate, load_judge_template, pair_prompt
from engine.judging.rubric import Rubric, load_rubric
from engine.judging.verdict import (
    VerdictError,
    apply_rules,
    max_tokens_for,
    parse_verdict,
    verdict_schema,
    zeroed,
)
from engine.llm.runs.backend import backend_for_run
from engine.llm.runs.jobs import run_job
from engine.llm.runs.model_runs import PlannedRun
from engine.llm.runs.responses import finished_responses, reject_responses
from engine.llm.runs.run import open_run
from engine.llm.types import CancelFn, ProgressFn, Sampler
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)


@dataclass
class JudgeSummary:
    run_id: int
    pairs: int = 0
    judged_before: int = 0
    gated: int = 0
    judged_now: int = 0
    invalid_replies: int = 0
    failed: int = 0  # still without a valid verdict after every attempt
    flagged: int = 0  # judged now with an injection, consistency or disagreement flag
    checked: int = 0  # judged a second time without the suspicious sentences
    disagreements: int = 0  # ... whose two verdicts differed (sent to review)
    cancelled: bool = False
    last_error: str | None = None  # of a failed pair: a dead worker, a refusal, a bad reply

    def as_dict(self) -> dict:
        return asdict(self)


def judge_card(
    rubric: Rubric,
    template: JudgeTemplate,
    sampler: Sampler,
    schedule: dict | None = None,
    spotlight: bool = True,
) -> dict:
    card = {"schedule": schedule} if schedule else {}
    return card | {
        "spotlight": "datamark" if spotlight else "none",
        "disagreement_check": disagreement.check_card(),
        "task": "judge",
        "rubric": {"name": rubric.name, "sha256": rubric.content_hash},
        "template": {"source": template.version, "sha256": template.content_hash},
        "sampler": sampler.as_dict(),
        "schema": verdict_schema(rubric),
        "retry_temperature": RETRY_TEMPERATURE,
    }


def default_judge_sampler(rubric: Rubric) -> Sampler:
    return Sampler(temperature=0.0, max_tokens=max_tokens_for(rubric))


def judge_answers(
    ws: Workspace,
    judge_model: dict,
    *,
    rubric: Rubric | None = None,
    template: JudgeTemplate | None = None,
    sampler: Sampler | None = None,
    answer_run_ids: list[int] | None = None,
    only_response_ids: set[int] | None = None,
    max_attempts: int = 3,
    batch_size: int = 8,
    schedule: dict | None = None,
    spotlight: bool = True,
    backend_factory=None,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> JudgeSummary:
    """Judge every answer pair (see the module docstring); ``spotlight``: datamark the two
    answers (:mod:`engine.judging.spotlight`), recorded in the run card."""
    rubric = rubric or load_rubric()
    template = template or load_judge_template()
    sampler = sampler or default_judge_sampler(rubric)
    run_id = open_run(
        ws,
        store.JUDGE_KIND,
        judge_model,
        judge_card(rubric, template, sampler, schedule, spotlight),
    )
    summary = JudgeSummary(run_id)
    pairs = store.answer_pairs(ws, answer_run_ids)
    if only_response_ids is not None:
        pairs = [p for p in pairs if p["dialect_response_id"] in only_response_ids]
    summary.pairs = len(pairs)
    done = store.judged_response_ids(ws, run_id)
    pending = [p for p in pairs if p["dialect_response_id"] not in done]
    summary.judged_before = summary.pairs - len(pending)

    # every gate-passing pair goes to the job, judged ones too: the job skips finished
    # replies, and the batch plan (which items are decoded together) stays a function of
    # the study's pairs, so a resumed run reproduces an uninterrupted one
    to_judge = []
    gated_rows = []
    for pair in pairs:
        gate = check_answer(pair["dialect_answer"])
        if gate.passed:
            to_judge.append((pair, gate))
        elif pair["dialect_response_id"] not in done:
            gated_rows.append(_row(pair, None, zeroed(rubric, gate)))
    summary.flagged += sum(bool(r["flags"]) for r in gated_rows)
    summary.gated = store.insert_judgments(ws, run_id, gated_rows)
    if not any(pair["dialect_response_id"] not in done for pair, _ in to_judge):
        return summary

    try:
        backend = (backend_factory or backend_for_run)(ws, run_id)
    except BaseException as exc:
        judge_stopped(ws, judge_model, run_id, pairs, exc)
        raise
    try:
        # Each round asks again for every gate-passing pair without a valid verdict, in the
        # same item list (the batch plan stays the same, so the bytes do): a pair whose
        # last reply was invalid is asked with sampling seeded by its number of invalid
        # replies (a greedy retry would repeat it); a pair that got no reply at all (a dead
        # worker, a refusing server) is asked exactly as before, so a crash changes nothing.
        invalid: dict[str, int] = {}
        remaining = to_judge
        for _round in range(max_attempts + 2):  # + rounds for items that got no reply
            if cancelled and cancelled():
                summary.cancelled = True
                break
            samplers = {
                _key(p): retry_sampler(sampler, invalid.get(_key(p), 0)) for p, _ in to_judge
            }
            remaining, new_invalid = _judge_round(
                ws,
                run_id,
                backend,
                to_judge,
                rubric,
                template,
                samplers,
                summary,
                batch_size,
                progress,
                cancelled,
                exhausted={k for k, n in invalid.items() if n >= max_attempts},
                spotlight=spotlight,
                check_sampler=sampler,
                max_attempts=max_attempts,
            )
            for key in new_invalid:
                invalid[key] = invalid.get(key, 0) + 1
            if not remaining or all(invalid.get(_key(p), 0) >= max_attempts for p, _ in remaining):
                break
        summary.failed = len(remaining) if not summary.cancelled else 0
        if summary.failed:
            summary.last_error = _last_error(ws, run_id)
    except BaseException as exc:  # e.g. a local model, which loads at its first decode
        judge_stopped(ws, judge_model, run_id, pairs, exc)
        raise
    finally:
        backend.close()
    return summary


def judge_requests(items, rubric: Rubric, template: JudgeTemplate, samplers, spotlight=True):
    """The requests of one judging round: a verdict asked for each (pair, gate) item."""
    schema = verdict_schema(rubric)
    return [
        pair_prompt(template, rubric, pair, spotlight=spotlight).request(
            _key(pair), samplers[_key(pair)], schema
        )
        for pair, _ in items
    ]


def judge_plan(
    ws: Workspace,
    judge_model: dict,
    rubric: Rubric,
    *,
    template: JudgeTemplate | None = None,
    answer_run_ids: list[int] | None = None,
    schedule: dict | None = None,
) -> PlannedRun:
    """The first round of :func:`judge_answers` with these arguments, as a planned run (what
    the study-time planner calibrates on; nothing is opened or written)."""
    template = template or load_judge_template()
    sampler = default_judge_sampler(rubric)
    items = [
        (pair, gate)
        for pair in store.answer_pairs(ws, answer_run_ids)
        if (gate := check_answer(pair["dialect_answer"])).passed
    ]
    samplers = {_key(p): sampler for p, _ in items}
    return PlannedRun(
        store.JUDGE_KIND,
        judge_card(rubric, template, sampler, schedule),
        judge_requests(items, rubric, template, samplers),
    )


def finish_judge_run(ws: Workspace, run_id: int, *, primary: bool, review_threshold: int) -> dict:
    """The steps after a judge run, the same for ``upabhasha judge`` and the judge panel:
    make it the primary judge when asked, count its judgments waiting for human review
    (confidence at or below ``review_threshold``) and warn of self-preference (a judge of the
    same model or family as a model it judged)."""
    if primary:
        store.set_primary_judge(ws, run_id)
    return {
        "primary": store.primary_judge(ws) == run_id,
        "review_queue": store.review_queue_size(ws, run_id=run_id, threshold=review_threshold),
        "warnings": store.self_preference_warnings(ws, [run_id]),
    }


def _judge_round(
    ws,
    run_id,
    backend,
    items,
    rubric,
    template,
    samplers,
    summary,
    batch_size,
    progress,
    cancelled,
    exhausted=frozenset(),
    spotlight=True,
    check_sampler=None,
    max_attempts=3,
) -> tuple[list, list[str]]:
    """Ask for every item without a stored reply, except ``exhausted`` ones (out of
    attempts: they stay in the batch plan, but are not asked again); parse every stored
    reply; return the items still without a valid verdict and the keys whose reply was
    invalid this round (turned into errors, so a later call asks again)."""
    std_gates = {}
    requests = judge_requests(items, rubric, template, samplers, spotlight)
    variant_ids = {_key(pair): pair["variant_id"] for pair, _ in items}
    stopped: StepIncomplete | None = None
    try:
        job = run_job(
            ws,
            run_id,
            backend,
            requests,
            variant_ids=variant_ids,
            batch_size=batch_size,
            progress=progress,
            cancelled=cancelled,
            skip=set(exhausted),
        )
        summary.cancelled = job.cancelled
    except StepIncomplete as exc:
        # the model stopped mid-round (e.g. its worker died and did not load again): the
        # replies stored so far are judged below without decoding (their checks wait for
        # the next run), so the pairs reported left are the ones really left
        stopped = exc
    replies = finished_responses(ws, run_id)
    rows, invalid, remaining, invalid_keys, held = [], [], [], [], []
    judged = store.judged_response_ids(ws, run_id)
    for pair, gate in items:
        reply = replies.get(_key(pair))
        if reply is None:
            remaining.append((pair, gate))
            continue
        try:
            verdict = parse_verdict(reply["text"], rubric)
        except VerdictError as exc:
            invalid_keys.append(_key(pair))
            invalid.append((reply["id"], f"invalid verdict: {exc}"))
            remaining.append((pair, gate))
            continue
        if pair["standard_response_id"] not in std_gates:
            std_gates[pair["standard_response_id"]] = check_answer(pair["standard_answer"])
        scored = apply_rules(verdict, rubric, gate, std_gates[pair["standard_response_id"]])
        row = _row(pair, reply["id"], scored)
        row["flags"] = _join_flags(
            row["flags"],
            consistency_flags(
                scored.final, rubric.max_score, pair["dialect_answer"], pair["standard_answer"]
            ),
        )
        # judged pairs are checked again too (their replies are stored, nothing is decoded):
        # the check's batch plan stays a function of the verdicts, as the main one of the pairs
        stripped = None
        question = _question(pair)
        suspicious = bool(detect_injection(pair["dialect_answer"], question=question).suspicious)
        if disagreement.needs_check(
            row["flags"], scored.final, rubric.max_score, suspicious=suspicious
        ):
            high = disagreement.high_scoring(scored.final, rubric.max_score)
            stripped = disagreement.stripped_answer(
                pair["dialect_answer"], high_scoring=high, question=question
            )
        if stripped is None:
            rows.append(row)
        else:  # inserted once the second verdict is in (engine.judging.disagreement)
            held.append((pair, gate, std_gates[pair["standard_response_id"]], row, stripped))
    if held and stopped is None:
        try:
            ready, waiting, n_invalid = disagreement.run_checks(
                ws,
                run_id,
                backend,
                held,
                settled=judged,
                rubric=rubric,
                template=template,
                sampler=check_sampler or next(iter(samplers.values())),
                spotlight=spotlight,
                max_attempts=max_attempts,
                batch_size=batch_size,
                progress=progress,
                cancelled=cancelled,
            )
        except StepIncomplete as exc:  # as above: what needs no check is still stored
            stopped, ready, waiting, n_invalid = exc, [], [], 0
        rows += ready
        summary.checked += len(ready)
        summary.disagreements += sum(disagreement.DIFFERS in r["flags"] for r in ready)
        summary.invalid_replies += n_invalid
        waiting_ids = {p["dialect_response_id"] for p in waiting}
        remaining += [(p, g) for p, g in items if p["dialect_response_id"] in waiting_ids]
    summary.flagged += sum(bool(r["flags"]) and r["response_id"] not in judged for r in rows)
    if invalid:
        # an error state: the job engine asks again for error rows (raw reply kept in error)
        reject_responses(ws, invalid)
        summary.invalid_replies += len(invalid)
        log.warning("judge run %d: %d invalid replies, asking again", run_id, len(invalid))
    summary.judged_now += store.insert_judgments(ws, run_id, rows)
    if stopped is not None:
        raise stopped
    return remaining, invalid_keys


def _last_error(ws: Workspace, run_id: int) -> str | None:
    """Why the run's last failed item failed (its response's error), as the step reports it
    (not filtered by item: a ×10 study's failed keys would pass SQLite's variable limit)."""
    return ws.scalar(
        "SELECT error FROM responses WHERE run_id = ? AND status = 'error' "
        "ORDER BY id DESC LIMIT 1",
        (run_id,),
    )


def _key(pair: dict) -> str:
    return f"r{pair['dialect_response_id']}"


def pair_flags(pair: dict) -> list[str]:
    """Injection attempts in the dialect answer (or in the standard answer it is compared
    with), found before judging; any flag sends the judgment to human review."""
    question = _question(pair)
    return flag_labels(detect_injection(pair["dialect_answer"], question=question)) + flag_labels(
        detect_injection(pair["standard_answer"], question=question), "standard"
    )


def _question(pair: dict) -> str:
    """The question both answers respond to, in both forms (the detector reads whether it
    speaks of grading itself)."""
    return f"{pair['standard_question']}\n{pair['dialect_question']}"


def _join_flags(existing: str, more: list[str]) -> str:
    flags = [f for f in existing.split(",") if f] + [f for f in more if f]
    return ",".join(dict.fromkeys(flags))


def _row(pair: dict, judge_response_id: int | None, scored) -> dict:
    return {
        "flags": _join_flags("", pair_flags(pair)),
        "response_id": pair["dialect_response_id"],
        "standard_response_id": pair["standard_response_id"],
        "judge_response_id": judge_response_id,
        "gate": scored.gate,
        "reasoning": scored.reasoning,
        "scores": scored.scores,
        "confidence": scored.confidence,
        "final": scored.final,
    }
