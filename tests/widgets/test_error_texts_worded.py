"""No panel shows an exception's text without the hint helper: an engine message names the
settings and steps it refers to as ``⟦…⟧`` references (engine/errors.py), and only
``widgets.common.hints.for_gui`` (or the bridge's ``describe_error``, which uses it) words them
as the window does. A scan of every module under widgets/: an exception caught (``except …
as exc``) or received (a parameter typed as an exception, an ``on_error`` lambda) and then
made into text (``str(exc)``, an f-string, ``.format(…exc…)``, ``%``) must be so only inside
one of those helpers or a logging call."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HELPERS = {"for_gui", "describe_error"}
LOGGERS = {"log", "logger", "logging"}
# Raw exception texts still shown by modules other helpers own, how many in each: fixing
# one is wrapping it in for_gui(str(exc)) or describe_error(exc) and lowering its count here.
KNOWN = {
    "widgets/translation/metrics_panel.py": 1,
}


def _error_scopes(tree: ast.AST):
    """(name, statements) for every place an exception reaches code under a name."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ExceptHandler) and node.name:
            yield node.name, node.body
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for arg in node.args.args + node.args.kwonlyargs:
                annotation = ast.unparse(arg.annotation) if arg.annotation else ""
                if "Exception" in annotation or "Error" in annotation:
                    yield arg.arg, node.body
        elif isinstance(node, ast.keyword) and node.arg == "on_error":
            if isinstance(node.value, ast.Lambda) and node.value.args.args:
                yield node.value.args.args[0].arg, [node.value.body]


def _is(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _shown_whole(name_node: ast.AST, top: ast.AST, parents: dict) -> bool:
    """Whether the exception itself (not ``type(exc)`` or ``exc.strerror``) reaches ``top``."""
    node = name_node
    while node is not top:
        node = parents[node]
        if isinstance(node, (ast.Call, ast.Attribute, ast.Subscript, ast.Compare)):
            return False
    return True


def _tested(node: ast.AST, parents: dict) -> bool:
    """Whether ``node`` is only looked at (a condition, a comparison), not shown."""
    parent = parents.get(node)
    if isinstance(parent, (ast.If, ast.IfExp, ast.While)):
        return node is parent.test
    return isinstance(parent, (ast.Compare, ast.UnaryOp))


def _made_text(node: ast.AST, name: str, parents: dict) -> bool:
    """Whether ``node`` turns the exception ``name`` into text."""
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name) and func.id in ("str", "repr"):
            return any(_is(a, name) for a in node.args) and not _tested(node, parents)
        if isinstance(func, ast.Attribute) and func.attr == "format":
            return any(_is(v, name) for v in [*node.args, *(k.value for k in node.keywords)])
        return False
    if isinstance(node, ast.FormattedValue) or (
        isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod)
    ):
        part = node.value if isinstance(node, ast.FormattedValue) else node.right
        return any(_is(n, name) and _shown_whole(n, node, parents) for n in ast.walk(part))
    return False


def _worded(node: ast.AST, parents: dict) -> bool:
    """Whether ``node`` sits inside a call of the hint helpers or of a logger."""
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in HELPERS:
                return True
            if isinstance(func, ast.Attribute) and (
                func.attr in HELPERS
                or (isinstance(func.value, ast.Name) and func.value.id in LOGGERS)
            ):
                return True
    return False


def raw_error_texts(source: str) -> list[int]:
    """The lines of ``source`` that make an exception into text without the hint helper."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    return sorted(
        {
            node.lineno
            for name, body in _error_scopes(tree)
            for statement in body
            for node in ast.walk(statement)
            if _made_text(node, name, parents) and not _worded(node, parents)
        }
    )


def test_the_scan_tells_a_raw_error_text_from_a_worded_one():
    catch = "try:\n    f()\nexcept ValueError as exc:\n    "
    raw = [
        "label.setText(f'failed: {exc}')",
        "label.setText(str(exc))",
        "label.setText(_('failed: {error}').format(error=exc))",
        "label.setText('failed: %s' % exc)",
    ]
    worded = [
        "label.setText(for_gui(str(exc)))",
        "label.setText(_('failed: {error}').format(error=describe_error(exc)))",
        "log.warning('failed: %s', exc)",
        "label.setText(f'{type(exc).__name__}')",
        "label.setText(describe_error(exc) if str(exc) else '')",
        "busy = 'locked' in str(exc)",
    ]
    for line in raw:
        assert raw_error_texts(catch + line + "\n") == [4], line
    for line in worded:
        assert raw_error_texts(catch + line + "\n") == [], line
    received = "def failed(self, exc: BaseException):\n    self.label.setText(str(exc))\n"
    assert raw_error_texts(received) == [2]
    callback = "bridge.run(f, on_error=lambda exc: label.setText(f'{exc}'))\n"
    assert raw_error_texts(callback) == [1]


def test_no_panel_shows_an_exception_text_without_the_hint_helper():
    found: dict[str, list[int]] = {}
    for path in sorted((ROOT / "widgets").rglob("*.py")):
        lines = raw_error_texts(path.read_text(encoding="utf-8"))
        if lines:
            found[path.relative_to(ROOT).as_posix()] = lines
    new = {name: lines for name, lines in found.items() if len(lines) > KNOWN.get(name, 0)}
    assert new == {}, "word these with widgets.common.hints.for_gui or describe_error"
