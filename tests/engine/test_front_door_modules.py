"""The two front-door modules of each engine stage keep to their roles (docs/design.md,
"Front doors"): ``api.py`` re-exports its owners' functions and holds no SQL of its own;
``tasks.py`` declares ``__all__``, and its background entry points, the functions that take
the workspace path, are named ``<verb>_<object>_at(workspace_path, …)``. No function of either
returns a bare ``dict``: what it returns is a dataclass or a TypedDict that names its keys.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
APIS = sorted(ENGINE.glob("*/api.py"))
TASKS = sorted(ENGINE.glob("*/tasks.py"))

_SQL = re.compile(r"\b(?:SELECT|INSERT|UPDATE|DELETE)\b")
WORKSPACE_PATH = "workspace_path"


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def sql_strings(source: str) -> list[tuple[int, str]]:
    """(line, text) of every string constant (f-string parts included) that reads or writes
    a table."""
    return [
        (node.lineno, node.value)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and _SQL.search(node.value)
    ]


def declared_all(source: str) -> list[str] | None:
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            return list(ast.literal_eval(node.value))
    return None


def misnamed_tasks(source: str) -> list[str]:
    """Public functions that take the workspace path first but do not end in ``_at``, and
    ``*_at`` functions that do not take it first."""
    wrong = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.FunctionDef) or node.name.startswith("_"):
            continue
        first = node.args.args[0].arg if node.args.args else None
        if (first == WORKSPACE_PATH) != node.name.endswith("_at"):
            wrong.append(f"{node.name}({first or ''}…)")
    return wrong


_BARE = {"dict", "Dict"}


def _names_bare_dict(annotation: ast.expr) -> bool:
    """The annotation names ``dict`` without its key and value types somewhere (``dict``,
    ``list[dict]``, ``dict | None``, ``Optional[dict]``; a string annotation is read too)."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return _names_bare_dict(ast.parse(annotation.value, mode="eval").body)
    subscripted = {
        id(node.value) for node in ast.walk(annotation) if isinstance(node, ast.Subscript)
    }
    return any(
        (isinstance(node, ast.Name) and node.id in _BARE)
        or (isinstance(node, ast.Attribute) and node.attr in _BARE)
        for node in ast.walk(annotation)
        if id(node) not in subscripted
    )


def bare_dict_returns(source: str) -> list[str]:
    """Functions (at any depth) annotated to return a bare dict, as ``name -> annotation``."""
    return [
        f"{node.name} -> {ast.unparse(node.returns)}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.returns is not None
        and _names_bare_dict(node.returns)
    ]


def test_every_stage_has_both_front_doors_found():
    assert len(APIS) >= 8 and len(TASKS) >= 8


@pytest.mark.parametrize("api", APIS, ids=_rel)
def test_api_holds_no_sql(api):
    found = sql_strings(api.read_text(encoding="utf-8"))
    assert not found, (
        f"{_rel(api)} writes SQL itself; move the query to the module that owns the table and "
        f"re-export it: {found}"
    )


@pytest.mark.parametrize("tasks", TASKS, ids=_rel)
def test_tasks_declares_all(tasks):
    source = tasks.read_text(encoding="utf-8")
    names = declared_all(source)
    assert names is not None, f"{_rel(tasks)} has no __all__"
    public = {
        node.name
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
    }
    assert public <= set(names), f"{_rel(tasks)}: {sorted(public - set(names))} not in __all__"


@pytest.mark.parametrize("tasks", TASKS, ids=_rel)
def test_background_tasks_follow_one_naming_rule(tasks):
    wrong = misnamed_tasks(tasks.read_text(encoding="utf-8"))
    assert not wrong, f"{_rel(tasks)}: name these <verb>_<object>_at(workspace_path, …): {wrong}"


@pytest.mark.parametrize("front_door", APIS + TASKS, ids=_rel)
def test_front_doors_return_no_bare_dict(front_door):
    found = bare_dict_returns(front_door.read_text(encoding="utf-8"))
    assert not found, (
        f"{_rel(front_door)}: return a dataclass or a TypedDict declared beside the code that "
        f"builds the dict (its keys named), not a bare dict: {found}"
    )


def test_the_bare_dict_check_catches_each_spelling():
    planted = (
        "def a() -> dict: ...\n"
        "def b() -> list[dict]: ...\n"
        "def c() -> dict | None: ...\n"
        "def d() -> 'Optional[dict]': ...\n"
        "def e() -> typing.Dict: ...\n"
        "class K:\n    def f(self) -> tuple[int, dict]: ...\n"
        "def ok() -> dict[str, int]: ...\n"
        "def ok2() -> Report | None: ...\n"
        "def ok3() -> list[dict[str, Any]]: ...\n"
        "def ok4(x: dict): ...\n"
    )
    assert bare_dict_returns(planted) == [
        "a -> dict",
        "b -> list[dict]",
        "c -> dict | None",
        "d -> 'Optional[dict]'",
        "e -> typing.Dict",
        "f -> tuple[int, dict]",
    ]


def test_the_checks_catch_what_they_look_for():
    """Planted sources: SQL in a front door, a missing ``__all__``, a task named
    ``*_task`` that takes the workspace path, an ``*_at`` that does not."""
    planted = (
        'def counts(ws):\n    return ws.query(f"SELECT count(*) FROM {t}")\n'
        "def probe_task(workspace_path, model_id): ...\n"
        "def export_at(path): ...\n"
        "def guess_mapping(columns): ...\n"
    )
    assert [line for line, _text in sql_strings(planted)] == [2]
    assert declared_all(planted) is None
    assert declared_all('__all__ = ["a"]\n') == ["a"]
    assert misnamed_tasks(planted) == ["probe_task(workspace_path…)", "export_at(path…)"]


def _opens_a_workspace(node: ast.FunctionDef) -> bool:
    return any(
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Name)
        and call.func.id == "Workspace"
        for call in ast.walk(node)
    )


# Opening a panel alone (``python -m widgets.<stage>.<panel>``) opens the workspace it shows.
_STANDALONE = {"widgets/common/standalone.py::run_panel"}


def test_no_panel_defines_a_background_task():
    """Background work lives in the stages' tasks.py: no module of widgets/ defines a
    module-level function that opens a workspace (the bridge's tasks do, in a worker)."""
    offenders = []
    for path in sorted((ROOT / "widgets").rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            name = f"{_rel(path)}::{getattr(node, 'name', '')}"
            if (
                isinstance(node, ast.FunctionDef)
                and node.name != "main"
                and name not in _STANDALONE
                and _opens_a_workspace(node)
            ):
                offenders.append(name)
    assert not offenders, f"move these to engine/<stage>/tasks.py: {offenders}"
