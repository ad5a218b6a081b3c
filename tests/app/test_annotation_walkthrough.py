"""The annotation round trip from the GUI alone (scripts/annotation_walkthrough.py) offscreen:
fresh config and data folders, no workspace, then every step through the window's widgets,
with the workspaces and packages checked after each step. No model needed."""

from __future__ import annotations

import pytest

from engine.annotation.packages import ReviewPackage
from engine.workspace.api import Workspace
from tests.app.scripts_loading import gui_driving, load_script
from tests.engine.annotation.helpers import snapshot

pytestmark = pytest.mark.qt_log_ignore(
    "This plugin does not support propagateSizeHints", "This plugin does not support raise"
)


@pytest.fixture
def walk(qapp, qtbot, tmp_path, monkeypatch):
    walkthrough = load_script("annotation_walkthrough")
    # start() points these at the walk's folder; monkeypatch puts them back afterwards
    monkeypatch.setenv("UPABHASHA_CONFIG_DIR", str(tmp_path / "walk" / "config"))
    monkeypatch.setenv("UPABHASHA_DATA_DIR", str(tmp_path / "walk" / "data"))
    walk = walkthrough.start(tmp_path / "shots", tmp_path / "walk")
    walk.module = walkthrough
    yield walk
    gui_driving().finish(walk)


def test_the_annotation_round_trip_from_the_gui_alone(walk):
    w = walk.module
    steps = iter(w.STEPS)

    def run(name: str) -> None:
        step = next(steps)
        assert step.__name__ == name
        gui_driving().run_step(walk, step)
        assert walk.shots[-1].exists() and walk.shots[-1].stat().st_size > 10_000
        assert not walk.message_boxes

    run("step_open_sample")
    assert walk.ws.scalar("SELECT count(*) FROM annotators") == 0

    run("step_add_annotators")
    assert walk.ws.query("SELECT name, dialects FROM annotators ORDER BY name") == [
        {"name": "Karim", "dialects": '["chittagong", "sylhet"]'},
        {"name": "রিনা", "dialects": '["chittagong", "sylhet"]'},
    ]

    run("step_assign")
    batch = walk.ws.query("SELECT name, seed, overlap, blind_draft FROM annotation_batches")
    assert batch == [{"name": w.BATCH, "seed": w.SEED, "overlap": 0.5, "blind_draft": 1}]
    items = walk.ws.scalar("SELECT count(*) FROM annotation_items")
    shared = walk.ws.scalar(
        "SELECT count(DISTINCT item_id) FROM annotation_assignments WHERE overlap = 1"
    )
    assert (items, shared) == (24, 12)  # chittagong + sylhet, half of each shared

    run("step_export_packages")
    assert walk.answered == ["Export review package: রিনা", "Export review package: Karim"]
    assert {n: len(ReviewPackage(p).items()) for n, p in walk.packages.items()} == {
        "রিনা": 18,
        "Karim": 18,
    }

    run("step_field_laptop")
    assert walk.window.workspace is None
    rina = ReviewPackage(walk.packages["রিনা"])
    first = min(rina.decisions(), key=lambda d: d["item_id"])  # the first item in the queue
    assert (first["decision"], first["text"], first["score"]) == ("edit", "আমি ভাত খাইছি", 3)
    karim = [d["decision"] for d in ReviewPackage(walk.packages["Karim"]).decisions()]
    assert sorted(set(karim)) == ["accept", "edit", "flag", "reject"] and len(karim) == 18
    revisited = walk.package_panels["রিনা"]
    assert revisited.mine.text() == "✎ edited (3)" and revisited.score.value() == 3

    run("step_merge_both_orders")
    assert [r["new"] for r in walk.merged_copy] == [18, 18] == [r["new"] for r in walk.merged_lab]
    # the copy was merged Karim first, the lab রিনা first: the same workspace
    with Workspace(walk.lab_copy, create=False) as copy:
        assert snapshot(copy) == snapshot(walk.ws)
    assert walk.queue_lab == walk.queue_copy

    run("step_adjudicate")
    gold = walk.ws.query(
        "SELECT v.text, v.status FROM annotation_items i JOIN variants v ON v.id = i.target_id "
        "WHERE i.id = ?",
        (walk.gold_item,),
    )
    assert gold == [{"text": walk.gold_text, "status": "gold"}]

    run("step_agreement")
    report = walk.window.panels["agreement"].report
    assert report["by_dialect"]["all"]["decision"]["items"] == 12
    assert [p.name for p in walk.shots] == [
        "01_welcome.png",
        "02_annotation_empty.png",
        "03_annotators.png",
        "04_assign.png",
        "05_annotation_queue.png",
        "06_exported.png",
        "07_package_avro.png",
        "08_package_revisited.png",
        "09_adjudication_queue.png",
        "10_adjudicate.png",
        "11_agreement.png",
    ]
