"""Forged review packages, re-sealed with the product's own checksum functions as an attacker
would: each is refused with one line naming the file, from the engine and from the CLI
(exit 2), and the workspace is unchanged. SQL objects (triggers, views) are refused on both
sides; a multi-package import is all or nothing."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import time

import pytest

from app.cli import main
from engine.annotation.assignment import assign
from engine.annotation.decisions import decision_checksum
from engine.annotation.packages import (
    ReviewPackage,
    _item_checksum,
    _seal,
    export_package,
    import_package,
    import_packages,
)
from engine.errors import UserError

from .helpers import snapshot


def _fill(path) -> None:
    pkg = ReviewPackage(path)
    for item in pkg.queue():
        pkg.record(item["item_id"], "accept", score=4, seconds=10, comment="ঠিক")


@pytest.fixture
def filled(ann_ws, tmp_path):
    assign(ann_ws, "field", "variant", ["Karim", "Shuvo"], overlap=0.5, seed=5)
    paths = {}
    for who in ("Karim", "Shuvo"):
        paths[who] = export_package(ann_ws, who, tmp_path / f"{who}.upkg")["path"]
        _fill(paths[who])
    return ann_ws, paths


def _reseal(conn) -> None:
    """What a forger does after editing: recompute every checksum and the seal."""
    conn.row_factory = sqlite3.Row
    for d in [dict(r) for r in conn.execute("SELECT rowid AS rid, * FROM decisions")]:
        conn.execute(
            "UPDATE decisions SET checksum = ? WHERE rowid = ?", (decision_checksum(d), d["rid"])
        )
    for it in [dict(r) for r in conn.execute("SELECT * FROM items")]:
        conn.execute(
            "UPDATE items SET checksum = ? WHERE item_id = ?", (_item_checksum(it), it["item_id"])
        )
    conn.row_factory = None
    conn.execute("UPDATE manifest SET value = ? WHERE key = 'seal'", (_seal(conn),))


def _forge(src, dst, *statements, reseal=True, params=()):
    shutil.copy(src, dst)
    conn = sqlite3.connect(dst)
    for n, statement in enumerate(statements):
        conn.execute(statement, params if n == 0 else ())
    if reseal:
        _reseal(conn)
    conn.commit()
    conn.close()
    return dst


FIRST = "(SELECT min(rowid) FROM decisions)"
FORGERIES = {
    "score 999": ([f"UPDATE decisions SET score = 999 WHERE rowid = {FIRST}"], "outside"),
    "score 'abc'": ([f"UPDATE decisions SET score = 'abc' WHERE rowid = {FIRST}"], "not a number"),
    "seconds -5000": (
        [f"UPDATE decisions SET seconds = -5000 WHERE rowid = {FIRST}"],
        "impossible time",
    ),
    "year 9999": (
        [f"UPDATE decisions SET decided_at = '9999-01-01T00:00:00+00:00' WHERE rowid = {FIRST}"],
        "outside the time",
    ),
    "empty edit": (
        [f"UPDATE decisions SET decision = 'edit', text = '' WHERE rowid = {FIRST}"],
        "edit without",
    ),
    "20 MB comment": (
        [f"UPDATE decisions SET comment = zeroblob(20000000) || '' WHERE rowid = {FIRST}"],
        r"a value of a decision on item \d+ is larger than 1048576 bytes",
    ),
    "decision banana": (
        [f"UPDATE decisions SET decision = 'banana' WHERE rowid = {FIRST}"],
        "unknown kind",
    ),
    "200,027 decisions": (
        [
            "INSERT INTO decisions SELECT lower(hex(randomblob(16))), item_id, annotator, "
            "decision, text, score, comment, seconds, item_hash, decided_at, checksum "
            "FROM decisions, (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
            "WHERE i < 10000) SELECT i FROM n)"
        ],
        "decisions for",
    ),
    "extra item": (
        [
            "INSERT INTO items SELECT item_id + 100000, kind, dialect, batch, score_scale, "
            "blind_draft, content, item_hash, checksum FROM items LIMIT 1",
            "UPDATE manifest SET value = value + 1 WHERE key = 'items'",
        ],
        "more than|not exported by this workspace",
    ),
    "edited assignment": (
        ["UPDATE items SET content = json_object('text', 'forged')"],
        "not exported by this workspace",
    ),
    "recursive view": (
        [
            "ALTER TABLE decisions RENAME TO d0",
            "CREATE VIEW decisions AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
            "SELECT i + 1 FROM n) SELECT * FROM d0, n",
        ],
        "view 'decisions'",
    ),
    "trigger": (
        [
            "CREATE TRIGGER t AFTER INSERT ON decisions BEGIN "
            "UPDATE manifest SET value = 'x' WHERE key = 'annotator'; END"
        ],
        "trigger 't'",
    ),
}


EDIT = f"UPDATE decisions SET decision = 'edit', text = ? WHERE rowid = {FIRST}"
COMMENT = f"UPDATE decisions SET comment = ? WHERE rowid = {FIRST}"
# Texts a forger stores in a re-sealed package: each is refused by the import text rules,
# with the decision named, before anything merges.
TEXT_FORGERIES = {
    "edit a NUL b": (EDIT, "a\x00b", "control character U+0000"),
    "edit bell escape": (EDIT, "\x07\x1b", "control character U+0007"),
    "edit with a BOM": (EDIT, "\ufeffআমি যাই", "not in the stored form"),
    "edit with tabs": (EDIT, "আমি\tযাই", "not in the stored form"),
    "edit only U+200B": (EDIT, "\u200b\u200b", "only invisible characters"),
    "edit decomposed": (EDIT, "\u0995\u09c7\u09be", "not in the stored form"),  # not ো
    "comment a NUL b": (COMMENT, "a\x00b", "comment that holds the control character U+0000"),
    "comment escape": (COMMENT, "ঠিক\x1b[31m", "control character U+001B"),
    "comment only U+200B": (
        COMMENT,
        "\u200b",
        "comment that is empty or only invisible characters (U+200B",
    ),
}


@pytest.mark.parametrize("case", list(TEXT_FORGERIES))
def test_resealed_texts_pass_the_import_text_rules_or_nothing_merges(
    filled, tmp_path, capsys, case
):
    ws, paths = filled
    statement, value, why = TEXT_FORGERIES[case]
    forged = _forge(paths["Karim"], tmp_path / "texts.upkg", statement, params=(value,))
    before = snapshot(ws)
    with pytest.raises(UserError, match=re.escape(why)) as info:
        import_packages(ws, [paths["Shuvo"], forged])
    message = str(info.value)
    assert "\n" not in message and "decision " in message and "unchanged" in message
    assert snapshot(ws) == before
    code = main(["-w", str(ws.path), "package", "import", str(forged)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "texts.upkg" in err
    assert snapshot(ws) == before


def test_the_annotators_app_refuses_the_same_texts(filled):
    _ws, paths = filled
    pkg = ReviewPackage(paths["Karim"])
    item = pkg.items()[0]["item_id"]
    for text in ("a\x00b", "\x07\x1b"):
        with pytest.raises(UserError, match="control character"):
            pkg.record(item, "edit", text=text)
    with pytest.raises(UserError, match="needs the corrected text"):
        pkg.record(item, "edit", text="\u200b")
    with pytest.raises(UserError, match=re.escape("comment holds the control character U+001B")):
        pkg.record(item, "accept", comment="\x1b[31m")
    row = pkg.record(item, "edit", text="\ufeffআমি\tযাই", comment="কো")
    assert row["text"] == "আমি যাই" and row["comment"] == "কো"


@pytest.mark.parametrize("case", list(FORGERIES))
def test_forged_package_is_refused_and_changes_nothing(filled, tmp_path, capsys, case):
    ws, paths = filled
    statements, why = FORGERIES[case]
    reseal = case not in {"recursive view", "trigger"}
    forged = _forge(paths["Karim"], tmp_path / "forged.upkg", *statements, reseal=reseal)
    before = snapshot(ws)
    start = time.monotonic()
    with pytest.raises(UserError, match=why) as info:
        import_package(ws, forged)
    assert time.monotonic() - start < 30
    message = str(info.value)
    assert "\n" not in message and str(forged) in message and "unchanged" in message
    assert snapshot(ws) == before
    code = main(["-w", str(ws.path), "package", "import", str(forged)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "forged.upkg" in err
    assert snapshot(ws) == before


def test_colliding_uid_is_refused(filled, tmp_path, capsys):
    ws, paths = filled
    import_package(ws, paths["Shuvo"])
    theirs = ws.scalar("SELECT min(uid) FROM annotation_decisions")
    forged = _forge(
        paths["Karim"],
        tmp_path / "collide.upkg",
        f"UPDATE decisions SET uid = ? WHERE rowid = {FIRST}",
        params=(theirs,),
    )
    before = snapshot(ws)
    with pytest.raises(UserError, match="id of another's decision"):
        import_package(ws, forged)
    assert snapshot(ws) == before
    code = main(["-w", str(ws.path), "package", "import", str(forged)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "collide.upkg" in err
    assert snapshot(ws) == before


def test_reimport_adds_only_new_decisions_and_refuses_an_edited_one(filled, tmp_path):
    ws, paths = filled
    first = import_package(ws, paths["Karim"])
    edited = _forge(
        paths["Karim"],
        tmp_path / "edited.upkg",
        f"UPDATE decisions SET comment = 'পরে বদলানো' WHERE rowid = {FIRST}",
    )
    pkg = ReviewPackage(paths["Karim"])
    pkg.record(pkg.items()[0]["item_id"], "reject", score=1)  # changed his mind afterwards
    before = snapshot(ws)
    with pytest.raises(UserError, match="differs from the one merged before"):
        import_package(ws, edited)
    assert snapshot(ws) == before
    again = import_package(ws, paths["Karim"])
    assert again["new"] == 1 and again["already_merged"] == first["decisions"]


def test_annotator_side_refuses_triggers_and_views(filled, tmp_path):
    _ws, paths = filled
    for name, (statements, why) in FORGERIES.items():
        if name not in {"recursive view", "trigger"}:
            continue
        forged = _forge(paths["Karim"], tmp_path / "side.upkg", *statements, reseal=False)
        with pytest.raises(UserError, match=why):
            ReviewPackage(forged)
    # a trigger added after the package was opened never runs when a decision is recorded
    pkg = ReviewPackage(paths["Karim"])
    with sqlite3.connect(paths["Karim"]) as conn:
        conn.execute(FORGERIES["trigger"][0][0])
    item = pkg.items()[0]["item_id"]
    with pytest.raises(UserError, match="trigger"):
        pkg.record(item, "accept", score=3)
    with sqlite3.connect(paths["Karim"]) as conn:
        assert conn.execute("SELECT value FROM manifest WHERE key='annotator'").fetchone() == (
            "Karim",
        )


def test_trigger_added_between_check_and_write_never_runs(filled, monkeypatch):
    """Python 3.11 has no SQLITE_DBCONFIG_ENABLE_TRIGGER: the schema is checked again under
    the write lock, so a trigger slipped in after the opening check is refused, not fired."""
    from engine.annotation import packages

    _ws, paths = filled
    pkg = ReviewPackage(paths["Karim"])
    real_open = packages.open_package

    def open_then_forge(path, **kw):
        opened = real_open(path, **kw)
        with sqlite3.connect(path) as other:
            other.execute("CREATE TRIGGER t AFTER INSERT ON decisions BEGIN DELETE FROM items; END")
        return opened

    monkeypatch.setattr(packages, "open_package", open_then_forge)
    items_before = len(pkg.items())
    with pytest.raises(UserError, match="trigger"):
        pkg.record(pkg.items()[0]["item_id"], "accept", score=3)
    with sqlite3.connect(paths["Karim"]) as conn:
        assert conn.execute("SELECT count(*) FROM items").fetchone() == (items_before,)


def test_multi_package_import_is_all_or_nothing(filled, tmp_path, capsys):
    ws, paths = filled
    bad = _forge(paths["Karim"], tmp_path / "bad.upkg", FORGERIES["score 999"][0][0])
    before = snapshot(ws)
    with pytest.raises(UserError, match="bad.upkg.*unchanged"):
        import_packages(ws, [paths["Shuvo"], bad, paths["Karim"]])
    assert snapshot(ws) == before
    code = main(["-w", str(ws.path), "package", "import", paths["Shuvo"], str(bad)])
    assert code == 2 and "unchanged" in capsys.readouterr().err
    assert snapshot(ws) == before
    assert len(import_packages(ws, [paths["Shuvo"], paths["Karim"]])) == 2


@pytest.mark.parametrize("kind", ["devnull", "folder", "fifo", "empty", "missing"])
def test_not_a_package_file(filled, tmp_path, kind):
    ws, _paths = filled
    path = {"devnull": "/dev/null", "folder": str(tmp_path)}.get(kind, str(tmp_path / "x.upkg"))
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "empty":
        open(path, "w").close()
    why = {
        "devnull": "not a regular file",
        "folder": "folder",
        "fifo": "not a regular file",
        "empty": "empty",
        "missing": "no such file",
    }[kind]
    with pytest.raises(UserError, match=why):
        import_package(ws, path)


def test_verification_has_a_time_limit(filled, monkeypatch):
    ws, paths = filled
    from engine.annotation import package_checks

    monkeypatch.setattr(package_checks, "VERIFY_SECONDS", -1.0)
    with pytest.raises(UserError, match="took longer than"):
        import_package(ws, paths["Karim"])
