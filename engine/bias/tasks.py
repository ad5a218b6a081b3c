"""Background tasks of the Social bias panel (Qt-free): plain inputs, own connection.

:func:`bias_view` reads everything the panel shows (statistics, replies for drill-down, the
unmapped replies and the normalisation table); :func:`probe_task` runs probes on one model;
:func:`map_task` edits the normalisation table.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from engine.bias.normalise import load_table, map_phrase
from engine.bias.results import bias_statistics, classified_replies, unmapped_replies
from engine.bias.run import DEFAULT_SAMPLER, ProbeOptions, load_instruction, run_probes
from engine.llm.types import CancelFn, ProgressFn
from engine.workspace.store import Workspace


def bias_view(path: str | Path, rule: str = "limit", resamples: int = 1000) -> dict:
    with Workspace(path, create=False) as ws:
        table = load_table(ws)
        stats = bias_statistics(ws, rule=rule, resamples=resamples)
        replies = [dataclasses.asdict(r) for r in classified_replies(ws, table)]
        topics = sorted({r["topic"] for r in ws.query("SELECT topic FROM probe_sets")})
        return {
            "stats": stats,
            "replies": replies,
            "unmapped": unmapped_replies(ws, limit=500),
            "table": table.rows(),
            "version": table.version,
            "topics": topics,
            "models": ws.query("SELECT id, name FROM models ORDER BY id"),
            "sets": ws.query(
                "SELECT name, topic, group_x, group_y, dialect FROM probe_sets ORDER BY id"
            ),
            "responses": ws.scalar("SELECT count(*) FROM responses"),
        }


def probe_task(
    path: str | Path,
    model_id: int,
    set_names: list[str] | None,
    *,
    limit: int | None = None,
    counterbalance: bool = False,
    constrained: bool = False,
    seed: int = 0,
    progress: ProgressFn | None = None,
    cancelled: CancelFn | None = None,
) -> list[dict]:
    with Workspace(path, create=False) as ws:
        model = ws.query("SELECT * FROM models WHERE id = ?", (model_id,))
        options = ProbeOptions(
            seed, counterbalance, constrained, DEFAULT_SAMPLER, load_instruction()
        )
        return run_probes(
            ws,
            model,
            set_names,
            options=options,
            limit=limit,
            progress=progress,
            cancelled=cancelled,
        )


def map_task(path: str | Path, topic: str, phrase: str, label: str, author: str = "") -> dict:
    with Workspace(path, create=False) as ws:
        return map_phrase(ws, topic, phrase, label, author)
