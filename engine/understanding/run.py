"""Running a task: one resumable job per model × regime × script (run kind ``task:<name>``).

The run card holds what decides the outputs: the task file's sha256, regime, script and
Romanization scheme, k, seed, the demonstration pool's fingerprint, the label list, the
sampler and the constrained-decoding switch. Items are keyed by their source
(``pair<id>`` / ``item<id>``), so a re-run redoes nothing and a later call with a larger
``--limit`` or more dialects extends the same run — unless that changes a local model's
batches of decoded items, which opens a new run (:func:`engine.llm.runs.run.open_run`); what
each item was shown (input in its script, references, demonstration ids) is recorded in
``task_run_items`` before generation.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import logging
from collections.abc import Iterator, Sequence
from pathlib import Path

from engine.errors import Setting, UserError, setting
from engine.importing.stored_choice import scoring_normalization
from engine.llm.models.embedded_model import data_dir
from engine.llm.runs.model_runs import PlannedRun, RunSummary, run_models
from engine.llm.runs.run import note_in_card
from engine.llm.types import CancelFn, ProgressFn
from engine.stats.sample import stratified_order as seeded_order
from engine.understanding import regimes as rg
from engine.understanding.items import Item, label_names, load_items
from engine.understanding.scripts import DEFAULT_SCHEME, romanize
from engine.understanding.task_spec import REGIMES, TaskSpec
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)

TASK_KIND_PREFIX = "task:"
SCRIPTS = ("native", "roman")


def user_task_dir() -> Path:
    """The folder of the user's own task files (next to the built-in ones): the one both
    front ends read tasks from."""
    return data_dir() / "tasks"


def _pick_items(
    spec: TaskSpec,
    items: list[Item],
    split: str,
    limit: int | None,
    seed: int = 0,
) -> list[Item]:
    """Evaluated items: the split, with a usable target; ``limit`` per dialect as a seeded
    sample stratified by label (:func:`stratified_order`), never the file's first rows."""
    if split == rg.DEMO_SPLIT:
        raise UserError(
            "the train split feeds few-shot demonstrations; evaluate test or validation"
        )
    chosen: dict[str, list[Item]] = {}
    for item in items:
        if item.split == split and rg.target_of(spec, item):
            chosen.setdefault(item.dialect, []).append(item)
    if not chosen:
        usable = sorted({i.split for i in items if rg.target_of(spec, i)} - {rg.DEMO_SPLIT})
        raise UserError(
            f"no items in split {split!r} with a {spec.target or 'label'} for {spec.name}"
            + (
                f" (splits with items: {', '.join(usable)}; {setting(Setting.SPLIT)})"
                if usable
                else ""
            )
        )
    out = []
    for dialect in sorted(chosen):
        mine = chosen[dialect]
        if limit:
            strata = (lambda i: rg.target_of(spec, i)) if spec.classification else None
            mine = stratified_order(mine, seed, strata)[:limit]
        out += mine
    return out


def stratified_order(items: list[Item], seed: int, stratum=None) -> list[Item]:
    """The seeded stratified order of :func:`engine.stats.sample.stratified_order`, keyed by
    the item's key; a file sorted by label gives every label its share."""
    return seeded_order(items, seed, lambda i: i.key, stratum)


def draw_train(items: list[Item], per_dialect: int, seed: int, split: str) -> list[Item]:
    """A seeded train split drawn from ``split``'s items, for a set that has none: the
    first ``per_dialect`` of each dialect in :func:`stratified_order` become train items
    (demonstrations), so they are no longer evaluated."""
    drawn: set[str] = set()
    for dialect in sorted({i.dialect for i in items}):
        mine = [i for i in items if i.dialect == dialect and i.split == split]
        drawn |= {i.key for i in stratified_order(mine, seed)[:per_dialect]}
    return [dataclasses.replace(i, split=rg.DEMO_SPLIT) if i.key in drawn else i for i in items]


def sample_summary(spec: TaskSpec, evaluated: list[Item], limit: int | None, seed: int) -> dict:
    """What the run card records of the sample: seed, strata and counts per dialect/label."""
    counts: dict[str, dict[str, int]] = {}
    for item in evaluated:
        label = rg.target_of(spec, item) if spec.classification else "all"
        row = counts.setdefault(item.dialect, {})
        row[label] = row.get(label, 0) + 1
    return {
        "limit": limit,
        "seed": seed,
        "strata": "dialect x label" if spec.classification else "dialect",
        "counts": counts,
    }


def _fingerprint(pool: rg.DemoPool) -> str:
    keys = pool.keys()
    return hashlib.sha256(",".join(keys).encode()).hexdigest()[:16]


