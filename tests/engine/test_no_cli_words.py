"""The engine names no command-line option and no ``upabhasha`` command in what it says.

Rule: no string literal under ``engine/`` — f-string parts included — holds an option
(``--`` then a letter, not inside a word) or ``upabhasha`` followed by a command word.
Docstrings and comments are exempt: they are read by developers, who use the CLI's words, and
never reach a user. Arguments the engine passes to *other* programs are listed in
:data:`OTHER_PROGRAMS`. A message names a setting with :func:`engine.errors.setting` and a
step with :func:`engine.errors.step`; each front end words them (``app/cli/hints.py``,
``widgets/common/hints.py``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from engine.errors import Setting, Step

ROOT = Path(__file__).resolve().parents[2]
CLI_WORDS = re.compile(r"(?<![\w-])--[a-z]|\bupabhasha [a-z]")

# (module, literal): options of programs the engine runs, not of upabhasha
OTHER_PROGRAMS = {
    ("engine/llm/models/gpu_plan.py", "--query-gpu=name,memory.free,memory.total"),
    ("engine/llm/models/gpu_plan.py", "--format=csv,noheader,nounits"),
}


def docstrings(tree: ast.AST) -> set[int]:
    """ids of the docstring nodes of a module, its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body
        ):
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def cli_words_in(path: Path, root: Path = ROOT) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = docstrings(tree)
    name = path.relative_to(root).as_posix()
    return [
        f"{name}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and (name, node.value) not in OTHER_PROGRAMS
        and CLI_WORDS.search(node.value)
    ]


def test_no_engine_string_names_a_cli_option_or_command():
    found = [hit for path in sorted((ROOT / "engine").rglob("*.py")) for hit in cli_words_in(path)]
    assert found == [], "\n".join(found)


def test_the_rule_catches_an_option_and_a_command_but_not_a_docstring(tmp_path):
    path = tmp_path / "engine" / "planted.py"
    path.parent.mkdir()
    path.write_text(
        '"""``--ok`` in a docstring, as is ``upabhasha judge``."""\n'
        "# --fine in a comment\n"
        'A = "use --accept-scale"\n'
        "B = f\"run 'upabhasha judge' {A}\"\n"
        'C = "a well-known--dash, and x-y --1"\n',
        encoding="utf-8",
    )
    hits = cli_words_in(path, tmp_path)
    assert [h.split(": ", 1)[0] for h in hits] == ["engine/planted.py:3", "engine/planted.py:4"]


def test_every_setting_and_step_has_cli_words():
    from app.cli.hints import OPTIONS, STEP_COMMANDS

    assert set(OPTIONS) == set(Setting)
    assert set(STEP_COMMANDS) == set(Step)


def test_every_setting_and_step_has_gui_words():
    from widgets.common import hints

    assert set(hints.controls()) | set(hints.setting_words()) == set(Setting)
    assert not set(hints.controls()) & set(hints.setting_words())
    assert set(hints.actions()) | set(hints.step_words()) == set(Step)
    assert not set(hints.actions()) & set(hints.step_words())
