"""A dialect-balanced fine-tuning fold for external trainers (paper 001 §5: 160 train / 40
test per dialect), as chat-format JSONL.

Items come from the source's train split only (the evaluated splits are never exported) and
exclude every item that any task run on the same source has shown — as an evaluated item or
as a few-shot demonstration — so the fold is disjoint from every prompting subset. The
choice is seeded and balanced per dialect; a dialect with too few items is refused by name.
Each line: ``{"messages": [user: the task's zero-shot prompt, assistant: the answer in the
task's output format], "fold": "train"|"test", "dialect", "item"}``. The file is written
to a temporary name and renamed, so a failure leaves no half-written fold.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

from engine.errors import UserError
from engine.understanding import regimes as rg
from engine.understanding.items import load_items
from engine.understanding.task_spec import TaskSpec
from engine.workspace.store import Workspace


def used_item_keys(ws: Workspace, source: str) -> set[str]:
    """Item keys shown by any task run on ``source`` (evaluated or as demonstrations)."""
    used: set[str] = set()
    for run in ws.query("SELECT id, card FROM runs WHERE kind LIKE 'task:%'"):
        if json.loads(run["card"]).get("source") != source:
            continue
        for row in ws.query(
            "SELECT item_key, demo_ids FROM task_run_items WHERE run_id = ?", (run["id"],)
        ):
            used.add(row["item_key"])
            used.update(json.loads(row["demo_ids"]))
    return used


def export_fold(
    ws: Workspace,
    spec: TaskSpec,
    out: str | Path,
    *,
    source: str = "pairs",
    train_per_dialect: int = 160,
    test_per_dialect: int = 40,
    dialects: list[str] | None = None,
    seed: int = 0,
) -> dict:
    if train_per_dialect < 1 or test_per_dialect < 0:
        raise UserError("the fold needs at least 1 train item per dialect and >= 0 test items")
    items = load_items(ws, source, dialects)
    used = used_item_keys(ws, source)
    pool: dict[str, list] = {}
    for item in items:
        if item.split == rg.DEMO_SPLIT and item.key not in used and rg.target_of(spec, item):
            pool.setdefault(item.dialect, []).append(item)
    if not pool:
        raise UserError(f"no unused train-split items with a target in {source}")
    labels = rg.labels_for(spec, items)
    need = train_per_dialect + test_per_dialect
    short = {d: len(v) for d, v in pool.items() if len(v) < need}
    if short:
        d, n = sorted(short.items())[0]
        raise UserError(
            f"dialect {d} has {n} unused train items; the fold needs {need} per dialect "
            f"({train_per_dialect} train + {test_per_dialect} test)"
        )
    lines, counts = [], {}
    for dialect in sorted(pool):
        members = sorted(pool[dialect], key=lambda i: i.key)
        random.Random(f"{seed}:{dialect}").shuffle(members)
        for n, item in enumerate(members[:need]):
            shown = rg.Shown(item, "native", item.native)
            answer = rg.target_of(spec, item)
            if spec.output == "json":
                answer = json.dumps({spec.answer_key: answer}, ensure_ascii=False)
            lines.append(
                {
                    "messages": [
                        {
                            "role": "user",
                            "content": rg.build_prompt(spec, "zero", shown, labels, {}),
                        },
                        {"role": "assistant", "content": answer},
                    ],
                    "fold": "train" if n < train_per_dialect else "test",
                    "dialect": dialect,
                    "item": item.key,
                }
            )
        counts[dialect] = {"train": train_per_dialect, "test": test_per_dialect}
    out = Path(out)
    tmp = out.with_name(out.name + ".part")
    with tmp.open("w", encoding="utf-8") as fh:
        for line in lines:
            fh.write(json.dumps(line, ensure_ascii=False) + "\n")
    os.replace(tmp, out)
    return {
        "task": spec.name,
        "source": source,
        "path": str(out),
        "lines": len(lines),
        "per_dialect": counts,
        "excluded_as_prompted": len(used),
        "seed": seed,
    }
