"""``upabhasha notes add TEXT`` and ``upabhasha notes count``."""

from __future__ import annotations

from tests.fourth_study.notes import add_note, count_notes


def register(sub) -> None:
    p = sub.add_parser("notes", help="field notes of the fourth study")
    p.add_argument("action", choices=("add", "count"))
    p.add_argument("text", nargs="?", default="")
    p.set_defaults(func=run)


def run(args, ctx) -> int:
    ws = ctx.workspace()
    if args.action == "add":
        add_note(ws, args.text)
    print(count_notes(ws))
    return 0


COMMANDS = [(155, register)]  # after replicate, before demo
IMPORTS: list = []
