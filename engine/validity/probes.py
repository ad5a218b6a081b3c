"""The judge prompts of a suite: for each sampled item, one request per check, keyed
``<check>:r<dialect response id>``, built by the judge run's own prompt builder with its
rubric, template, spotlighting, sampler and verdict schema."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from engine.judging.prompt import JudgeTemplate, pair_prompt
from engine.judging.rubric import Rubric
from engine.judging.verdict import verdict_schema
from engine.llm.types import Request, Sampler
from engine.validity import checks
from engine.validity.sample import Item, other_answer


@dataclass
class Probes:
    """The requests to decode, which item and check each asks, and per check the items
    whose change reached the judge as the very same prompt (not asked)."""

    requests: list[Request] = field(default_factory=list)
    asked: dict[str, tuple[str, Item]] = field(default_factory=dict)  # key -> (check, item)
    same_prompt: dict[tuple[str, str], int] = field(default_factory=dict)  # (dialect, check)
    order_swappable: bool = True


def probe_key(check: str, item: Item) -> str:
    return f"{check}:r{item.response_id}"


def build_probes(
    items: list[Item],
    pool: list[Item],
    *,
    rubric: Rubric,
    template: JudgeTemplate,
    sampler: Sampler,
    spotlight: bool,
    seed: int,
    romanize=None,
) -> Probes:
    """Every check's request for ``items``; ``pool``: the judged items other answers are
    drawn from; ``romanize``: texts -> Roman script, where the study has Romanized texts."""
    schema = verdict_schema(rubric)
    swapped = checks.swapped_template(template)
    retest_sampler = dataclasses.replace(sampler, seed=seed)
    out = Probes(order_swappable=swapped is not None)

    def ask(check: str, item: Item, prompt, with_sampler: Sampler = sampler) -> None:
        key = probe_key(check, item)
        out.requests.append(prompt.request(key, with_sampler, schema))
        out.asked[key] = (check, item)

    for item in items:
        pair = item.pair
        base = pair_prompt(template, rubric, pair, spotlight=spotlight)
        if swapped is not None:
            ask(checks.ORDER, item, pair_prompt(swapped, rubric, pair, spotlight=spotlight))
        ask(checks.RETEST, item, base, retest_sampler)
        answer = str(pair["dialect_answer"])
        changed: dict[str, str | None] = {
            name: checks.TEXT_CHANGES[name](answer) for name in checks.INVARIANCE_CHECKS
        }
        if romanize is not None:
            changed[checks.ROMANIZED] = romanize([answer])[0]
        changed["other_answer"] = other_answer(pool, item, seed)
        changed["emptied"] = checks.emptied(answer)
        for check, text in changed.items():
            if text is None:
                continue
            prompt = pair_prompt(template, rubric, pair, spotlight=spotlight, dialect_answer=text)
            if prompt.user == base.user:
                where = (item.dialect, check)
                out.same_prompt[where] = out.same_prompt.get(where, 0) + 1
            else:
                ask(check, item, prompt)
    return out
