"""``upabhasha notes add TEXT``, ``upabhasha notes count`` and the model step
``upabhasha gist-notes``. The study's front door is imported when a command runs, not when
the parser is built (as app/cli/stages.py does for the built-in stages): ``--help`` waits
for no stage it does not use."""

from __future__ import annotations

from app.cli.arguments import given, positive_int
from app.cli.context import runs_outcome
from app.cli.output import add_summary_options, emit, run_line


def register(sub) -> None:
    p = sub.add_parser("notes", help="field notes of the fourth study")
    p.add_argument("action", choices=("add", "count"))
    p.add_argument("text", nargs="?", default="")
    p.set_defaults(func=run)


def run(args, ctx) -> int:
    from tests.fourth_study.api import add_note, count_notes

    ws = ctx.workspace()
    if args.action == "add":
        add_note(ws, args.text)
    print(count_notes(ws))
    return 0


def register_gist(sub) -> None:
    p = sub.add_parser("gist-notes", help="each model says what every field note is about")
    p.add_argument("--model", action="append", metavar="NAME", help="default: the default model")
    p.add_argument("--limit", type=positive_int, metavar="N", help="only the first N notes")
    p.add_argument("--max-tokens", type=positive_int, help="longest reply (default: 8)")
    add_summary_options(p)
    p.set_defaults(func=cmd_gist, build_request=gist_request)


def gist_request(args):
    """The request ``upabhasha gist-notes`` runs (options left out keep its defaults)."""
    from tests.fourth_study.api import GistRequest

    return GistRequest(
        **given(models=args.model or (), limit=args.limit, max_tokens=args.max_tokens)
    )


def cmd_gist(args, ctx) -> int:
    from engine.steps.tasks import run_request_at  # the one runner of every stage's request

    result = run_request_at(
        str(ctx.workspace().path),
        gist_request(args),
        progress=ctx.progress_printer("notes", quiet=args.quiet or args.json),
    )
    if not emit(ctx, args, result.as_dict()):
        for s in result.runs:
            print(run_line(s["model"], s, "notes"))
    return runs_outcome(ctx, "gist-notes", list(result.runs), "notes")


def smoke(ws, model: dict) -> dict:
    """Its step of the smoke test (app.smoke_pipeline): one note, read by ``model``."""
    from tests.fourth_study.api import GistRequest, add_note

    add_note(ws, "smoke test")
    result = GistRequest(models=(model["name"],), max_tokens=4).run(ws)
    if not all(run["complete"] for run in result.runs):
        raise RuntimeError(f"the notes were not all read: {result.runs}")
    return {"notes_read": sum(run["done_now"] for run in result.runs)}


COMMANDS = [(155, register), (156, register_gist)]  # after replicate, before demo
IMPORTS: list = []
