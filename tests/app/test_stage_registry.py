"""The stage lists against the layers: app/cli/registry.py (front ends) and
engine/workspace/stages.py (schema and topics) run bottom-up through ``.importlinter``'s
engine-stages levels, name the same stages, and leave out no stage's declarations."""

from __future__ import annotations

import configparser
import importlib
from pathlib import Path

from app.cli import registry
from engine.workspace import stages

ROOT = Path(__file__).resolve().parents[2]


def _levels() -> dict[str, int]:
    """engine stage -> its level, 0 at the bottom (the cross-cutting modules)."""
    parser = configparser.ConfigParser()
    parser.read(ROOT / ".importlinter", encoding="utf-8")
    lines = parser["importlinter:contract:engine-stages"]["layers"].strip().split("\n")
    levels = {}
    for level, line in enumerate(reversed(lines)):
        for name in line.replace("|", ":").split(":"):
            levels[name.strip().removeprefix("engine.")] = level
    return levels


def test_the_front_ends_list_runs_bottom_up_through_the_layers():
    levels = _levels()
    names = [stage.name for stage in registry.STAGES]
    assert set(names) <= set(levels), set(names) - set(levels)
    assert [levels[n] for n in names] == sorted(levels[n] for n in names)
    assert len(names) == len(set(names))


def test_the_engine_list_runs_bottom_up_and_names_front_ended_stages():
    levels = _levels()
    names = [stage.name for stage in stages.STAGES]
    assert [levels[n] for n in names] == sorted(levels[n] for n in names)
    front = [stage.name for stage in registry.STAGES]
    assert [n for n in front if n in names] == names  # the same stages, in the same order


def test_every_stage_s_declarations_are_in_the_lists():
    listed_cli = {module.__name__ for stage in registry.STAGES for module in stage.cli}
    for path in sorted((ROOT / "app" / "cli").glob("[!_]*.py")):  # not __main__
        module = importlib.import_module(f"app.cli.{path.stem}")
        if hasattr(module, "COMMANDS") or hasattr(module, "IMPORTS"):
            assert module.__name__ in listed_cli, f"{path} declares commands but is not listed"
    listed_widgets = {stage.widgets for stage in registry.STAGES if stage.widgets}
    for path in sorted((ROOT / "widgets").glob("*/__init__.py")):
        text = path.read_text(encoding="utf-8")
        if any(name in text for name in ("PANELS", "IMPORT_PAGES", "STUDY_ENTRIES")):
            assert f"widgets.{path.parent.name}" in listed_widgets, path
    for stage in registry.STAGES:
        if stage.widgets:
            assert stage.widgets == f"widgets.{stage.name}"
