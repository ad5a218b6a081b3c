"""The front ends' layering (docs/design.md, "Layering") where one import-linter contract cannot
say it, checked over grimp's import graph (the graph import-linter builds; grimp ships with it).

- ``widgets.<stage>`` uses the engine through its own stage's front doors (``api``/``tasks``),
  the workspace front door (every panel's input is a ``Workspace``) and the cross-cutting
  modules; among the widgets, its own stage and ``widgets.common``. A panel that honestly needs
  another stage is listed in ``ALSO_NEEDS`` with the reason. A stage's import pages are its
  own (widgets/<stage>/__init__.py), so a new study adds nothing here.
- A front end uses only the names a front door lists in its ``__all__``: the front door is a
  deliberate surface, not whatever its module happens to import.
"""

from __future__ import annotations

import ast
import configparser
import importlib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent


def cross_cutting_packages() -> tuple[str, ...]:
    """The cross-cutting modules: the last level of ``.importlinter``'s engine-stages layers,
    the one list that this test and docs/design.md follow."""
    parser = configparser.ConfigParser()
    parser.read(ROOT / ".importlinter", encoding="utf-8")
    layers = parser["importlinter:contract:engine-stages"]["layers"].split("\n")
    return tuple(name.strip() for name in layers[-1].split(":"))


CROSS_CUTTING = cross_cutting_packages()
FRONT_DOORS = ("api", "tasks")
# widget package -> {engine stage it may also use through its front doors: why}
ALSO_NEEDS = {
    "common": {
        "samples": "the standalone runner opens a panel on sample data",
        "steps": "a step's dialog exports its request as batch files (batch_files.py)",
    },
    "reports": {
        "samples": "python -m widgets.reports.charts_panel --live streams sample judgments"
    },
    "translation": {
        "importing": "the metrics panel records a human score of an imported scored segment, "
        "and the scored translations' import page runs its import "
        "(scored_import owns the scored segments)"
    },
    "understanding": {
        "llm": "the tasks panel offers the workspace's models to run a task on",
        "importing": "the item-set import page offers the splits every import knows",
    },
}


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph("app", "widgets", "engine", cache_dir=None)


def _cross_cutting(module: str) -> bool:
    return any(module == name or module.startswith(name + ".") for name in CROSS_CUTTING)


def _engine_stage(module: str) -> tuple[str, str] | None:
    """(stage, module name) of ``engine.<stage>.<module>…``; None for engine and cross-cutting."""
    parts = module.split(".")
    return (parts[1], parts[2]) if len(parts) >= 3 else None


def widget_violations(graph) -> list[str]:
    wrong = []
    for module in sorted(graph.find_descendants("widgets")):
        parts = module.split(".")
        stage = parts[1]  # widgets/<stage>/__init__.py declares the stage's panels: checked too
        allowed_stages = {stage, "workspace", *ALSO_NEEDS.get(stage, {})}
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported.startswith("widgets."):
                if imported.split(".")[1] not in (stage, "common"):
                    wrong.append(f"{module} -> {imported}")
            elif imported.startswith("engine.") and not _cross_cutting(imported):
                found = _engine_stage(imported)
                if found is None or found[0] not in allowed_stages or found[1] not in FRONT_DOORS:
                    wrong.append(f"{module} -> {imported}")
    return wrong


def test_each_widget_stage_uses_only_its_own_engine_stage_and_widgets_common(graph):
    assert widget_violations(graph) == []


def test_the_widget_rule_finds_a_panel_reaching_into_another_stage():
    graph = grimp.build_graph("app", "widgets", "engine", cache_dir=None)
    graph.add_import(
        importer="widgets.judging.judge_panel",
        imported="engine.bias.api",
        line_number=1,
        line_contents="import it",
    )
    graph.add_import(
        importer="widgets.judging.judge_panel",
        imported="widgets.bias.bias_panel",
        line_number=1,
        line_contents="import it",
    )
    graph.add_import(
        importer="widgets.judging.judge_panel",
        imported="engine.judging.store",
        line_number=1,
        line_contents="import it",
    )
    assert widget_violations(graph) == [
        "widgets.judging.judge_panel -> engine.bias.api",
        "widgets.judging.judge_panel -> engine.judging.store",
        "widgets.judging.judge_panel -> widgets.bias.bias_panel",
    ]


def _front_door_names_used(path: Path):
    """(line, front door module, name) for every name a file takes from a front door."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    aliases: dict[str, str] = {}  # local name -> front door module
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or not (node.module or "").startswith("engine."):
            continue
        for alias in node.names:
            if node.module.rsplit(".", 1)[-1] in FRONT_DOORS:
                yield node.lineno, node.module, alias.name
            elif alias.name in FRONT_DOORS:
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
        ):
            yield node.lineno, aliases[node.value.id], node.attr


def test_front_ends_use_only_the_names_a_front_door_declares():
    unknown = []
    for path in sorted([*ROOT.glob("app/**/*.py"), *ROOT.glob("widgets/**/*.py")]):
        for line, door, name in _front_door_names_used(path):
            module = importlib.import_module(door)
            public = getattr(module, "__all__", None)
            if door.endswith(".api") and (public is None or name not in public):
                unknown.append(f"{path.relative_to(ROOT)}:{line} {door}.{name}")
            elif door.endswith(".tasks") and (name.startswith("_") or not hasattr(module, name)):
                unknown.append(f"{path.relative_to(ROOT)}:{line} {door}.{name}")
    assert unknown == []


def test_every_front_door_declares_names_it_has():
    for path in sorted(ROOT.glob("engine/*/api.py")):
        module = importlib.import_module(f"engine.{path.parent.name}.api")
        assert module.__doc__, path
        missing = [name for name in module.__all__ if not hasattr(module, name)]
        assert missing == [], path


def test_the_cross_cutting_list_is_the_one_docs_design_shows():
    stage_map = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    line = next(x for x in stage_map.splitlines() if x.startswith("errors · "))
    shown = tuple(part.strip() for part in line.split("  ")[0].split("·"))
    assert tuple(f"engine.{name}" for name in shown) == CROSS_CUTTING


def test_the_engine_root_holds_only_the_cross_cutting_modules():
    root_modules = {p.stem for p in (ROOT / "engine").glob("*.py")} - {"__init__"}
    assert {f"engine.{name}" for name in root_modules} <= set(CROSS_CUTTING)
    assert len(root_modules) <= 3
