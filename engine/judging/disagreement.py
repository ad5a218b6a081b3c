"""The disagreement check: evidence, not only words.

A flagged or suspicious dialect answer (:class:`~engine.judging.injection.detect.InjectionReport`:
weak evidence — rules the model did not confirm, or the model alone — does not flag but
sends the answer here), or one the judge scored near the top, is judged a second time with
its suspicious sentences removed: the sentences that trip an injection rule on their own,
and — when the rest is still flagged or suspicious (an order split across sentences) or the
score is high — every sentence that speaks of grading, scores, rules or the judge. If the
two verdicts differ by :data:`DISAGREEMENT_SHARE` of the scale or more (2 points on 0–10),
the score was carried by those sentences rather than by the answer, and the judgment is
flagged ``disagreement:stripped-verdict-differs`` (human review). A stripped verdict that
stays invalid after every attempt is flagged ``disagreement:recheck-failed``: unverified,
so a person looks too. An answer with nothing to remove is not judged again (the prompt
would be the same).

The second verdicts are ordinary replies of the same judge run, under the item key
``r<response id>:stripped``, written by the job engine; the judgment row, with its flags,
is inserted only once its check is done, so a kill between the two verdicts resumes with
the check.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from engine.judging.consistency import HIGH_SCORE_SHARE
from engine.judging.gate import GateResult
from engine.judging.injection.detect import detect_injection
from engine.judging.injection.phrases import talks_of_grading
from engine.judging.injection.rules import rule_hits
from engine.judging.injection.text import matching_form, sentences
from engine.judging.prompt import JudgeTemplate, pair_prompt
from engine.judging.rubric import Rubric
from engine.judging.verdict import VerdictError, apply_rules, parse_verdict, verdict_schema
from engine.llm.runs.jobs import run_job
from engine.llm.runs.responses import reject_responses
from engine.llm.types import Sampler
from engine.text.textnorm import normalize_text

log = logging.getLogger(__name__)

DISAGREEMENT_SHARE = 0.2  # |final - stripped final| >= this share of the scale: review
DIFFERS = "disagreement:stripped-verdict-differs"
FAILED = "disagreement:recheck-failed"
RETRY_TEMPERATURE = 0.7


def check_card() -> dict:
    """What the check depends on (part of the judge run's card)."""
    return {"share": DISAGREEMENT_SHARE, "high_score_share": HIGH_SCORE_SHARE}


def stripped_answer(text: str, *, high_scoring: bool, question: str = "") -> str | None:
    """``text`` without its suspicious sentences (see the module docstring); ``None`` when
    there is nothing to remove. ``question``: the one it answers, read as the detector
    reads it (:func:`~engine.judging.injection.detect.detect_injection`)."""
    parts = [s for line in (text or "").splitlines() for s in sentences(normalize_text(line))]
    read = [matching_form(p) for p in parts]
    bad: set[int] = set()
    # a sentence that trips a rule alone trips it in the whole text: the per-sentence pass
    # (a few ms a sentence) is only needed for a flagged or suspicious answer
    report = detect_injection(text, question=question)
    if report.flagged or report.suspicious:
        bad = {
            i
            for i, p in enumerate(read)
            if rule_hits(p)[0] or detect_injection(p, question=question).flagged
        }
        rest = " ".join(p for i, p in enumerate(parts) if i not in bad)
        rest_report = detect_injection(rest, question=question)
        # evidence read across sentences (a split order, the model's sentence windows) is
        # not all in the sentences above: the grading talk around them goes too
        across = {"split-order", "model"} & {*report.reasons, *report.suspicious}
        if high_scoring or across or rest_report.flagged or rest_report.suspicious:
            bad |= {i for i, p in enumerate(read) if talks_of_grading(p)}
    elif high_scoring:
        bad = {i for i, p in enumerate(read) if talks_of_grading(p)}
    if not bad:
        return None
    return " ".join(p for i, p in enumerate(parts) if i not in bad)


def high_scoring(final: float | None, max_score: float) -> bool:
    """A score at or above the near-perfect share of the scale."""
    return final is not None and final >= HIGH_SCORE_SHARE * max_score


def needs_check(
    flags: str, final: float | None, max_score: float, *, suspicious: bool = False
) -> bool:
    """A flagged judgment, a high-scoring one, or one whose answer is suspicious."""
    return bool(flags) or suspicious or high_scoring(final, max_score)


def differs(final: float, stripped_final: float, max_score: float) -> bool:
    return abs(final - stripped_final) >= DISAGREEMENT_SHARE * max_score - 1e-9


def check_key(pair: dict) -> str:
    return f"r{pair['dialect_response_id']}:stripped"


def run_checks(
    ws,
    run_id: int,
    backend,
    held: list[tuple[dict, GateResult, GateResult, dict, str]],
    *,
    settled: set[int],
    rubric: Rubric,
    template: JudgeTemplate,
    sampler: Sampler,
    spotlight: bool,
    max_attempts: int,
    batch_size: int,
    progress=None,
    cancelled=None,
) -> tuple[list[dict], list[dict], int]:
    """Judge each held ``(pair, gate, standard gate, row, stripped answer)`` again and add
    the check's flag to its row. Pairs whose response id is ``settled`` (judged already)
    keep their place in the batch plan but are not asked again. Returns (rows ready to
    insert, pairs still without a stripped verdict — no reply yet, asked again on the next
    call — and the number of invalid replies)."""
    schema = verdict_schema(rubric)
    prompts = {
        check_key(pair): pair_prompt(
            template, rubric, pair, spotlight=spotlight, dialect_answer=stripped
        )
        for pair, _g, _s, _r, stripped in held
    }
    variant_ids = {check_key(pair): pair["variant_id"] for pair, *_ in held}
    waiting = {
        check_key(item[0]): item for item in held if item[0]["dialect_response_id"] not in settled
    }
    ready, invalid_total = [], 0
    attempts: dict[str, int] = {}
    for _round in range(max_attempts + 2):
        if not waiting or (cancelled and cancelled()):
            break
        requests = [
            prompts[key].request(key, retry_sampler(sampler, attempts.get(key, 0)), schema)
            for key in prompts
        ]
        exhausted = {k for k, n in attempts.items() if n >= max_attempts}
        run_job(
            ws,
            run_id,
            backend,
            requests,
            variant_ids=variant_ids,
            batch_size=batch_size,
            progress=progress,
            cancelled=cancelled,
            skip=exhausted | (set(prompts) - set(waiting)),
        )
        replies = _replies(ws, run_id, list(waiting))
        rejected = []
        for key, (pair, gate, std_gate, row, _stripped) in list(waiting.items()):
            reply = replies.get(key)
            if reply is None:
                if key in exhausted:  # out of attempts: unverified, a person looks
                    ready.append(_flagged(row, FAILED))
                    del waiting[key]
                continue
            try:
                verdict = parse_verdict(reply["text"], rubric)
            except VerdictError as exc:
                attempts[key] = attempts.get(key, 0) + 1
                rejected.append((reply["id"], f"invalid verdict: {exc}"))
                continue
            stripped_final = apply_rules(verdict, rubric, gate, std_gate).final
            if differs(row["final"], stripped_final, rubric.max_score):
                log.info(
                    "judge run %d: %s scored %.1f, %.1f without its suspicious sentences",
                    run_id,
                    key,
                    row["final"],
                    stripped_final,
                )
                row = _flagged(row, DIFFERS)
            ready.append(row)
            del waiting[key]
        if rejected:
            reject_responses(ws, rejected)
            invalid_total += len(rejected)
        if all(k in exhausted for k in waiting):
            for key in list(waiting):
                ready.append(_flagged(waiting.pop(key)[3], FAILED))
    return ready, [item[0] for item in waiting.values()], invalid_total


def _replies(ws, run_id: int, keys: list[str]) -> dict[str, dict]:
    if not keys:
        return {}
    rows = ws.query(
        f"SELECT id, item_key, text FROM responses WHERE run_id = ? AND status = 'done' "
        f"AND item_key IN ({','.join('?' * len(keys))})",
        (run_id, *keys),
    )
    return {r["item_key"]: r for r in rows}


def retry_sampler(sampler: Sampler, invalid_replies: int) -> Sampler:
    """The sampler for an item asked again after ``invalid_replies`` invalid verdicts:
    sampling seeded by that number (a greedy retry would repeat the same reply)."""
    if invalid_replies == 0:
        return sampler
    return replace(
        sampler,
        temperature=max(sampler.temperature, RETRY_TEMPERATURE),
        seed=sampler.seed + invalid_replies,
    )


def _flagged(row: dict, flag: str) -> dict:
    flags = [f for f in row["flags"].split(",") if f] + [flag]
    return row | {"flags": ",".join(dict.fromkeys(flags))}
