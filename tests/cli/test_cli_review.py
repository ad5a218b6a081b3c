import json

from app.cli import main
from engine.workspace.store import Workspace, utcnow


def _workspace_with_drafts(path):
    with Workspace(path) as ws, ws.transaction() as conn:
        conn.execute("INSERT INTO question_sets(name, created_at) VALUES ('s', ?)", (utcnow(),))
        conn.execute(
            "INSERT INTO questions(set_id, ext_id, text, text_key) "
            "VALUES (1, 'q1', 'কম্পিউটার কাকে বলে?', 'k')"
        )
        for dialect, text in [("chittagong", "কম্পিউটার কারে কয়?"), ("sylhet", "কম্পিউটার কিতারে কয়?")]:
            conn.execute(
                "INSERT INTO variants(question_id, dialect, text, provenance, status, "
                "updated_at) VALUES (1, ?, ?, 'machine', 'draft', ?)",
                (dialect, text, utcnow()),
            )


def test_bulk_accept_records_who_and_keeps_history(tmp_path, capsys):
    ws_path = tmp_path / "w.sqlite"
    _workspace_with_drafts(ws_path)
    assert (
        main(
            [
                "-w",
                str(ws_path),
                "review",
                "bulk",
                "--from",
                "draft",
                "--to",
                "gold",
                "--reviewer",
                "demo",
                "--dialects",
                "chittagong",
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["changed"] == 1
    with Workspace(ws_path) as ws:
        assert ws.query("SELECT dialect, status, reviewer FROM variants ORDER BY dialect") == [
            {"dialect": "chittagong", "status": "gold", "reviewer": "demo"},
            {"dialect": "sylhet", "status": "draft", "reviewer": ""},
        ]
        [h] = ws.query("SELECT actor, old_status, new_status FROM variant_history")
    assert h == {"actor": "demo", "old_status": "draft", "new_status": "gold"}


def test_set_and_list(tmp_path, capsys):
    ws_path = tmp_path / "w.sqlite"
    _workspace_with_drafts(ws_path)
    assert (
        main(
            [
                "-w",
                str(ws_path),
                "review",
                "set",
                "2",
                "--status",
                "flagged",
                "--reviewer",
                "rahim",
                "--comment",
                "wrong verb",
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["-w", str(ws_path), "review", "list", "--status", "flagged", "--json"]) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert row["dialect"] == "sylhet"
    assert (
        main(["-w", str(ws_path), "review", "set", "99", "--status", "gold", "--reviewer", "x"])
        == 2
    )
    assert main(["-w", str(ws_path), "review", "list", "--dialects", "klingon"]) == 2
