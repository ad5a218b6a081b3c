"""The adjudication queue, character-level diffs, and adjudicated gold with full history."""

from __future__ import annotations

import numpy as np
import pytest
import regex

from engine.annotation.adjudication import (
    accept_agreed,
    adjudicate,
    char_diff,
    item_detail,
    queue,
)
from engine.annotation.annotators import add_annotator
from engine.annotation.assignment import assign
from engine.annotation.decisions import record_decision
from engine.errors import UserError
from engine.judging import store
from engine.judging.rubric import load_rubric

from .helpers import build_judged_study


def _overlap_items(ws, dialect):
    return [
        r["item_id"]
        for r in ws.query(
            "SELECT s.item_id FROM annotation_assignments s JOIN annotation_items i "
            "ON i.id = s.item_id WHERE i.dialect = ? AND s.overlap = 1 "
            "GROUP BY s.item_id ORDER BY s.item_id",
            (dialect,),
        )
    ]


def test_char_diff_keeps_graphemes():
    segments = char_diff("আমি ভাত খাই", "আমি ভাত খাইছি")
    assert segments[0] == ("equal", "আমি ভাত খাই", "আমি ভাত খাই")
    assert segments[-1] == ("insert", "", "ছি")
    # a vowel sign is never split from its consonant
    assert ("replace", "কি", "কে") in char_diff("কি", "কে")


@pytest.mark.parametrize(
    ("old", "new", "changed"),
    [
        ("ক্ষমা করো", "কষমা করো", ("ক্ষ", "কষ")),  # a conjunct stays one unit
        ("কর্ম", "কম্ম", ("র্ম", "ম্ম")),  # reph
        ("স্ত্রীর কথা", "স্তিরির কথা", ("স্ত্রী", "স্তিরি")),  # three-consonant conjunct
        ("বিদ্যালয়", "বিদ্যালয়ে", ("য়", "য়ে")),  # ya-phala, nukta letter
    ],
)
def test_char_diff_keeps_conjuncts_whole(old, new, changed):
    """Every segment boundary is a grapheme-cluster boundary of both texts (Unicode 15.1
    clusters: a conjunct joined by hasanta is one cluster)."""
    segments = char_diff(old, new)
    assert changed in [(a, b) for op, a, b in segments if op != "equal"]
    for side, text in ((1, old), (2, new)):
        bounds = {0}
        for cluster in regex.findall(r"\X", text):
            bounds.add(max(bounds) + len(cluster))
        at = 0
        for seg in segments:
            at += len(seg[side])
            assert at in bounds, (seg, text)


def test_queue_adjudication_and_history(ann_ws):
    assign(ann_ws, "b", "variant", [], overlap=1.0, seed=11)
    a, b, c = _overlap_items(ann_ws, "sylhet")[:3]
    # a: the two annotators edit differently; b: both accept; c: one flags
    record_decision(ann_ws, a, "Karim", "edit", text="তুমি কিতা করো?")
    record_decision(ann_ws, a, "Shuvo", "edit", text="তুমি কিতা কররায়?")
    record_decision(ann_ws, b, "Karim", "accept")
    record_decision(ann_ws, b, "Shuvo", "accept")
    record_decision(ann_ws, c, "Karim", "accept")
    record_decision(ann_ws, c, "Shuvo", "flag", comment="প্রশ্ন অস্পষ্ট")
    entries = {e["item_id"]: e for e in queue(ann_ws)}
    assert set(entries) == {a, c}
    assert entries[a]["reasons"] == ["edits differ"]
    assert entries[c]["reasons"] == ["flagged", "decisions differ"]
    detail = item_detail(ann_ws, a)
    assert {d["annotator"] for d in detail["decisions"]} == {"Karim", "Shuvo"}
    assert all(d["diff"] for d in detail["decisions"])

    vid = detail["target_id"]
    with pytest.raises(UserError, match="adjudicator's name"):
        adjudicate(ann_ws, a, " ", "accept")
    adjudicate(ann_ws, a, "Lead", "edit", text="তুমি কিতা কররায়?", comment="Shuvo's form")
    assert ann_ws.query("SELECT text, status, reviewer FROM variants WHERE id = ?", (vid,)) == [
        {"text": "তুমি কিতা কররায়?", "status": "gold", "reviewer": "Lead"}
    ]
    after = item_detail(ann_ws, a)
    assert len(after["decisions"]) == 2  # every annotator decision kept
    assert after["history"][-1]["action"] == "adjudicate"
    assert len(after["adjudications"]) == 1
    assert {e["item_id"] for e in queue(ann_ws)} == {c}
    # the unanimous item becomes gold through accept_agreed; the flagged one does not
    assert accept_agreed(ann_ws, "Lead") == 1
    status = ann_ws.scalar(
        "SELECT v.status FROM variants v JOIN annotation_items i ON i.target_id = v.id "
        "WHERE i.id = ?",
        (b,),
    )
    assert status == "gold"
    # a later decision on an adjudicated item brings it back to the queue
    record_decision(ann_ws, a, "Karim", "reject")
    assert a in {e["item_id"] for e in queue(ann_ws)}


def test_an_adjudicated_judgment_and_an_override_read_back_in_one_shape(workspace):
    """Both are human scores of a judgment: the same ``details`` keys, the scale with the
    score, the machine score they replaced, and the newest wins for every reader."""
    run, truth = build_judged_study(workspace, np.random.default_rng(3))
    add_annotator(workspace, "Rina", ["standard", "sylhet"])
    add_annotator(workspace, "Karim", ["standard", "sylhet"])
    judgment = min(truth)
    assign(workspace, "j", "judgment", ["Rina", "Karim"], targets=[judgment], overlap=1.0, seed=1)
    (item,) = [r["id"] for r in workspace.query("SELECT id FROM annotation_items")]
    record_decision(workspace, item, "Rina", "accept", score=4.0)
    record_decision(workspace, item, "Karim", "accept", score=8.0)
    adjudicate(workspace, item, "Lead", "accept", score=6.0)
    store.add_override(
        workspace, judgment, annotator="Rahim", reason="checked", rubric=load_rubric(), final=7.0
    )
    adjudicated, override = store.override_history(workspace, judgment)
    assert adjudicated["details"].keys() == override["details"].keys()
    assert (adjudicated["details"]["source"], override["details"]["source"]) == (
        "adjudication",
        "override",
    )
    assert adjudicated["scale"] == override["scale"] == "0-10"
    machine = workspace.scalar("SELECT final FROM judgments WHERE id = ?", (judgment,))
    assert adjudicated["details"]["machine"]["final"] == override["details"]["machine"]["final"]
    assert override["details"]["machine"]["final"] == machine
    assert adjudicated["details"]["annotation_item"] == item
    assert len(adjudicated["details"]["decision_ids"]) == 2
    assert (adjudicated["score"], override["score"]) == (6.0, 7.0)
    scored = {r["judgment_id"]: r for r in store.scored_items(workspace, run)}
    assert scored[judgment]["final"] == 7.0 and scored[judgment]["machine_final"] == machine
