"""One writer per table, proven: every table is written by one module of ``engine/``, and
that module is the one docs/architecture.md's writer table ("One owner per table") names.

A write is an SQL ``INSERT``/``REPLACE``/``UPDATE``/``DELETE`` in any string of a module (an
f-string's literal parts included) or a sqlite-utils ``db["table"].insert/upsert/update/
delete…`` call. Only the workspace's own tables count: review packages and the encoder cache
are files of their own. Two modules are exempt, each for a reason no other module shares:
the migrations (``engine/workspace/schema.py`` and every stage's ``schema.py``) create and
reshape every table before any writer exists, and the synthetic sample study
(``engine/samples/study.py``, documented under the table) writes finished studies in bulk for demos and benches, which no product path does.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from engine.workspace.store import Workspace

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "architecture.md"
EXEMPT = {
    "engine/workspace/schema.py",  # the migrations
    "engine/samples/study.py",  # the synthetic sample study
}

_SQL_WRITE = re.compile(
    r"\b(?:(?:INSERT|REPLACE)(?:\s+OR\s+[A-Z]+)?\s+INTO|UPDATE|DELETE\s+FROM)\s+([a-z_][a-z0-9_]*)"
)
_SQLITE_UTILS_WRITES = {
    "insert",
    "insert_all",
    "upsert",
    "upsert_all",
    "update",
    "delete",
    "delete_where",
}


def _strings(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value


def _sqlite_utils_tables(tree: ast.AST):
    """``X["t"].insert(...)`` and ``X.table("t").insert(...)``."""
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _SQLITE_UTILS_WRITES
        ):
            continue
        target = node.func.value
        if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant):
            yield target.slice.value
        elif (
            isinstance(target, ast.Call)
            and isinstance(target.func, ast.Attribute)
            and target.func.attr == "table"
            and target.args
            and isinstance(target.args[0], ast.Constant)
        ):
            yield target.args[0].value


def writers_in_code(tables: set[str], root: Path = ROOT) -> dict[str, set[str]]:
    """table -> the engine modules that write it."""
    found: dict[str, set[str]] = {}
    for path in sorted((root / "engine").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel in EXEMPT or rel.endswith("/schema.py"):  # a stage's migrations (its TRACK)
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {m.group(1) for text in _strings(tree) for m in _SQL_WRITE.finditer(text)}
        names |= set(_sqlite_utils_tables(tree))
        for table in names & tables:
            found.setdefault(table, set()).add(rel)
    return found


def writers_in_doc() -> dict[str, set[str]]:
    """table -> modules, from the Markdown table under "## One owner per table": the first
    column names tables in backticks, the second their writer modules (``engine/…py``)."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## One owner per table", 1)[1].split("\n## ", 1)[0]
    documented: dict[str, set[str]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or not line.lstrip().startswith("|"):
            continue
        tables = re.findall(r"`([a-z_][a-z0-9_]*)`", cells[0])
        modules = set(re.findall(r"`(engine/[\w/]+\.py)`", cells[1]))
        for table in tables:
            assert table not in documented, f"{table} is listed twice in {DOC.name}"
            documented[table] = modules
    return documented


@pytest.fixture(scope="module")
def workspace_tables(tmp_path_factory) -> set[str]:
    with Workspace(tmp_path_factory.mktemp("w") / "w.sqlite") as ws:
        return set(ws.table_names())


def shared_tables(in_code: dict[str, set[str]]) -> dict[str, set[str]]:
    """The tables more than one module writes: each should have one writer."""
    return {table: modules for table, modules in in_code.items() if len(modules) > 1}


def check_one_writer_per_table(tables: set[str], root: Path = ROOT) -> None:
    shared = shared_tables(writers_in_code(tables, root))
    assert not shared, (
        "tables written by more than one module (route the writes through one owner): "
        f"{ {t: sorted(m) for t, m in shared.items()} }"
    )


def test_every_table_has_one_writer_module(workspace_tables):
    check_one_writer_per_table(workspace_tables)


def test_every_table_is_written_only_by_its_documented_writer(workspace_tables):
    in_code, in_doc = writers_in_code(workspace_tables), writers_in_doc()
    undocumented = {
        f"{table} written by {module}"
        for table, modules in in_code.items()
        for module in modules - in_doc.get(table, set())
    }
    assert not undocumented, (
        f"writers missing from {DOC.name}'s writer table (a second writer, or a new table): "
        f"{sorted(undocumented)}"
    )
    stale = {
        f"{table}: {module}"
        for table, modules in in_doc.items()
        for module in modules - in_code.get(table, set())
    }
    assert not stale, f"{DOC.name} names writers that do not write: {sorted(stale)}"
    assert set(in_doc) <= workspace_tables, set(in_doc) - workspace_tables
    several = {table: modules for table, modules in in_doc.items() if len(modules) > 1}
    assert not several, f"{DOC.name} gives these tables more than one writer: {several}"


def test_human_annotations_has_one_writer(workspace_tables):
    assert writers_in_code(workspace_tables)["human_annotations"] == {
        "engine/workspace/human_annotations.py"
    }


def _plant(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_a_second_writer_is_found(workspace_tables, tmp_path):
    """The check itself: a module that also writes ``models`` is found."""
    fake_root = tmp_path / "root"
    _plant(
        fake_root,
        "engine/bias/rogue.py",
        'SQL = "INSERT OR IGNORE INTO models(name) VALUES (?)"\n'
        'def f(db):\n    db["runs"].upsert({"id": 1})\n',
    )
    assert writers_in_code(workspace_tables, fake_root) == {
        "models": {"engine/bias/rogue.py"},
        "runs": {"engine/bias/rogue.py"},
    }


def test_a_planted_second_writer_fails_the_check(workspace_tables, tmp_path):
    """A copy of the real owner of ``variants`` beside a planted second writer: the tree
    passes with the owner alone and fails once the plant writes the same table, whatever
    the document says."""
    fake_root = tmp_path / "root"
    owner = "engine/workspace/variants.py"
    _plant(fake_root, owner, (ROOT / owner).read_text(encoding="utf-8"))
    check_one_writer_per_table(workspace_tables, fake_root)
    _plant(
        fake_root,
        "engine/translation/rogue.py",
        'def undo(conn, vid):\n    conn.execute("UPDATE variants SET status = ? WHERE id = ?",'
        ' ("draft", vid))\n',
    )
    shared = shared_tables(writers_in_code(workspace_tables, fake_root))
    assert shared == {"variants": {owner, "engine/translation/rogue.py"}}
    with pytest.raises(AssertionError, match="more than one module"):
        check_one_writer_per_table(workspace_tables, fake_root)


def test_the_judged_items_are_kept_by_triggers_alone(workspace_tables, tmp_path):
    """No module writes the judged items or their sums (the V4 triggers do, in the write's
    own transaction: tests/engine/judging/test_judging_counted.py), and the doc says so."""
    kept = {
        "judged_items",
        "judged_model_dialect",
        "judged_dialect_question",
        "judged_dialect_score",
    }
    assert kept <= workspace_tables
    assert not kept & set(writers_in_code(workspace_tables))
    assert all(writers_in_doc()[t] == set() for t in kept)
    with Workspace(tmp_path / "w.sqlite") as ws:
        triggers = {
            r[0]
            for r in ws.conn.execute("SELECT tbl_name FROM sqlite_master WHERE type = 'trigger'")
        }
    assert {"judgments", "human_annotations", "responses", "judged_items"} <= triggers
