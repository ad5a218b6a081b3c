"""Helpers shared by the annotation tests."""

from __future__ import annotations

import numpy as np

from engine.workspace.store import Workspace, utcnow


def snapshot(ws: Workspace) -> dict:
    """Everything merging may touch, without row ids (which depend on insertion order)."""
    return {
        "decisions": sorted(
            ws.conn.execute(
                "SELECT uid, item_id, annotator_id, decision, text, score, comment, seconds, "
                "item_hash, stale, decided_at, checksum FROM annotation_decisions"
            ).fetchall()
        ),
        "variants": ws.conn.execute("SELECT id, text, status FROM variants ORDER BY id").fetchall(),
        "adjudications": ws.conn.execute(
            "SELECT count(*) FROM annotation_adjudications"
        ).fetchone(),
        "human": ws.conn.execute("SELECT count(*) FROM human_annotations").fetchone(),
    }


def build_judged_study(ws: Workspace, rng) -> tuple[int, dict]:
    """One answering model, standard and Sylheti answers with a known human truth; the
    judge overrates Sylheti answers by 1.5 points. Returns (judge run, truth by judgment)."""
    now, truth = utcnow(), {}
    with ws.transaction() as conn:
        conn.execute("INSERT INTO question_sets(name, created_at) VALUES ('s', ?)", (now,))
        conn.execute(
            "INSERT INTO models(name, kind, family, added_at) VALUES ('m', 'endpoint', 'x', ?)",
            (now,),
        )
        conn.execute(
            "INSERT INTO runs(kind, run_key, model_id, card, created_at) "
            "VALUES ('answer', 'a', 1, '{}', ?)",
            (now,),
        )
        conn.execute(
            "INSERT INTO runs(kind, run_key, model_id, card, created_at) "
            "VALUES ('judge', 'j', 1, '{}', ?)",
            (now,),
        )
        for q in range(300):
            qid = conn.execute(
                "INSERT INTO questions(set_id, ext_id, text, text_key) VALUES (1, ?, ?, ?)",
                (f"q{q}", f"প্রশ্ন {q}", f"k{q}"),
            ).lastrowid
            for dialect, human_mean, judge_bias in (("standard", 7.0, 0.0), ("sylhet", 5.0, 1.5)):
                vid = conn.execute(
                    "INSERT INTO variants(question_id, dialect, text, provenance, updated_at) "
                    "VALUES (?, ?, ?, 'human', ?)",
                    (qid, dialect, f"{dialect} {q}", now),
                ).lastrowid
                rid = conn.execute(
                    "INSERT INTO responses(run_id, item_key, variant_id, text, created_at) "
                    "VALUES (1, ?, ?, ?, ?)",
                    (f"v{vid}", vid, f"উত্তর {vid}", now),
                ).lastrowid
                human = float(np.clip(round(rng.normal(human_mean, 1.2), 1), 0, 10))
                judge = float(np.clip(human + judge_bias + rng.normal(0, 0.7), 0, 10))
                jid = conn.execute(
                    "INSERT INTO judgments(run_id, response_id, final, created_at) "
                    "VALUES (2, ?, ?, ?)",
                    (rid, judge, now),
                ).lastrowid
                truth[jid] = human
    return 2, truth
