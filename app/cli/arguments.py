"""Declared ranges of the CLI's options: argparse ``type=`` callables checked while parsing,
before any work starts, so a bad value exits 2 with one line naming the option.

Every number option reads its value with the one grammar of :mod:`engine.scales`
(:func:`~engine.scales.parse_whole`, :func:`~engine.scales.parse_number`: ASCII or Bengali
digits, surrounding white space ignored; Python's ``int`` and ``float`` would take ``8_0``,
``nan``, ``inf`` and other scripts' digits) and has a stated range, shown in its ``--help``
and in README ("Number options"). An output file is checked to be
writable when the command line is parsed (:func:`engine.files.output_path.writable_output`), so
a long computation never ends in a failed write or leaves a partial file.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from engine.errors import UserError
from engine.files.output_path import writable_output
from engine.scales import parse_number, parse_whole
from engine.text.text_rules import folded_name, name_problem

# The requests' bounds (engine.llm.runs.step_request), named here so that parsing a command
# line loads no model code; tests/cli/test_cli_number_options.py checks that the two agree.
MAX_COUNT = 1_000_000_000
MAX_INTEGER = 2**63 - 1
MAX_TOKENS = 1_000_000
MAX_N_SEQ = 4096
MAX_REFILL = 1000
MAX_NAME_CHARS = 200
# the largest magnitude a decimal option takes where nothing narrower is stated
MAX_DECIMAL = 1e9
# bootstrap resamples (1,000 is usual; the bound refuses a slip of the finger)
MAX_RESAMPLES = 100_000


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a bad command line in one line (usage is in ``--help``)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"upabhasha: error: {self.prog}: {message} (see '{self.prog} --help')\n")


def _shown(text: str) -> str:
    return repr(text if len(text) <= 24 else text[:20] + "…")


def int_in(low: int, high: int) -> Callable[[str], int]:
    """A whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        value = parse_whole(text)
        if value is None:
            raise argparse.ArgumentTypeError(f"{_shown(text)} is not a whole number")
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"must be a whole number from {low} to {high}, not {_shown(text.strip())}"
            )
        return value

    parse.__name__ = f"whole number from {low} to {high}"  # argparse names the type
    parse.range_text = f"{low}–{high:,}"  # type: ignore[attr-defined]  # shown in --help
    return parse


positive_int = int_in(1, MAX_COUNT)  # limits, counts, sizes, …
non_negative_int = int_in(0, MAX_COUNT)  # counts where 0 means "none"
seed_int = int_in(0, MAX_INTEGER)  # seeds (stored in run cards and SQLite integers)
row_id = int_in(1, MAX_INTEGER)  # a run's, a judgment's, an item's id
resamples_int = int_in(1, MAX_RESAMPLES)
bootstrap_int = int_in(0, MAX_RESAMPLES)  # 0: no bootstrap
token_budget = int_in(1, MAX_TOKENS)  # --max-tokens


def comma_list(value: str | list | None) -> tuple[str, ...] | None:
    """An option's comma-separated values (a repeated option's too, parsed by
    :func:`app.cli.output.csv_list` or not); None: not given. Options that name things parse
    with ``csv_list``, which refuses a value naming nothing ('' or ',,,') rather than reading
    it as "the default"."""
    if value is None:
        return None
    items = [value] if isinstance(value, str) else value
    parts = [p for item in items for p in ([item] if isinstance(item, str) else item)]
    return tuple(part.strip() for item in parts for part in item.split(",") if part.strip())


def given(**values) -> dict:
    """The request fields an option set (None: not given, the request's default holds)."""
    return {name: value for name, value in values.items() if value is not None}


