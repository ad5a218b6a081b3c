"""What a run decoded together, kept so a result can be decoded again exactly as it was.

For every finished item the job records its *group* (``llm_item_groups``: the group key and
its position) and each group's full request list once (``llm_groups``). A group is what
one backend call decoded together: for a local model the plan's group of ``n_seq`` items,
for an endpoint the item alone. :mod:`engine.llm.runs.replicate` reads them back.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sqlite3

from engine.llm.types import Message, Request, Sampler
from engine.workspace.store import Workspace


def request_to_dict(req: Request) -> dict:
    return dataclasses.asdict(req)


def request_from_dict(data: dict) -> Request:
    sampler = dict(data.get("sampler") or {})
    sampler["stop"] = tuple(sampler.get("stop") or ())
    messages = data.get("messages")
    return Request(
        key=data["key"],
        prompt=data.get("prompt"),
        messages=tuple(Message(**m) for m in messages) if messages is not None else None,
        sampler=Sampler(**sampler),
        json_schema=data.get("json_schema"),
    )


def group_payload(group: list[Request]) -> tuple[str, str]:
    """(group key, requests JSON) of one decoded group."""
    text = json.dumps(
        [request_to_dict(r) for r in group], sort_keys=True, ensure_ascii=False, default=str
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest(), text


def record_groups(
    conn: sqlite3.Connection, run_id: int, placed: list[tuple[list[Request], list[str]]]
) -> None:
    """Record groups and which of their items (finished now) came from them, in the caller's
    transaction: the one that stores those items' responses (engine.llm.runs.responses), so a kill
    between the two cannot leave a finished item without its group (it could never be
    replicated). ``placed`` is [(group requests, keys of the group finished now)]."""
    rows_g, rows_i = [], []
    for group, keys in placed:
        if not keys:
            continue
        gkey, text = group_payload(group)
        rows_g.append((run_id, gkey, text))
        position = {r.key: i for i, r in enumerate(group)}
        rows_i += [(run_id, k, gkey, position[k]) for k in keys]
    if not rows_i:
        return
    conn.executemany(
        "INSERT OR IGNORE INTO llm_groups(run_id, group_key, requests) VALUES (?, ?, ?)",
        rows_g,
    )
    conn.executemany(
        "INSERT INTO llm_item_groups(run_id, item_key, group_key, pos) VALUES (?, ?, ?, ?) "
        "ON CONFLICT(run_id, item_key) DO UPDATE SET group_key = excluded.group_key, "
        "pos = excluded.pos",
        rows_i,
    )


def item_groups(ws: Workspace, run_id: int) -> dict[str, tuple[str, int]]:
    return {
        r["item_key"]: (r["group_key"], r["pos"])
        for r in ws.query(
            "SELECT item_key, group_key, pos FROM llm_item_groups WHERE run_id = ?", (run_id,)
        )
    }


def load_group(ws: Workspace, run_id: int, group_key: str) -> list[Request]:
    text = ws.scalar(
        "SELECT requests FROM llm_groups WHERE run_id = ? AND group_key = ?", (run_id, group_key)
    )
    return [request_from_dict(d) for d in json.loads(text)] if text else []
