"""The stages' schema declarations: leaf data modules, and a schema that is the released one."""

from __future__ import annotations

import ast
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from engine.workspace import stages
from engine.workspace.schema import SCHEMA_VERSION
from engine.workspace.store import Workspace

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "tests" / "fixtures" / "schema"


def _schema_modules() -> list[Path]:
    return sorted(p for p in (ROOT / "engine").glob("*/schema.py") if p.parent.name != "workspace")


def test_every_schema_module_is_listed_and_imports_nothing():
    listed = {name for name in vars(stages) if name not in {"shared"}}
    for path in _schema_modules():
        assert path.parent.name in listed, f"{path} is not in engine.workspace.stages.STAGES"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imports = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
        assert imports == [], f"{path} imports: a schema module is data only"


def test_reading_the_declarations_loads_no_stage_code():
    code = (
        "import sys; import engine.workspace.stages; "
        "print(sorted(m for m in sys.modules if m.startswith('engine.') "
        "and not m.startswith('engine.workspace') and not m.endswith('.schema') "
        "and m.count('.') > 1))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


def _master(conn: sqlite3.Connection) -> set[tuple]:
    return set(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"))


def test_a_fresh_workspace_has_the_released_schema_plus_the_stage_track(tmp_path):
    # v4.sqlite was written by a fresh workspace of the last release: read without migrating
    released = sqlite3.connect(FIXTURES / "v4.sqlite")
    try:
        before = _master(released)
    finally:
        released.close()
    with Workspace(tmp_path / "fresh.sqlite") as ws:
        after = _master(ws.conn)
        assert ws.schema_version == SCHEMA_VERSION
    added = {row[1] for row in after - before}
    assert {"stage_versions", "sqlite_autoindex_stage_versions_1"} <= added
    # everything else is created by a stage's own track
    track_sql = " ".join(s for stage in stages.tracks() for step in stage.migrations for s in step)
    for name in added - {"stage_versions", "sqlite_autoindex_stage_versions_1"}:
        table = name.removeprefix("sqlite_autoindex_").rsplit("_", 1)[0]
        assert f" {name} " in track_sql or f" {table} (" in track_sql, name
    assert before - after == set()


def test_topics_come_from_every_stage_once():
    names = stages.topics()
    assert len(names) == len(set(names))
    assert {"questions", "models", "judgments", "probes", "decisions", "task_runs"} <= set(names)


def test_a_statement_for_an_unreleased_version_is_refused(monkeypatch):
    late = stages.StageSchema("late", released={SCHEMA_VERSION + 1: ["CREATE TABLE late (x)"]})
    monkeypatch.setattr(stages, "STAGES", [*stages.STAGES, late])
    with pytest.raises(ValueError, match="unreleased schema versions"):
        stages.migrations()


def test_label_codes_come_from_every_stage_and_a_shared_kind_has_both(monkeypatch):
    codes = stages.labelled_codes()
    assert codes["regime"] == ("zero", "few", "cot") and "probe_mode" in codes
    late = stages.StageSchema("late", labels={"regime": ("cot", "self-ask"), "late_kind": ("a",)})
    monkeypatch.setattr(stages, "STAGES", [*stages.STAGES, late])
    codes = stages.labelled_codes()
    assert codes["regime"] == ("zero", "few", "cot", "self-ask") and codes["late_kind"] == ("a",)


def test_each_stage_declares_its_steps_once():
    steps = stages.requests()
    assert set(steps) == {
        "generate",
        "translate",
        "eval-translation",
        "probe",
        "run-task",
        "judge",
        "validity",
    }
    clash = stages.StageSchema("late", requests={"probe": "late.request:Probe"})
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(stages, "STAGES", [*stages.STAGES, clash])
        with pytest.raises(ValueError, match="declares steps another has"):
            stages.requests()
