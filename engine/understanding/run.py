"""Running a task: one resumable job per model × regime × script (run kind ``task:<name>``).

The run card holds what decides the outputs: the task file's sha256, regime, script and
Romanization scheme, k, seed, the demonstration pool's fingerprint, the label list, the
sampler and the constrained-decoding switch. Items are keyed by their source
(``pair<id>`` / ``item<id>``), so a later call with a larger ``--limit`` or more dialects
extends the same run and a re-run redoes nothing; what each item was shown (input in its
script, references, demonstration ids) is recorded in ``task_run_items`` before generation.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from pathlib import Path

from engine.errors import UserError
from engine.llm.types import Backend, CancelFn, JobProgress, ProgressFn
from engine.understanding import regimes as rg
from engine.understanding.items import Item, load_items
from engine.understanding.scripts import DEFAULT_SCHEME, romanize
from engine.understanding.task_spec import REGIMES, TaskSpec
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)

TASK_KIND_PREFIX = "task:"
SCRIPTS = ("native", "roman")


def _pick_items(
    spec: TaskSpec,
    items: list[Item],
    split: str,
    limit: int | None,
) -> list[Item]:
    """Evaluated items: the split, with a usable target, ``limit`` per dialect (by key)."""
    if split == rg.DEMO_SPLIT:
        raise UserError(
            "the train split feeds few-shot demonstrations; evaluate test or validation"
        )
    chosen: dict[str, list[Item]] = {}
    for item in items:
        if item.split == split and rg.target_of(spec, item):
            chosen.setdefault(item.dialect, []).append(item)
    if not chosen:
        raise UserError(
            f"no items in split {split!r} with a {spec.target or 'label'} for {spec.name}"
        )
    out = []
    for dialect in sorted(chosen):
        out += chosen[dialect][:limit] if limit else chosen[dialect]
    return out


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
    scheme: str = DEFAULT_SCHEME,
    constrained: bool = False,
    max_tokens: int | None = None,
    backend_factory=None,
    batch_size: int = 8,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> list[dict]:
    from engine.llm.jobs import backend_for_run, open_run, run_job

    bad = [r for r in regimes if r not in REGIMES] + [s for s in scripts if s not in SCRIPTS]
    if bad:
        raise UserError(
            f"unknown regime or script {bad[0]!r} (regimes: {', '.join(REGIMES)}; "
            f"scripts: {', '.join(SCRIPTS)})"
        )
    kind = source.split(":", 1)[0]
    if kind not in spec.sources:
        raise UserError(f"task {spec.name} takes items from {', '.join(spec.sources)}, not {kind}")
    if not 0 <= k <= rg.MAX_K:
        raise UserError(f"k must be 0..{rg.MAX_K}")
    unknown = set(dialects or ()) - ws.dialect_codes()
    if unknown:
        raise UserError(f"unknown dialect {sorted(unknown)[0]!r}")
    all_items = load_items(ws, source, list(dialects) if dialects else None)
    evaluated = _pick_items(spec, all_items, split, limit)
    pool = rg.demo_pool(spec, all_items if "few" in regimes else [])
    if "few" in regimes and k and not pool:
        raise UserError(f"few-shot needs train-split items in {source}; none found")
    labels = rg.labels_for(spec, evaluated if spec.labels_from == "dialects" else all_items)
    if spec.classification and len(labels) < 2:
        raise UserError(f"{spec.name}: fewer than two labels among the items ({labels})")
    demos = {i.key: rg.sample_demos(spec, i, pool, k, seed) for i in evaluated} if pool else {}
    used = {d.key: d for ds in demos.values() for d in ds}
    roman = _romanized(evaluated + list(used.values()), scheme, scripts)
    task_sha = hashlib.sha256(Path(spec.path).read_bytes()).hexdigest() if spec.path else ""
    summaries: list[dict] = []
    # one bar for the whole job: a cancel stops it at its real fraction
    job = JobProgress(progress, len(model_rows) * len(regimes) * len(scripts) * len(evaluated))
    for model in model_rows:
        for regime in regimes:
            for script in scripts:
                if cancelled and cancelled():
                    return summaries
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
                    "labels": labels,
                    "sampler": sampler.as_dict(),
                    "constrained": constrained,
                    "chat": "user message",
                }
                run_id = open_run(ws, TASK_KIND_PREFIX + spec.name, model, card)
                shown = [
                    rg.Shown(
                        item=item,
                        script=script,
                        input_text=roman[item.key] if script == "roman" else item.native,
                        demos=demos.get(item.key, ()) if regime == "few" else (),
                    )
                    for item in evaluated
                ]
                _record(ws, run_id, spec, shown)
                requests = [
                    rg.build_request(spec, regime, s, labels, roman, sampler, constrained)
                    for s in shown
                ]
                backend: Backend = (backend_factory or backend_for_run)(ws, run_id)
                label = f"{model['name']} · {spec.name} · {regime} · {script}"
                try:
                    result = run_job(
                        ws,
                        run_id,
                        backend,
                        requests,
                        batch_size=batch_size,
                        cancelled=cancelled,
                        progress=job.step(label),
                    )
                finally:
                    backend.close()
                summaries.append(
                    {
                        "model": model["name"],
                        "run_id": run_id,
                        "regime": regime,
                        "script": script,
                        "k": card["k"],
                        **result.counts(),
                    }
                )
                if result.cancelled:
                    return summaries
    return summaries


def _romanized(items: list[Item], scheme: str, scripts: Sequence[str]) -> dict[str, str]:
    """Item key -> Romanized text: the dataset's own when it has one, else ``scheme``."""
    if "roman" not in scripts:
        return {}
    out = {i.key: i.roman for i in items if i.roman}
    missing = [i for i in items if not i.roman]
    for item, text in zip(missing, romanize([i.native for i in missing], scheme)):
        out[item.key] = text
    return out


def _record(ws: Workspace, run_id: int, spec: TaskSpec, shown: list[rg.Shown]) -> None:
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
