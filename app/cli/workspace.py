"""Workspace commands: ``init`` and ``status``."""

from __future__ import annotations

from app.cli import stages
from app.cli.output import add_json, emit
from engine.workspace.api import Workspace


def register(sub) -> None:
    p = sub.add_parser("init", help="create a workspace and register the embedded default model")
    p.add_argument(
        "--no-default-model",
        action="store_true",
        help="do not assemble/register the embedded Gemma 3 270M model",
    )
    p.set_defaults(func=cmd_init)

    p = sub.add_parser("status", help="totals per entity and per-dialect counts")
    add_json(p, "print one JSON document")
    p.add_argument(
        "--schema", action="store_true", help="also every table and view: rows and columns"
    )
    p.set_defaults(func=cmd_status)


def cmd_init(args, ctx) -> int:
    ws: Workspace = ctx.workspace(create=True)
    if not args.no_default_model:
        stages.llm().ensure_embedded_default(ws)
    print(f"workspace ready: {ws.path} (schema {ws.schema_version})")
    return 0


def cmd_status(args, ctx) -> int:
    ws = ctx.workspace()
    status = ws.status()
    if args.schema:
        status["schema"] = ws.schema()
    if emit(ctx, args, status):
        return 0
    print(f"workspace {status['workspace']} (schema {status['schema_version']})")
    for table, n in status["totals"].items():
        print(f"  {table:<18} {n:>8}")
    if status["pairs_by_dialect"]:
        print("sentence pairs by dialect:")
        for dialect, info in status["pairs_by_dialect"].items():
            splits = ", ".join(f"{k} {v}" for k, v in info["splits"].items())
            print(
                f"  {dialect:<12} {info['items']:>7} items, {info['pairs']:>7} references"
                f"  ({splits})"
            )
    if status["variants_by_dialect"]:
        print("question variants by dialect:")
        for dialect, by_status in status["variants_by_dialect"].items():
            print(f"  {dialect:<12} " + ", ".join(f"{k} {v}" for k, v in by_status.items()))
    for model in status["models"]:
        print(
            f"model: {model['name']} [{model['kind']}]"
            + (" (default)" if model["is_default"] else "")
        )
    for t in status.get("schema", []):
        columns = ", ".join(
            f"{c['name']} {c['type'] or 'any'}" + (" (key)" if c["pk"] else "")
            for c in t["columns"]
        )
        print(f"{t['type']} {t['name']} ({t['rows']:,} rows): {columns}")
    return 0


# where this module's sub-commands and ``import`` kinds sit in ``upabhasha --help``
# (app/cli/registry.py gathers every stage's)
COMMANDS = [(10, register)]
IMPORTS: list = []