def add_schedule_options(parser: argparse.ArgumentParser, n_seq_help: str) -> None:
    """``--n-seq`` and ``--refill``: a local model's batch schedule for the step's runs."""
    parser.add_argument("--n-seq", type=int_in(1, MAX_N_SEQ), help=n_seq_help)
    parser.add_argument(
        "--refill",
        type=int_in(1, MAX_REFILL),
        metavar="N",
        help="local models: plan groups of N × --n-seq items whose freed slots take the "
        "group's next item (1: groups of --n-seq decoded whole); default: the faster one "
        "this machine's calibration chose for the step, else 4",
    )


def _plain(value: float) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


def number(text: str) -> float:
    """A finite decimal number (no '8_0', 'nan' or 'inf')."""
    value = parse_number(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"{_shown(text)} is not a number")
    return value


def number_in(
    low: float, high: float, *, low_open: bool = False, high_open: bool = False
) -> Callable[[str], float]:
    """A number in the interval from ``low`` to ``high`` (each end open or closed)."""
    left, right = "(" if low_open else "[", ")" if high_open else "]"

    def parse(text: str) -> float:
        value = number(text)
        below = value <= low if low_open else value < low
        above = value >= high if high_open else value > high
        if below or above:
            raise argparse.ArgumentTypeError(
                f"must be in {left}{low:g}, {high:g}{right}, not {value:g}"
            )
        return value

    parse.__name__ = f"number in {left}{low:g}, {high:g}{right}"
    parse.range_text = f"{left}{_plain(low)}, {_plain(high)}{right}"  # type: ignore[attr-defined]
    return parse


probability_open01 = number_in(0, 1, low_open=True, high_open=True)  # α
share = number_in(0, 1, low_open=True)  # a share that must draw something: (0, 1]
fraction = number_in(0, 1)  # [0, 1]
positive_number = number_in(0, MAX_DECIMAL, low_open=True)  # timeouts, widths
non_negative_number = number_in(0, MAX_DECIMAL)
any_number = number_in(-MAX_DECIMAL, MAX_DECIMAL)  # a score: its own scale is checked later


def state_ranges(parser: argparse.ArgumentParser) -> None:
    """Append each number option's range to its help (every sub-command's too), so that
    ``--help`` states what the parser accepts."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):  # aliases share a parser
                state_ranges(sub)
            continue
        text = getattr(action.type, "range_text", None)
        if text and action.help is not argparse.SUPPRESS and "range " not in (action.help or ""):
            action.help = f"{action.help or ''} (range {text})".strip()


def output_folder(text: str) -> Path:
    """A folder to write into: an existing folder, or a new one whose parent exists (not a
    file or a device such as /etc/passwd or /dev/null)."""
    path = Path(text)
    if not any(ch.isprintable() and not ch.isspace() for ch in text):
        raise argparse.ArgumentTypeError("give a folder name")
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{path}: not a folder (a file or device is there)")
    parent = path if path.is_dir() else path.parent
    if not parent.is_dir():
        raise argparse.ArgumentTypeError(f"{path}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise argparse.ArgumentTypeError(f"{path}: cannot write in {parent}")
    return path


def name_text(text: str) -> str:
    """A name (an annotator's, a reviewer's, a model's) as it will be stored: white space
    folded; no control or bidirectional characters, not empty, at most
    :data:`MAX_NAME_CHARS` characters (the requests' bound, the text rules')."""
    name = folded_name(text)
    problem = name_problem(name)
    if problem is not None:
        raise argparse.ArgumentTypeError(f"the name {text!r} {problem}")
    return name


def value_text(text: str) -> str:
    """A value that names something (a folder, a file, a split): not empty and not only
    white space or invisible characters, which would otherwise read as "not given"."""
    if not any(ch.isprintable() and not ch.isspace() for ch in text):
        raise argparse.ArgumentTypeError(f"{text!r} is empty or only invisible characters")
    return text


def output_file(text: str) -> Path:
    """A file that can be written (its folder exists and is writable; not a folder), named by
    something visible."""
    value_text(text)
    try:
        return writable_output(text, "file")
    except UserError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("file ")) from None
