"""V4: the judged items and their sums, filled by the migration for a workspace
written by version 3 exactly as the triggers keep them for a new one."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from engine.judging import store
from engine.judging.rubric import load_rubric
from engine.workspace.human_annotations import JudgmentDetails, record_judgment_score
from engine.workspace.schema import SCHEMA_VERSION
from engine.workspace.store import Workspace
from tests.engine.judging.study_fixture import add_judge, build_study

V3 = Path(__file__).parents[2] / "fixtures" / "schema" / "v3.sqlite"
KEPT = ("judged_items", "judged_model_dialect", "judged_dialect_question", "judged_dialect_score")


def _contents(ws: Workspace) -> dict:
    return {t: ws.query(f"SELECT * FROM {t} ORDER BY 1, 2, 3") for t in KEPT}


def test_the_migration_fills_what_the_triggers_keep(tmp_path):
    path = tmp_path / "w.sqlite"
    with Workspace(path) as ws:
        build_study(ws)
        dialect = [p["dialect_response_id"] for p in store.answer_pairs(ws)]
        run = add_judge(ws, "judge-a", "a", {r: 6.5 for r in dialect})
        add_judge(ws, "judge-b", "b", {r: 3.0 for r in dialect[:5]})
        first, second, third = ws.conn.execute(
            "SELECT id FROM judgments WHERE run_id = ? ORDER BY id LIMIT 3", (run,)
        ).fetchall()
        with ws.transaction() as conn:
            conn.execute(
                "UPDATE judgments SET flags = 'inconsistent' WHERE id IN (?, ?)",
                (first[0], second[0]),
            )
            record_judgment_score(
                conn,
                second[0],
                annotator="adj",
                score=2.0,
                scale=(0.0, 5.0),
                details=JudgmentDetails(source="adjudication"),
                reason="",
            )
        store.add_override(ws, third[0], annotator="r", reason="x", rubric=load_rubric(), final=9.0)
        kept = _contents(ws)
    assert kept["judged_items"] and kept["judged_dialect_question"]
    conn = sqlite3.connect(path)  # back to what version 3 wrote: no V4 objects
    with conn:
        for name, kind in conn.execute(
            "SELECT name, type FROM sqlite_master WHERE type IN ('trigger', 'table') "
            "AND (name LIKE 'judged%' OR sql LIKE '%judged_items%') ORDER BY type = 'table'"
        ).fetchall():
            conn.execute(f"DROP {kind.upper()} IF EXISTS {name}")
        conn.execute("DROP TABLE stage_versions")  # V5's
        # the llm stage's batch tables came later too (its track alters them once)
        for table in (
            "llm_legacy_batch_argv",
            "llm_batch_results",
            "llm_batch_items",
            "llm_batches",
        ):
            conn.execute(f"DROP TABLE {table}")
        conn.execute("PRAGMA user_version = 3")
    conn.close()
    with Workspace(path, create=False) as ws:
        assert ws.schema_version == SCHEMA_VERSION
        assert _contents(ws) == kept
        item = ws.query("SELECT * FROM judged_items WHERE judgment_id = ?", (second[0],))[0]
        assert (item["human_final"], item["final"], item["counted"]) == (4.0, 4.0, 1)
        assert ws.scalar("SELECT counted FROM judged_items WHERE judgment_id = ?", (first[0],)) == 0


def test_the_v3_fixture_migrates_with_empty_judged_items(tmp_path):
    path = tmp_path / "v3.sqlite"
    shutil.copy(V3, path)
    with Workspace(path, create=False) as ws:
        assert ws.schema_version == SCHEMA_VERSION
        assert ws.scalar("SELECT count(*) FROM judged_items") == ws.scalar(
            "SELECT count(*) FROM judgments j JOIN responses d ON d.id = j.response_id "
            "JOIN variants v ON v.id = d.variant_id"
        )
        assert ws.integrity_ok()
