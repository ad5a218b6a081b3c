"""Port ``bridge.run(fn, *args, option=…, **task_kwargs)`` calls to the task bridge's API
``bridge.run(fn, args=(…), kwargs={…}, option=…)`` (widgets/common/task_bridge.py).

    python scripts/port_bridge_run.py widgets/bias/bias_panel.py app/annotation_actions.py …

Rewrites, in place, every call of ``.run`` on a name or attribute called ``bridge``,
``sync_bridge`` or ``thread_bridge``: the positional arguments after the function go into
``args=(…)``, keywords that are not the bridge's options (on_done, on_error, on_progress,
label, lane, dialog, replace, quiet) into ``kwargs={…}``. Calls already in the new form are
left alone. Run ``ruff format`` on the files afterwards; calls through other names are not
found (the old form raises TypeError, so the tests point them out).
"""

from __future__ import annotations

import ast
import sys

OPTIONS = {"on_done", "on_error", "on_progress", "label", "lane", "dialog", "replace", "quiet"}
BRIDGES = {"bridge", "sync_bridge", "thread_bridge"}


def _is_bridge_run(node: ast.AST) -> bool:
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "run"
    ):
        return False
    owner = node.func.value
    name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", None)
    return name in BRIDGES


def port_source(source: str) -> tuple[str, int]:
    """The source with its bridge calls ported, and how many were."""
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(line: int, col: int) -> int:  # ast columns count UTF-8 bytes
        return starts[line - 1] + len(lines[line - 1].encode()[:col].decode())

    def text(node: ast.AST) -> str:
        return source[
            offset(node.lineno, node.col_offset) : offset(node.end_lineno, node.end_col_offset)
        ]

    edits = []
    for node in ast.walk(ast.parse(source)):
        if not _is_bridge_run(node) or not node.args:
            continue
        if any(k.arg in ("args", "kwargs") or k.arg is None for k in node.keywords):
            continue  # already ported, or a **splat this tool cannot split
        fn, rest = node.args[0], node.args[1:]
        parts = [text(fn)]
        if rest:
            inner = ", ".join(text(a) for a in rest)
            parts.append(f"args=({inner}{',' if len(rest) == 1 else ''})")
        task_kwargs = [k for k in node.keywords if k.arg not in OPTIONS]
        if task_kwargs:
            parts.append(
                "kwargs={" + ", ".join(f'"{k.arg}": {text(k.value)}' for k in task_kwargs) + "}"
            )
        parts += [f"{k.arg}={text(k.value)}" for k in node.keywords if k.arg in OPTIONS]
        new = f"{text(node.func)}({', '.join(parts)})"
        edits.append(
            (
                offset(node.lineno, node.col_offset),
                offset(node.end_lineno, node.end_col_offset),
                new,
            )
        )
    for start, end, new in sorted(edits, reverse=True):
        source = source[:start] + new + source[end:]
    return source, len(edits)


def main(argv: list[str] | None = None) -> int:
    for path in argv if argv is not None else sys.argv[1:]:
        with open(path, encoding="utf-8") as fh:
            ported, count = port_source(fh.read())
        if count:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(ported)
        print(f"{path}: {count} call(s) ported")
    return 0


if __name__ == "__main__":
    sys.exit(main())
