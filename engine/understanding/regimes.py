"""Prompting regimes (paper 001): zero-shot, few-shot, chain-of-thought.

Few-shot demonstrations are drawn per query: ``k`` per dialect of the demonstration pool
(plus standard Bengali where the pool has standard items), resampled for every query with
a generator seeded by ``sha256(seed, item key)`` — the same item gets the same demonstrations
whatever else is in the run, and the run records each item's demonstration ids. The pool is
the **train split only**; the evaluated split may never be ``train``, and a candidate whose
input or reference equals the query's is skipped as well, so no evaluated item (nor a copy
of one under another id) can appear as a demonstration.

Constrained decoding (``constrained=True``) attaches a JSON schema to the request, so
format collapse can be measured with it off and removed with it on. Classification labels
become an ``enum``; free text gets a ``maxLength`` that fits in ``max_tokens``.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from string import Template

from engine.errors import UserError
from engine.llm.types import Message, Request, Sampler
from engine.text.textnorm import canonical_key
from engine.understanding.items import Item
from engine.understanding.task_spec import REGIMES, TaskSpec

DEMO_SPLIT = "train"
MAX_K = 16
# Base models continue with an invented next example; stop there.
STOP = ("\nSentence:",)
MAX_TOKENS = {"zero": 128, "few": 128, "cot": 512}
_TEXT_MAX_CHARS = 200


@dataclass(frozen=True)
class Shown:
    """One query as the model sees it: the input in its script and the demonstrations."""

    item: Item
    script: str  # "native" | "roman"
    input_text: str
    demos: tuple[Item, ...] = ()


def target_of(spec: TaskSpec, item: Item) -> str:
    """The expected answer: the first reference of the target field, or the label."""
    if spec.classification:
        return item.dialect if spec.labels_from == "dialects" else item.label
    refs = item.refs.get(spec.target) or []
    return refs[0] if refs else ""


def references(spec: TaskSpec, item: Item) -> list[str]:
    if spec.classification:
        return [target_of(spec, item)]
    return list(item.refs.get(spec.target) or [])


class DemoPool:
    """Train-split items with a usable answer, by dialect (sorted by key: reproducible), with
    their comparison keys computed once."""

    def __init__(self, spec: TaskSpec, items: Sequence[Item]):
        self.spec = spec
        self.by_dialect: dict[str, list[Item]] = {}
        self._index: dict[str, set[tuple[str, int]]] = {}  # comparison key -> (dialect, i)
        for item in items:
            if item.split == DEMO_SPLIT and target_of(spec, item):
                self.by_dialect.setdefault(item.dialect, []).append(item)
        for dialect, members in self.by_dialect.items():
            members.sort(key=lambda i: i.key)
            for n, item in enumerate(members):
                for key in self._keys(item):
                    self._index.setdefault(key, set()).add((dialect, n))

    def _keys(self, item: Item) -> set[str]:
        keys = {"id:" + item.key, "text:" + canonical_key(item.native)}
        if not self.spec.classification:
            keys |= {"ref:" + canonical_key(r) for r in references(self.spec, item)}
        return keys

    def __bool__(self) -> bool:
        return bool(self.by_dialect)

    def __len__(self) -> int:
        return sum(len(m) for m in self.by_dialect.values())

    def keys(self) -> list[str]:
        return sorted(i.key for m in self.by_dialect.values() for i in m)

    def excluded(self, query: Item) -> set[tuple[str, int]]:
        """Pool members sharing the query's id, input text or a reference."""
        found: set[tuple[str, int]] = set()
        for key in self._keys(query):
            found |= self._index.get(key, set())
        return found


def demo_pool(spec: TaskSpec, items: Sequence[Item]) -> DemoPool:
    return DemoPool(spec, items)


def item_rng(seed: int, key: str) -> random.Random:
    digest = hashlib.sha256(f"{seed}:{key}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def sample_demos(
    spec: TaskSpec, query: Item, pool: DemoPool, k: int, seed: int
) -> tuple[Item, ...]:
    """``k`` demonstrations per pool dialect for one query (see the module docstring)."""
    if query.split == DEMO_SPLIT:
        raise UserError("the evaluated items are in the train split, which feeds demonstrations")
    if k <= 0:
        return ()
    rng = item_rng(seed, query.key)
    excluded = pool.excluded(query)
    chosen: list[Item] = []
    for dialect in sorted(pool.by_dialect):
        members = pool.by_dialect[dialect]
        skip = {n for d, n in excluded if d == dialect}
        candidates = [m for n, m in enumerate(members) if n not in skip] if skip else members
        chosen += rng.sample(candidates, min(k, len(candidates)))
    rng.shuffle(chosen)
    return tuple(chosen)


def labels_for(spec: TaskSpec, items: Sequence[Item]) -> list[str]:
    if not spec.classification:
        return []
    if spec.labels:
        return list(spec.labels)
    found = {target_of(spec, i) for i in items} - {""}
    return sorted(found)


def build_prompt(
    spec: TaskSpec, regime: str, shown: Shown, labels: Sequence[str], roman: dict[str, str]
) -> str:
    """The prompt text; ``roman`` maps item key -> Romanized input (demos of a Romanized query
    are shown Romanized too)."""
    if regime not in REGIMES:
        raise UserError(f"unknown regime {regime!r} (known: {', '.join(REGIMES)})")
    values = {"input": shown.input_text, "labels": ", ".join(labels)}
    if regime == "few":
        blocks = []
        for demo in shown.demos:
            text = roman[demo.key] if shown.script == "roman" else demo.native
            output = target_of(spec, demo)
            if spec.output == "json":
                output = json.dumps(output, ensure_ascii=False)[1:-1]
            blocks.append(Template(spec.prompts["demo"]).substitute(input=text, output=output))
        values["demos"] = "\n\n".join(blocks)
    return Template(spec.prompts[regime]).substitute(values)


def sampler_for(regime: str, max_tokens: int | None = None) -> Sampler:
    return Sampler(temperature=0.0, max_tokens=max_tokens or MAX_TOKENS[regime], stop=STOP)


def json_schema_for(spec: TaskSpec, labels: Sequence[str]) -> dict:
    value: dict = (
        {"type": "string", "enum": list(labels)}
        if spec.classification
        else {"type": "string", "maxLength": _TEXT_MAX_CHARS}
    )
    return {
        "type": "object",
        "properties": {spec.answer_key: value},
        "required": [spec.answer_key],
        "additionalProperties": False,
    }


def build_request(
    spec: TaskSpec,
    regime: str,
    shown: Shown,
    labels: Sequence[str],
    roman: dict[str, str],
    sampler: Sampler,
    constrained: bool,
) -> Request:
    schema = json_schema_for(spec, labels) if constrained and spec.output == "json" else None
    return Request(
        key=shown.item.key,
        sampler=sampler,
        messages=(Message("user", build_prompt(spec, regime, shown, labels, roman)),),
        json_schema=schema,
    )
