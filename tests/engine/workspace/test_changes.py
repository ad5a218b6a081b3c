"""ChangeTracker: one cheap query per poll names the topics another connection changed."""

from __future__ import annotations

from engine.judging import store
from engine.judging.rubric import load_rubric
from engine.workspace.changes import ChangeTracker
from engine.workspace.stages import topics
from engine.workspace.store import Workspace, utcnow
from tests.engine.judging.study_fixture import add_judge, add_model, build_questions, build_study


def test_each_write_names_its_topic(workspace):
    tracker = ChangeTracker(workspace.path)
    try:
        assert tracker.poll() == frozenset()  # the first look is the baseline
        build_questions(workspace)
        assert tracker.poll() == {"questions", "variants"}
        assert tracker.poll() == frozenset()  # nothing new since

        add_model(workspace, "a model", "family")
        assert tracker.poll() == {"models"}
        with Workspace(workspace.path, create=False) as other:  # a second connection
            add_model(other, "another model", "family")
        assert tracker.poll() == {"models"}
    finally:
        tracker.close()


def test_judgments_overrides_and_primary_judge(tmp_path):
    """Own-process writes through the workspace's connection are seen too: the tracker has
    a connection of its own."""
    with Workspace(tmp_path / "w.sqlite") as ws:
        build_study(ws, draft_dialect="chittagong")
        tracker = ChangeTracker(ws.path)
        rids = [p["dialect_response_id"] for p in store.answer_pairs(ws)]
        a = add_judge(ws, "judge-a", "gemini", {rid: 5.0 for rid in rids})
        assert tracker.poll() == {"models", "runs", "judgments"}
        b = add_judge(ws, "judge-b", "qwen", {rid: 6.0 for rid in rids})
        tracker.poll()
        store.set_primary_judge(ws, b)
        assert tracker.poll() == {"runs"}  # the role lives in the run card
        store.set_primary_judge(ws, a)
        assert tracker.poll() == {"runs"}
        judgment = ws.scalar("SELECT id FROM judgments WHERE run_id = ?", (a,))
        store.add_override(
            ws, judgment, annotator="রহিম", reason="checked", rubric=load_rubric(), final=9.0
        )
        assert tracker.poll() == {"annotations"}
        with ws.transaction() as conn:  # a table no topic watches: data_version moves, no topic
            conn.execute(
                "INSERT INTO response_cache(request_key, text, created_at) VALUES ('k', 't', ?)",
                (utcnow(),),
            )
        reads = tracker.reads
        assert tracker.poll() == frozenset() and tracker.reads == reads + 1
        reads = tracker.reads
        for _ in range(5):
            assert tracker.poll() == frozenset()
        assert tracker.reads == reads  # unchanged data_version: no stamp query at all
        with ws.transaction() as conn:
            conn.execute("DELETE FROM runs WHERE id = ?", (b,))
        assert "runs" in tracker.poll()  # its judgments went with it (ON DELETE CASCADE)
        tracker.close()


def test_stamps_cover_every_topic(workspace):
    with ChangeTracker(workspace.path) as tracker:
        assert set(tracker.read_stamps()) == set(topics())


def test_annotation_task_and_probe_topics(workspace):
    from engine.annotation.annotators import add_annotator

    with ChangeTracker(workspace.path) as tracker:
        add_annotator(workspace, "Rina", ["sylhet"])
        assert tracker.poll() == {"annotators"}
        now = utcnow()
        with workspace.transaction() as conn:
            conn.execute(
                "INSERT INTO annotation_batches(name, kind, seed, created_at) "
                "VALUES ('b', 'variant', 1, ?)",
                (now,),
            )
            conn.execute(
                "INSERT INTO annotation_items(batch_id, kind, target_id, dialect, content_hash) "
                "VALUES (1, 'variant', 1, 'sylhet', 'h')"
            )
            conn.execute("INSERT INTO annotation_assignments(item_id, annotator_id) VALUES (1, 1)")
        assert tracker.poll() == {"assignments"}
        with workspace.transaction() as conn:
            conn.execute(
                "INSERT INTO annotation_decisions(uid, item_id, annotator_id, decision, "
                "item_hash, decided_at, checksum) VALUES ('u', 1, 1, 'accept', 'h', ?, 'c')",
                (now,),
            )
        assert tracker.poll() == {"decisions"}
        for kind, topic in (("task:dialect-to-standard", "task_runs"), ("probe", "probe_runs")):
            with workspace.transaction() as conn:
                conn.execute(
                    "INSERT INTO runs(kind, run_key, card, created_at) VALUES (?, ?, '{}', ?)",
                    (kind, kind, now),
                )
            assert tracker.poll() == {"runs", topic}
