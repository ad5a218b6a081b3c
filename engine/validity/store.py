"""The one writer and reader of ``validity_cards``."""

from __future__ import annotations

import json

from engine.validity.card import ValidityCard
from engine.workspace.store import Workspace


def insert_card(ws: Workspace, card: ValidityCard) -> ValidityCard:
    """Store a finished suite's card; the card with its row id."""
    data = card.as_dict()
    settings = {k: data[k] for k in ("per_dialect", "seed", "level", "bands")}
    with ws.transaction() as conn:
        row_id = conn.execute(
            "INSERT INTO validity_cards(judge_run_id, run_id, created_at, settings, card) "
            "VALUES (?, ?, ?, ?, ?)",
            (
                card.judge_run_id,
                card.run_id,
                card.created_at,
                json.dumps(settings, ensure_ascii=False),
                json.dumps(data, ensure_ascii=False),
            ),
        ).lastrowid
    return ValidityCard.from_dict({**data, "id": row_id})


def validity_cards(ws: Workspace, judge_run_id: int | None = None) -> list[ValidityCard]:
    """Stored cards, newest first (of one judge run, or of all)."""
    where, params = ("WHERE judge_run_id = ?", (judge_run_id,)) if judge_run_id else ("", ())
    rows = ws.query(f"SELECT id, card FROM validity_cards {where} ORDER BY id DESC", params)
    return [ValidityCard.from_dict({**json.loads(r["card"]), "id": r["id"]}) for r in rows]


def latest_cards(ws: Workspace) -> list[ValidityCard]:
    """The newest card of each judge run that has one, by judge run."""
    newest: dict[int, ValidityCard] = {}
    for card in validity_cards(ws):
        newest.setdefault(card.judge_run_id, card)
    return [newest[k] for k in sorted(newest)]
