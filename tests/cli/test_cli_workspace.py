import json

import pytest

from app.cli import main
from engine.workspace.store import Workspace


def test_init_registers_the_embedded_default_model(tmp_path, capsys, embedded_gguf):
    ws = tmp_path / "w.sqlite"
    assert main(["-w", str(ws), "init"]) == 0
    assert main(["-w", str(ws), "init"]) == 0  # idempotent
    capsys.readouterr()
    assert main(["-w", str(ws), "status", "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["totals"]["models"] == 1
    [model] = status["models"]
    assert model["is_default"] == 1 and model["kind"] == "gguf"
    with Workspace(ws) as w:
        row = w.query("SELECT path, sha256, size_bytes FROM models")[0]
    assert row["path"] == str(embedded_gguf)
    assert row["size_bytes"] == embedded_gguf.stat().st_size
    assert len(row["sha256"]) == 64


def test_status_on_missing_workspace_is_one_line_exit_2(tmp_path, capsys):
    code = main(["-w", str(tmp_path / "absent.sqlite"), "status"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "no such workspace" in err
    assert "Traceback" not in err


def test_workspace_symlink_loop_is_one_line_exit_2(tmp_path, capsys):
    loop = tmp_path / "loop.sqlite"
    loop.symlink_to(loop)
    for argv in (["init", "--no-default-model"], ["status"]):
        assert main(["-w", str(loop), *argv]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "symbolic link loop" in err


def test_not_a_workspace_is_one_line_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.sqlite"
    bad.write_text("hello")
    assert main(["-w", str(bad), "status"]) == 2
    assert "not an Upabhasha workspace" in capsys.readouterr().err


def test_an_sqlite_older_than_the_schema_needs_is_one_line_exit_2(tmp_path, capsys, monkeypatch):
    # fault injection: this Python's SQLite is newer; the check reads the version only
    import sqlite3

    monkeypatch.setattr(sqlite3, "sqlite_version_info", (3, 34, 1))
    monkeypatch.setattr(sqlite3, "sqlite_version", "3.34.1")
    ws = tmp_path / "w.sqlite"
    assert main(["-w", str(ws), "init", "--no-default-model"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "SQLite is 3.34.1" in err and "3.35.0 or newer" in err
    assert not ws.exists()


def test_internal_error_exits_1_and_names_the_log(tmp_path, capsys, monkeypatch):
    from engine.workspace.store import Workspace as W

    def broken(self):
        raise ZeroDivisionError("simulated bug")

    monkeypatch.setattr(W, "status", broken)
    Workspace(tmp_path / "w.sqlite").close()
    assert main(["-w", str(tmp_path / "w.sqlite"), "status"]) == 1
    err = capsys.readouterr().err
    assert "internal error" in err and "upabhasha.log" in err and "Traceback" not in err


def test_usage_error_is_argparse_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["no-such-command"])
    assert exc.value.code == 2
