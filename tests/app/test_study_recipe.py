"""The recipe for a new study, checked on the fourth one (tests/fourth_study): besides its
own folders it needs one entry in each stage list and its entries in the Bengali catalogue,
and nothing else in the product names it."""

from __future__ import annotations

import sys
from pathlib import Path

from app.cli import build_parser
from app.cli.registry import smoke_steps
from app.stage_widgets import panels, study_entries
from engine.steps.api import request_kinds, step_names
from engine.workspace import stages
from tests.fourth_study.recipe import register

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("engine", "app", "widgets", "resources", "packaging", "bench", "scripts")
# what the study calls itself: its package, table, topic, step, run kind, classes
NAMES = ("fourth_study", "field_notes", "gist-notes", "note_gist", "GistRequest", "NotesPanel")


def test_a_new_study_needs_the_two_stage_lists_and_the_catalogue_only(monkeypatch, tmp_path):
    touched = register(monkeypatch, tmp_path / "locale")
    assert touched == [
        "engine/workspace/stages.py",  # STAGES: its declarations (tests/fourth_study/schema.py)
        "app/cli/registry.py",  # STAGES: its command module and widgets package
        "resources/locale/bn/LC_MESSAGES/upabhasha.po",  # its messages in Bengali
    ]
    for folder in PRODUCT:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in {".py", ".po", ".pot", ".toml", ".txt", ".md"}:
                text = path.read_text(encoding="utf-8", errors="replace")
                named = [n for n in NAMES if n in text]
                assert not named, f"{path.relative_to(ROOT)} names the fourth study: {named}"

    # and with those entries, it is everywhere the built-in studies are
    assert "gist-notes" in step_names()
    assert any(kind.__module__ == "tests.fourth_study.request" for kind in request_kinds())
    assert "tests.fourth_study.report:report_parts" in stages.report_sections()
    assert stages.labelled_codes()["note_origin"] == ("typed", "imported")
    commands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert {"notes", "gist-notes"} <= set(commands)
    assert any(e.open.__module__ == "tests.fourth_study.widgets" for e in study_entries())
    assert any(p.place == 130 for p in panels())
    assert [name for name, _step in smoke_steps()][-1] == "notes"
    loaded = {name for name in sys.modules if name.startswith("tests.fourth_study")}
    assert all(
        Path(sys.modules[name].__file__ or "").is_relative_to(ROOT / "tests" / "fourth_study")
        for name in loaded
    )
