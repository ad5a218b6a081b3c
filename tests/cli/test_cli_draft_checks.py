"""``review list`` and ``assign`` ordered by need and filtered to flagged drafts."""

import json

from app.cli import main
from engine.workspace.store import Workspace, utcnow

QUESTION = "কম্পিউটার কাকে বলে এবং এটি কীভাবে কাজ করে?"
STANDARD = "আমার বড় বোনের আজকে মন ভালো নেই"  # standard Bengali, not the question


def _workspace(path):
    """q1: a chittagong draft that copies the question, a sylhet draft in standard Bengali
    (another dialect), a barishal draft left unflagged."""
    with Workspace(path) as ws, ws.transaction() as conn:
        conn.execute("INSERT INTO question_sets(name, created_at) VALUES ('s', ?)", (utcnow(),))
        conn.execute(
            "INSERT INTO questions(set_id, ext_id, text, text_key) VALUES (1, 'q1', ?, 'k')",
            (QUESTION,),
        )
        for dialect, text in [
            ("barishal", "হ্যারা কম্পিউটার কারে কয় আর এইডা ক্যামনে কাম হরে?"),
            ("chittagong", QUESTION),
            ("sylhet", STANDARD),
        ]:
            conn.execute(
                "INSERT INTO variants(question_id, dialect, text, provenance, status, "
                "updated_at) VALUES (1, ?, ?, 'machine', 'draft', ?)",
                (dialect, text, utcnow()),
            )


def _run(ws_path, capsys, *argv):
    assert main(["-w", str(ws_path), *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_review_list_by_need_puts_flagged_drafts_first_with_a_reason(tmp_path, capsys):
    ws_path = tmp_path / "w.sqlite"
    _workspace(ws_path)
    rows = _run(ws_path, capsys, "review", "list", "--order", "need")
    flags = {r["dialect"]: r["flag"] for r in rows}
    assert flags["chittagong"] == "copy" and flags["sylhet"] == "other"
    assert [r["dialect"] for r in rows][-1] == "barishal"
    assert all(r["explanation"] for r in rows)
    flagged = _run(ws_path, capsys, "review", "list", "--flagged")
    assert [r["dialect"] for r in flagged] == ["chittagong", "sylhet"]  # question order

    assert main(["-w", str(ws_path), "review", "list", "--order", "need"]) == 0
    out = capsys.readouterr().out
    assert "flagged  copy: chrF++ 100" in out


def test_assign_by_need_queues_flagged_drafts_first(tmp_path, capsys):
    ws_path = tmp_path / "w.sqlite"
    _workspace(ws_path)
    args = ["annotators", "add", "rina", "--dialects", "barishal,chittagong,sylhet"]
    assert main(["-w", str(ws_path), *args]) == 0
    capsys.readouterr()
    res = _run(ws_path, capsys, "assign", "--name", "need", "--order", "need", "--overlap", "0")
    assert res["items"] == 3
    res = _run(ws_path, capsys, "assign", "--name", "flags", "--flagged", "--overlap", "0")
    assert res["items"] == 2
    with Workspace(ws_path) as ws:
        queued = ws.query(
            "SELECT v.dialect FROM annotation_items i JOIN variants v ON v.id = i.target_id "
            "WHERE i.batch_id = 1 ORDER BY i.id"
        )
        params = json.loads(ws.scalar("SELECT params FROM annotation_batches WHERE id = 1"))
    assert [r["dialect"] for r in queued][-1] == "barishal"
    assert params["order"] == "need"
