"""V3: human scores carry their scale and one ``details`` shape per target; the
built-in dialects are seeded by the migration. Migrated from the v2 fixture with the three
human-score shapes version 2 wrote."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from engine.workspace.human_annotations import judgment_history
from engine.workspace.store import Workspace

V2 = Path(__file__).parents[2] / "fixtures" / "schema" / "v2.sqlite"
NOW = "2026-01-01T00:00:00Z"


def _v2_with_human_scores(path: Path) -> None:
    """A judgment with an override (v2 shape), an adjudicated score on a 0..5 batch (v2
    shape) and a translation score (no details), written as version 2 wrote them."""
    shutil.copy(V2, path)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(
            "INSERT INTO models(id, name, kind, api_model, added_at) "
            "VALUES (1, 'm', 'endpoint', 'm', ?)",
            (NOW,),
        )
        conn.execute(
            "INSERT INTO runs(id, kind, run_key, model_id, card, status, created_at) "
            "VALUES (1, 'judge', 'k', 1, '{}', 'done', ?)",
            (NOW,),
        )
        conn.execute(
            "INSERT INTO responses(id, run_id, item_key, text, created_at) "
            "VALUES (1, 1, 'a', 'x', ?)",
            (NOW,),
        )
        conn.execute(
            "INSERT INTO judgments(id, run_id, response_id, confidence, final, created_at) "
            "VALUES (7, 1, 1, 2, 3.5, ?)",
            (NOW,),
        )
        rows = [
            (
                "judgment",
                7,
                json.dumps(
                    {
                        "scores": {"comprehension": 5},
                        "rubric": "r@abc",
                        "machine": {"final": 3.5, "confidence": 2},
                    }
                ),
                8.0,
            ),
            (
                "judgment",
                7,
                json.dumps({"annotation_item": 4, "decision_ids": [9, 10], "scale": "0..5"}),
                4.0,
            ),
            ("translation", 1, "{}", 6.0),
        ]
        conn.executemany(
            "INSERT INTO human_annotations(target, target_id, annotator, score, details, "
            "reason, created_at) VALUES (?, ?, 'a', ?, ?, 'r', ?)",
            [(t, i, s, d, NOW) for t, i, d, s in rows],
        )
    conn.close()


def test_v3_backfills_the_scale_and_types_the_details(tmp_path):
    path = tmp_path / "v2.sqlite"
    _v2_with_human_scores(path)
    with Workspace(path, create=False) as ws:
        assert ws.schema_version >= 3 and ws.integrity_ok()
        scales = [r[0] for r in ws.conn.execute("SELECT scale FROM human_annotations ORDER BY id")]
        assert scales == ["0-10", "0-5", "0-10"]
        override, adjudicated = judgment_history(ws, 7)
        assert override["details"] == {
            "source": "override",
            "scores": {"comprehension": 5},
            "rubric": "r@abc",
            "machine": {"final": 3.5, "confidence": 2},
            "annotation_item": None,
            "decision_ids": [],
        }
        assert adjudicated["details"] == {
            "source": "adjudication",
            "scores": None,
            "rubric": None,
            "machine": {"final": 3.5, "confidence": 2},  # read from the judgment
            "annotation_item": 4,
            "decision_ids": [9, 10],
        }
        assert ws.scalar("SELECT details FROM human_annotations WHERE target = 'translation'") == (
            "{}"
        )
        assert ws.scalar("SELECT count(*) FROM dialects") == 10


def test_a_new_workspace_seeds_the_dialects_once(tmp_path):
    path = tmp_path / "w.sqlite"
    with Workspace(path) as ws:
        assert ws.scalar("SELECT name_en FROM dialects WHERE code = 'tangail'") == "Tangail"
        changes = ws.conn.total_changes
    with Workspace(path, create=False) as ws:
        assert ws.conn.total_changes == 0 < changes  # opening a workspace writes nothing
