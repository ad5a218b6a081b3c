"""The current hash of an item's target (what staleness compares): one query per kind, and
the same value as hashing the item's content the long way."""

from __future__ import annotations

import numpy as np

from engine.annotation.annotators import add_annotator
from engine.annotation.assignment import assign
from engine.annotation.items import (
    _target_hash,
    content_hash,
    contents,
    current_hashes,
    row_digest,
)

from .helpers import build_judged_study


def test_written_out_hash_is_row_digest():
    for question, text in [("প্রশ্ন?", "উত্তর।"), ("", ""), ("a\x1fb", "c\x00d"), ("q", None)]:
        for kind in ("variant", "judgment"):
            assert _target_hash(kind, question, text) == row_digest((kind, question, text))
    assert _target_hash("variant", 5, "x") == row_digest(("variant", 5, "x"))


def test_current_hashes_match_content_and_given_targets(ann_ws):
    ws = ann_ws
    batch = assign(ws, "hashes", "variant", [], overlap=0.25, seed=3).batch_id
    items = ws.query(
        "SELECT id, kind, target_id FROM annotation_items WHERE batch_id = ? ORDER BY id",
        (batch,),
    )
    found = contents(ws, "variant", [i["target_id"] for i in items])
    expected = {i["id"]: content_hash("variant", found[i["target_id"]]) for i in items}
    ids = [i["id"] for i in items]
    assert current_hashes(ws, ids) == expected
    targets = {i["id"]: (i["kind"], i["target_id"]) for i in items}
    assert current_hashes(ws, ids, targets=targets) == expected
    # a target that is gone, an item that is not there: absent, not an error
    gone = dict(targets)
    gone[ids[0]] = ("variant", 10**9)
    assert ids[0] not in current_hashes(ws, ids, targets=gone)
    assert current_hashes(ws, [10**9]) == {}
    # an edited text changes the hash
    ws.conn.execute("UPDATE variants SET text = text || '!' WHERE id = ?", (items[1]["target_id"],))
    assert current_hashes(ws, ids)[ids[1]] != expected[ids[1]]


def test_judgment_hashes_match_content(workspace):
    build_judged_study(workspace, np.random.default_rng(3))
    add_annotator(workspace, "Rina", ["standard", "sylhet"])
    add_annotator(workspace, "Karim", ["standard", "sylhet"])
    batch = assign(workspace, "j", "judgment", [], overlap=0.5, seed=1).batch_id
    items = workspace.query(
        "SELECT id, target_id FROM annotation_items WHERE batch_id = ? ORDER BY id", (batch,)
    )
    assert len(items) > 10
    found = contents(workspace, "judgment", [i["target_id"] for i in items])
    expected = {i["id"]: content_hash("judgment", found[i["target_id"]]) for i in items}
    assert current_hashes(workspace, [i["id"] for i in items]) == expected
