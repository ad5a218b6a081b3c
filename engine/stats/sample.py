"""The seeded stratified sample every ``--limit`` draws (tasks, probes, translation
evaluation), never a file's first rows: a file sorted by label or category would otherwise
hand a small run one label only."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def item_rng(seed: int, key: str) -> random.Random:
    """A generator fixed by the seed and an item's stable key, the same in any workspace."""
    digest = hashlib.sha256(f"{seed}:{key}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def stratified_order(
    items: Sequence[T],
    seed: int,
    key: Callable[[T], str],
    stratum: Callable[[T], str] | None = None,
) -> list[T]:
    """The items in a seeded order whose every prefix is a proportional stratified sample:
    within a stratum by ``sha256(seed, key)``; across strata, each next item comes from the
    stratum furthest below its share. A larger limit so takes a superset (a run is
    extended, nothing redone)."""
    groups: dict[str, list[T]] = {}
    for item in items:
        groups.setdefault(stratum(item) if stratum else "", []).append(item)
    for name in groups:
        groups[name].sort(key=lambda i: item_rng(seed, key(i)).random())
    total, taken = len(items), dict.fromkeys(groups, 0)
    order: list[T] = []
    for step in range(1, total + 1):
        open_ = [g for g in sorted(groups) if taken[g] < len(groups[g])]
        best = max(open_, key=lambda g: step * len(groups[g]) / total - taken[g])
        order.append(groups[best][taken[best]])
        taken[best] += 1
    return order


def sample_counts(items: Sequence[T], stratum: Callable[[T], tuple[str, str]]) -> dict:
    """{outer: {inner: count}} of a drawn sample, for the run card."""
    counts: dict[str, dict[str, int]] = {}
    for item in items:
        outer, inner = stratum(item)
        row = counts.setdefault(outer, {})
        row[inner] = row.get(inner, 0) + 1
    return counts
