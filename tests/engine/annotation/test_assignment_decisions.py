"""Annotators, balanced assignment with a stratified overlap, own-row decisions, blind reads."""

from __future__ import annotations

import pytest

from engine.annotation.annotators import add_annotator, list_annotators
from engine.annotation.assignment import assign
from engine.annotation.decisions import effective_decisions, my_queue, progress, record_decision
from engine.errors import UserError
from engine.workspace.identity import workspace_id


def _assignments(ws, batch_id):
    return ws.query(
        "SELECT i.target_id, i.dialect, a.name, s.overlap FROM annotation_assignments s "
        "JOIN annotation_items i ON i.id = s.item_id JOIN annotators a ON a.id = s.annotator_id "
        "WHERE i.batch_id = ? ORDER BY i.target_id, a.name",
        (batch_id,),
    )


def test_annotators_and_workspace_id(ann_ws):
    names = [a["name"] for a in list_annotators(ann_ws)]
    assert names == ["Karim", "Rina", "Shuvo"]
    with pytest.raises(UserError, match="already exists"):
        add_annotator(ann_ws, "Rina", ["sylhet"])
    with pytest.raises(UserError, match="unknown dialect"):
        add_annotator(ann_ws, "X", ["atlantis"])
    first = workspace_id(ann_ws)
    assert first == workspace_id(ann_ws) and len(first) == 36


def test_assignment_balanced_stratified_and_reproducible(ann_ws):
    res = assign(ann_ws, "round 1", "variant", [], overlap=0.25, seed=7)
    assert res.seed == 7 and res.items == 36
    assert res.per_dialect == {"chittagong": 12, "noakhali": 12, "sylhet": 12}
    rows = _assignments(ann_ws, res.batch_id)
    # 25 % of each dialect's 12 items is double-annotated (3 per dialect), by speakers only
    for dialect in ("chittagong", "noakhali", "sylhet"):
        mine = [r for r in rows if r["dialect"] == dialect]
        doubled = {r["target_id"] for r in mine if r["overlap"]}
        assert len(doubled) == 3
        assert all(r["overlap"] for r in mine if r["target_id"] in doubled)
        assert len(mine) == 12 + 3
    speaks = {a["name"]: set(a["dialects"]) for a in list_annotators(ann_ws)}
    assert all(r["dialect"] in speaks[r["name"]] for r in rows)
    # balanced by dialect: each dialect's 15 assignments split evenly over its speakers
    for dialect in ("chittagong", "noakhali", "sylhet"):
        counts = {}
        for r in rows:
            if r["dialect"] == dialect:
                counts[r["name"]] = counts.get(r["name"], 0) + 1
        assert set(counts) == {n for n, s in speaks.items() if dialect in s}
        assert max(counts.values()) - min(counts.values()) <= 1
    assert sum(res.per_annotator.values()) == 45
    # the same seed on another batch gives the same plan; the seed is stored
    again = assign(ann_ws, "round 1 again", "variant", [], overlap=0.25, seed=7)
    strip = [(r["target_id"], r["name"], r["overlap"]) for r in rows]
    assert strip == [
        (r["target_id"], r["name"], r["overlap"]) for r in _assignments(ann_ws, again.batch_id)
    ]
    assert ann_ws.scalar("SELECT seed FROM annotation_batches WHERE name = 'round 1'") == 7


def test_assignment_refuses_unspoken_dialect(ann_ws):
    with pytest.raises(UserError, match="sylhet.*none of the chosen annotators"):
        assign(ann_ws, "b", "variant", ["Rina"], seed=1)
    assert ann_ws.scalar("SELECT count(*) FROM annotation_batches") == 0


def test_decisions_are_own_rows_and_reads_are_blind(ann_ws):
    ann_ws.conn.execute("UPDATE variants SET provenance = 'machine' WHERE dialect = 'sylhet'")
    res = assign(ann_ws, "b", "variant", [], overlap=1.0, seed=3, blind_draft=True)
    shared = ann_ws.query(
        "SELECT s.item_id FROM annotation_assignments s JOIN annotation_items i "
        "ON i.id = s.item_id WHERE i.dialect = 'sylhet' GROUP BY s.item_id LIMIT 1"
    )[0]["item_id"]
    record_decision(ann_ws, shared, "Karim", "edit", text="কারিমের লেখা", score=4, seconds=12.5)
    record_decision(ann_ws, shared, "Shuvo", "accept", score=5, comment="ঠিক আছে")
    record_decision(ann_ws, shared, "Shuvo", "reject", score=1)  # changed his mind
    assert ann_ws.scalar("SELECT count(*) FROM annotation_decisions") == 3
    latest = {d["annotator"]: d["decision"] for d in effective_decisions(ann_ws)}
    assert latest == {"Karim": "edit", "Shuvo": "reject"}
    # blind: Shuvo sees only his own decision and no machine draft
    item = next(q for q in my_queue(ann_ws, "Shuvo") if q["item_id"] == shared)
    assert item["mine"]["decision"] == "reject"
    assert item["content"]["text"] == "" and "hidden" in item["content"]
    assert "কারিমের" not in repr(my_queue(ann_ws, "Shuvo"))
    with pytest.raises(UserError, match="not assigned"):
        record_decision(ann_ws, shared, "Rina", "accept")
    with pytest.raises(UserError, match="outside the scale 1..5"):
        record_decision(ann_ws, shared, "Karim", "accept", score=9)
    with pytest.raises(UserError, match="needs the corrected text"):
        record_decision(ann_ws, shared, "Karim", "edit", text="  ")
    rows = {r["annotator"]: r for r in progress(ann_ws, batch_id=res.batch_id)}
    assert rows["Karim"]["decided"] == 1 and rows["Karim"]["median_seconds"] == 12.5
    assert rows["Shuvo"]["decided"] == 1


def test_annotator_dialects_change_and_setup_state(ann_ws):
    from engine.annotation.api import set_annotator_dialects, setup_state

    assert setup_state(ann_ws) == {"annotators": 3, "assigned": 0, "decided": 0}
    assert set_annotator_dialects(ann_ws, "Shuvo", ["sylhet", "noakhali"])["dialects"] == [
        "noakhali",
        "sylhet",
    ]
    before = list_annotators(ann_ws)
    for name, dialects, why in (
        ("Shuvo", [], "name at least one dialect"),
        ("Shuvo", ["atlantis"], "unknown dialect"),
        ("Nobody", ["sylhet"], "no annotator named"),
    ):
        with pytest.raises(UserError, match=why):
            set_annotator_dialects(ann_ws, name, dialects)
    assert list_annotators(ann_ws) == before
    assign(ann_ws, "b", "variant", [], overlap=0.5, seed=3)
    record_decision(ann_ws, my_queue(ann_ws, "Shuvo")[0]["item_id"], "Shuvo", "accept")
    state = setup_state(ann_ws)
    assert state["assigned"] == 36 and state["decided"] == 1
