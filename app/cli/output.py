"""What the CLI's stage modules share: their repeated argparse options and their ending
(``--json`` prints one JSON document, otherwise text)."""

from __future__ import annotations

import argparse
import math

# The file kinds every importer reads (engine.importing.tabular); ``--file-format`` overrides
# the suffix with one of them.
FILE_FORMATS = ("csv", "tsv", "json", "jsonl", "xlsx")


def csv_list(text: str) -> list[str]:
    """A comma-separated option value as its non-empty, stripped parts (an argparse
    ``type=``): a value with none ('' or ',,,') is refused, not read as "the default"."""
    parts = [v.strip() for v in text.split(",") if v.strip()]
    if not parts:
        raise argparse.ArgumentTypeError(f"{text!r} names nothing; give comma-separated values")
    return parts


def add_json(p: argparse.ArgumentParser, help: str | None = None) -> None:
    p.add_argument("--json", action="store_true", help=help)


def add_quiet(p: argparse.ArgumentParser, help: str | None = "no progress line") -> None:
    p.add_argument("--quiet", action="store_true", help=help)


def add_file_format(p: argparse.ArgumentParser, help: str | None = "override the file suffix"):
    p.add_argument("--file-format", choices=FILE_FORMATS, help=help)


def emit(ctx, args, data, text: str | None = None) -> bool:
    """The ending of a command: with ``--json`` print ``data`` as one JSON document and
    return True; otherwise print ``text`` (when given) and return False, so that a command
    with a longer text part writes ``if emit(ctx, args, data): return 0`` before it."""
    if args.json:
        ctx.emit_json(data)
        return True
    if text is not None:
        print(text)
    return False


def add_summary_options(p: argparse.ArgumentParser) -> None:
    """``--json`` and ``--quiet`` of a long, resumable step."""
    add_json(p, "print a JSON summary")
    add_quiet(p)


def fmt(value, digits: int = 2) -> str:
    """A figure for a text table: ``n/a`` for a missing or NaN value."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{value:.{digits}f}"


def run_line(label: str, s: dict, noun: str, *, cached: bool = True) -> str:
    """One run of a resumable step: ``LABEL: run N, DONE/ITEMS NOUN (new, from cache, errors)``,
    marked when it is incomplete."""
    from_cache = f"{s['cached']} from cache, " if cached else ""
    return (
        f"{label}: run {s['run_id']}, {s['done_before'] + s['done_now']}/{s['items']} {noun} "
        f"({s['done_now']} new, {from_cache}{s['errors']} errors)"
        f"{'' if s['complete'] else ' - incomplete, run again'}"
    )
