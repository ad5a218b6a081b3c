import shutil
import sqlite3
from pathlib import Path

import pytest

from engine.errors import UserError
from engine.workspace.schema import SCHEMA_VERSION
from engine.workspace.store import Workspace

FIXTURES = sorted((Path(__file__).parents[2] / "fixtures" / "schema").glob("v*.sqlite"))


def test_new_workspace_is_current_wal_and_seeded(tmp_path):
    with Workspace(tmp_path / "w.sqlite") as ws:
        assert ws.schema_version == SCHEMA_VERSION
        assert ws.scalar("PRAGMA journal_mode") == "wal"
        assert ws.scalar("PRAGMA synchronous") == 1  # NORMAL
        assert ws.scalar("PRAGMA foreign_keys") == 1
        assert {"standard", "chittagong", "sylhet", "tangail"} <= ws.dialect_codes()
        assert ws.integrity_ok()


def test_reopen_is_idempotent(tmp_path):
    path = tmp_path / "w.sqlite"
    Workspace(path).close()
    with Workspace(path) as ws:
        assert ws.scalar("SELECT count(*) FROM dialects") == 10


@pytest.mark.parametrize("fixture", FIXTURES, ids=[f.stem for f in FIXTURES])
def test_every_past_version_migrates_with_data_kept(fixture, tmp_path):
    path = tmp_path / fixture.name
    shutil.copy(fixture, path)
    with Workspace(path, create=False) as ws:
        assert ws.schema_version == SCHEMA_VERSION
        assert ws.integrity_ok()
        assert ws.scalar("SELECT dialect_text FROM sentence_pairs") == "আঁই ভাত খাই"
        assert ws.scalar("SELECT status FROM variants") == "gold"


def test_a_fixture_exists_for_the_current_version():
    assert f"v{SCHEMA_VERSION}" in {f.stem for f in FIXTURES}


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "w.sqlite"
    Workspace(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(UserError, match="newer Upabhasha"):
        Workspace(path)


def test_foreign_sqlite_file_and_garbage_are_refused(tmp_path):
    other = tmp_path / "other.sqlite"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE t(x)")
    conn.close()
    with pytest.raises(UserError, match="not an Upabhasha workspace"):
        Workspace(other)
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"this is not a database" * 100)
    with pytest.raises(UserError, match="not an Upabhasha workspace"):
        Workspace(garbage)


def test_missing_workspace_without_create(tmp_path):
    with pytest.raises(UserError, match="no such workspace"):
        Workspace(tmp_path / "absent.sqlite", create=False)


def test_transaction_is_all_or_nothing(workspace):
    with pytest.raises(RuntimeError):
        with workspace.transaction() as conn:
            conn.execute("INSERT INTO corpora(name, created_at) VALUES ('a', 'now')")
            raise RuntimeError("boom")
    assert workspace.scalar("SELECT count(*) FROM corpora") == 0
    with workspace.transaction() as conn:
        conn.execute("INSERT INTO corpora(name, created_at) VALUES ('a', 'now')")
        with workspace.transaction() as inner:  # nested joins the outer transaction
            inner.execute("INSERT INTO corpora(name, created_at) VALUES ('b', 'now')")
    assert workspace.scalar("SELECT count(*) FROM corpora") == 2


def test_natural_keys_make_reinserts_idempotent(workspace):
    with workspace.transaction() as conn:
        conn.execute("INSERT INTO question_sets(name, created_at) VALUES ('s', 'now')")
        for _ in range(2):
            conn.execute(
                "INSERT INTO questions(set_id, text, text_key) VALUES (1, 'প্রশ্ন', 'প্রশ্ন') "
                "ON CONFLICT DO NOTHING"
            )
    assert workspace.scalar("SELECT count(*) FROM questions") == 1


def test_status_counts(workspace):
    status = workspace.status()
    assert status["totals"]["sentence_pairs"] == 0
    assert status["schema_version"] == SCHEMA_VERSION
