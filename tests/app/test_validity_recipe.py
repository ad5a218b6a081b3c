"""The judge-validity stage was added as the recipe says (docs/design.md, "A study stage is
one unit"): its own folders, one entry in each stage list (and its engine-stages level in
.importlinter), and nothing else in the product names it; with those entries it is
everywhere a built-in study is: its step, request, report section, codes, command, batch
files and its table on its own track, in a new workspace and in an existing one."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from app.cli import build_parser
from engine.steps.api import request_kinds, step_names
from engine.workspace import stages
from engine.workspace.store import Workspace

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("engine", "app", "widgets", "resources", "packaging", "bench", "scripts")
# what the stage calls itself: its packages, table, run kind, classes
NAMES = (
    "engine.validity",
    "app.cli.validity",
    "widgets.validity",
    "validity_cards",
    "judge_validity",
    "ValidityRequest",
    "ValidityCard",
    'Stage("validity"',  # its entries in the two lists
    'StageSchema.of("validity"',
)
OWN = ("engine/validity/", "app/cli/validity.py", "widgets/validity/")
LISTS = ("engine/workspace/stages.py", "app/cli/registry.py")


def test_only_its_own_folders_and_the_two_lists_name_the_stage():
    naming = set()
    for folder in PRODUCT:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in {".py", ".po", ".pot", ".toml", ".txt", ".md"}:
                text = path.read_text(encoding="utf-8", errors="replace")
                if any(n in text for n in NAMES):
                    naming.add(path.relative_to(ROOT).as_posix())
    others = {p for p in naming if not p.startswith(OWN)}
    assert others == set(LISTS), others
    assert "engine.validity" in (ROOT / ".importlinter").read_text(encoding="utf-8")


def test_with_its_entries_it_is_everywhere_a_built_in_study_is(tmp_path):
    assert "validity" in step_names()
    assert any(kind.STEP == "validity" for kind in request_kinds())
    assert "engine.validity.report:report_parts" in stages.report_sections()
    codes = stages.labelled_codes()
    assert codes["validity_status"] == ("pass", "fail", "unmeasured")
    assert {"order", "retest", "emptied"} <= set(codes["validity_check"])
    commands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert "validity" in commands
    export = build_parser().parse_args(["batch", "export", "validity", "--per-dialect", "3"])
    assert export.step == "validity"

    # its track: created in a new workspace, and in one made before the stage existed
    Workspace(tmp_path / "new.sqlite").close()
    old = tmp_path / "old.sqlite"
    Workspace(old).close()
    with sqlite3.connect(old) as conn:
        conn.execute("DROP TABLE validity_cards")
        conn.execute("DELETE FROM stage_versions WHERE stage = 'validity'")
    conn.close()
    Workspace(old).close()
    for path in (tmp_path / "new.sqlite", old):
        with sqlite3.connect(path) as conn:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
            (version,) = conn.execute(
                "SELECT version FROM stage_versions WHERE stage = 'validity'"
            ).fetchone()
        conn.close()
        assert "validity_cards" in tables and version == 1