def run_task(
    ws: Workspace,
    spec: TaskSpec,
    model_rows: Sequence[dict],
    *,
    source: str = "pairs",
    regimes: Sequence[str] = ("zero",),
    scripts: Sequence[str] = ("native",),
    dialects: Sequence[str] | None = None,
    split: str = "validation",
    k: int = 6,
    limit: int | None = None,
    seed: int = 0,
    draw_train_per_dialect: int | None = None,
    scheme: str = DEFAULT_SCHEME,
    constrained: bool = False,
    normalize: str | None = None,
    max_tokens: int | None = None,
    backend_factory=None,
    batch_size: int = 8,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> list[RunSummary]:
    bad = [r for r in regimes if r not in REGIMES] + [s for s in scripts if s not in SCRIPTS]
    if bad:
        raise UserError(
            f"unknown regime or script {bad[0]!r} (regimes: {', '.join(REGIMES)}; "
            f"scripts: {', '.join(SCRIPTS)})"
        )
    kind = source.split(":", 1)[0]
    if kind not in spec.sources:
        raise UserError(f"task {spec.name} takes items from {', '.join(spec.sources)}, not {kind}")
    # what the metrics score: the source's stored choice unless another is asked for
    normalize, normalize_notes = scoring_normalization(ws, source, None, normalize)
    if not 0 <= k <= rg.MAX_K:
        raise UserError(f"k must be 0..{rg.MAX_K}")
    unknown = set(dialects or ()) - ws.dialect_codes()
    if unknown:
        raise UserError(f"unknown dialect {sorted(unknown)[0]!r}")
    all_items = load_items(ws, source, list(dialects) if dialects else None)
    train_draw = None
    if draw_train_per_dialect:
        if any(i.split == rg.DEMO_SPLIT for i in all_items):
            raise UserError(f"{source} has train-split items: use them, draw none")
        all_items = draw_train(all_items, draw_train_per_dialect, seed, split)
        train_draw = {"per_dialect": draw_train_per_dialect, "seed": seed, "from": split}
    evaluated = _pick_items(spec, all_items, split, limit, seed)
    pool = rg.demo_pool(spec, all_items if "few" in regimes else [])
    if "few" in regimes and k and not pool:
        raise UserError(
            f"few-shot needs train-split items in {source}; none found (draw a seeded "
            f"train split from the {split} items, or run zero-shot)"
        )
    labels = rg.labels_for(spec, evaluated if spec.labels_from == "dialects" else all_items)
    names = label_names(ws, source) if spec.classification else {}
    if spec.classification and len(labels) < 2:
        raise UserError(f"{spec.name}: fewer than two labels among the items ({labels})")
    demos = {i.key: rg.sample_demos(spec, i, pool, k, seed) for i in evaluated} if pool else {}
    used = {d.key: d for ds in demos.values() for d in ds}
    roman = _romanized(evaluated + list(used.values()), scheme, scripts)
    task_sha = hashlib.sha256(Path(spec.path).read_bytes()).hexdigest() if spec.path else ""

    sample = sample_summary(spec, evaluated, limit, seed)

    def plan(model: dict) -> Iterator[PlannedRun]:
        for regime in regimes:
            for script in scripts:
                sampler = rg.sampler_for(regime, max_tokens)
                card = {
                    "task": spec.name,
                    "task_sha256": task_sha,
                    "source": source,
                    "split": split,
                    "regime": regime,
                    "script": script,
                    "scheme": scheme if script == "roman" else None,
                    "k": k if regime == "few" else 0,
                    "seed": seed,
                    "demo_split": rg.DEMO_SPLIT if regime == "few" else None,
                    "demo_pool": _fingerprint(pool) if regime == "few" else None,
                    # a drawn train split changes what is evaluated: every card records it
                    **({"train_draw": train_draw} if train_draw else {}),
                    "labels": labels,
                    "label_names": names,  # stored label -> the name the prompt used
                    "sampler": sampler.as_dict(),
                    "constrained": constrained,
                    "normalize": normalize,  # what task-stats scores (engine.text.textnorm)
                    "chat": "user message",
                }
                shown = [
                    rg.Shown(
                        item=item,
                        script=script,
                        input_text=roman[item.key] if script == "roman" else item.native,
                        demos=demos.get(item.key, ()) if regime == "few" else (),
                    )
                    for item in evaluated
                ]
                yield PlannedRun(
                    TASK_KIND_PREFIX + spec.name,
                    card,
                    [
                        rg.build_request(spec, regime, s, labels, roman, sampler, constrained)
                        for s in shown
                    ],
                    label=f"{spec.name} · {regime} · {script}",
                    summary={"regime": regime, "script": script, "k": card["k"]},
                    before_job=functools.partial(
                        _record, ws, spec=spec, shown=shown, sample=sample, notes=normalize_notes
                    ),
                )

    return run_models(
        ws,
        model_rows,
        plan,
        backend_factory=backend_factory,
        batch_size=batch_size,
        progress=progress,
        cancelled=cancelled,
        # one bar for the whole job: a cancel stops it at its real fraction
        total_items=len(model_rows) * len(regimes) * len(scripts) * len(evaluated),
    )


def _romanized(items: list[Item], scheme: str, scripts: Sequence[str]) -> dict[str, str]:
    """Item key -> Romanized text: the dataset's own when it has one, else ``scheme``."""
    if "roman" not in scripts:
        return {}
    out = {i.key: i.roman for i in items if i.roman}
    missing = [i for i in items if not i.roman]
    for item, text in zip(missing, romanize([i.native for i in missing], scheme)):
        out[item.key] = text
    return out


def _record(
    ws: Workspace,
    run_id: int,
    spec: TaskSpec,
    shown: list[rg.Shown],
    sample: dict,
    notes: list[str],
) -> None:
    # The sample and the normalisation notes go into the stored card, outside the run key,
    # so a larger limit still extends the same run; the card shows the latest of each.
    note_in_card(ws, run_id, "sample", sample)
    note_in_card(ws, run_id, "normalize_notes", notes)
    rows = [
        (
            run_id,
            s.item.key,
            s.item.source_id,
            s.item.dialect,
            s.script,
            s.input_text,
            s.item.native,
            json.dumps(rg.references(spec, s.item), ensure_ascii=False),
            rg.target_of(spec, s.item) if spec.classification else "",
            json.dumps([d.key for d in s.demos]),
        )
        for s in shown
    ]
    with ws.transaction() as conn:
        conn.executemany(
            "INSERT INTO task_run_items(run_id, item_key, source_id, dialect, script, input_text, "
            "native_text, refs, label, demo_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(run_id, item_key) DO NOTHING",
            rows,
        )
