"""Model commands (models add/list/inspect, run-prompts): owned by the execution engine."""

from __future__ import annotations


def register(sub) -> None:
    p = sub.add_parser("models", help="manage models")
    msub = p.add_subparsers(dest="models_command", required=True)
    q = msub.add_parser("list", help="models in this workspace")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=cmd_list)


def cmd_list(args, ctx) -> int:
    rows = ctx.workspace().query(
        "SELECT id, name, kind, path, sha256, architecture, quantization, context_length, "
        "has_chat_template, is_default FROM models ORDER BY id")
    if args.json:
        ctx.emit_json(rows)
        return 0
    for r in rows:
        print(f"{r['id']:>3} {r['name']} [{r['kind']}] {r['quantization'] or ''} "
              f"{'(default) ' if r['is_default'] else ''}{r['path'] or ''}")
    return 0
