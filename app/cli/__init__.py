"""``upabhasha [--workspace/-w PATH] COMMAND``.

Each stage module (``app/cli/<stage>.py``, one per engine stage) declares its sub-commands
(``COMMANDS``) and kinds of ``upabhasha import WHAT`` (``IMPORTS``), gathered in order by
:mod:`app.cli.registry`; a command is a function ``run(args, ctx) -> int``. A :class:`engine.errors.UserError` becomes
one line on stderr and exit code 2; any other exception is logged with its traceback to
the log file and reported as one line with exit code 1. stdout carries only the command's
output (``--json`` prints one JSON document).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys

from app.cli import registry
from app.cli.arguments import OneLineParser, state_ranges
from app.cli.context import CliContext, incomplete
from app.cli.hints import for_cli
from app.logging_setup import setup_logging
from engine.errors import StepIncomplete, UserError
from engine.text.redact import redact

log = logging.getLogger(__name__)

DEFAULT_WORKSPACE = "upabhasha.sqlite"


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="upabhasha",
        description="Measure how much worse LLMs answer questions in Bengali dialects.",
    )
    parser.add_argument(
        "-w",
        "--workspace",
        default=None,
        help="workspace file (default: upabhasha.sqlite in this folder)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log to stderr too")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    imports = sub.add_parser("import", help="import corpora, questions, scored translations, …")
    import_sub = imports.add_subparsers(dest="import_command", metavar="WHAT", required=True)
    for register in registry.commands():  # every stage's, in their places (app/cli/registry.py)
        register(sub)
    for register_import in registry.imports():
        register_import(import_sub)
    state_ranges(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.workspace_given = args.workspace is not None  # `-w X demo` uses X
    if args.workspace is None:
        args.workspace = DEFAULT_WORKSPACE
    log_file = setup_logging(verbose=args.verbose)
    ctx = CliContext(args.workspace)
    try:
        return int(args.func(args, ctx) or 0)
    except StepIncomplete as exc:  # e.g. the judge of judge/calibrate/eval-translation
        return incomplete(ctx, f"{args.command}: {redact(str(exc))}")
    except UserError as exc:
        ctx.end_progress_line()
        print(f"upabhasha: error: {for_cli(redact(str(exc)))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `upabhasha export … | head`: the reader left; not an error
        _silence_stdout()
        return 0
    except KeyboardInterrupt:
        ctx.end_progress_line()
        print(
            "upabhasha: interrupted; finished work is saved, run the command again to resume",
            file=sys.stderr,
        )
        return 130
    except Exception as exc:  # noqa: BLE001 - the last line of defence, logged in full
        ctx.end_progress_line()
        log.exception("internal error in %s", args.command)
        print(
            f"upabhasha: internal error: {type(exc).__name__}: {for_cli(redact(str(exc)))} "
            f"(details in {log_file})",
            file=sys.stderr,
        )
        return 1
    finally:
        ctx.close()


def _silence_stdout() -> None:
    """Point stdout at devnull so the interpreter's final flush raises no second error."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
