"""Declared ranges of the CLI's options: argparse ``type=`` callables checked while parsing,
before any work starts, so a bad value exits 2 with one line naming the option.

Numbers use the strict grammar of :func:`engine.scales.parse_number` (Python's ``int`` and
``float`` would take ``8_0``, ``nan`` and ``inf``). An output file is checked to be
writable when the command line is parsed (:func:`engine.files.output_path.writable_output`), so
a long computation never ends in a failed write or leaves a partial file.
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from engine.errors import UserError
from engine.files.output_path import writable_output
from engine.scales import parse_number
from engine.text.text_rules import folded_name, name_problem

_INTEGER = re.compile(r"[+-]?\d+")


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a bad command line in one line (usage is in ``--help``)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"upabhasha: error: {self.prog}: {message} (see '{self.prog} --help')\n")


def _integer(text: str) -> int:
    if not _INTEGER.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    return int(text)


def int_at_least(low: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = _integer(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        return value

    parse.__name__ = f"integer >= {low}"  # argparse names the type in its messages
    return parse


positive_int = int_at_least(1)  # limits, token budgets, resamples, ids, n-seq, …
non_negative_int = int_at_least(0)  # seeds, counts where 0 means "none"


def comma_list(value: str | list[str] | None) -> tuple[str, ...] | None:
    """An option's comma-separated values (a repeated option's too); None: not given. An
    empty value stays empty, for the request to refuse rather than to default."""
    if value is None:
        return None
    items = [value] if isinstance(value, str) else value
    return tuple(part.strip() for item in items for part in item.split(",") if part.strip())


def given(**values) -> dict:
    """The request fields an option set (None: not given, the request's default holds)."""
    return {name: value for name, value in values.items() if value is not None}


def add_schedule_options(parser: argparse.ArgumentParser, n_seq_help: str) -> None:
    """``--n-seq`` and ``--refill``: a local model's batch schedule for the step's runs."""
    parser.add_argument("--n-seq", type=positive_int, help=n_seq_help)
    parser.add_argument(
        "--refill",
        type=positive_int,
        metavar="N",
        help="local models: plan groups of N × --n-seq items whose freed slots take the "
        "group's next item (1: groups of --n-seq decoded whole); default: the faster one "
        "this machine's calibration chose for the step, else 4",
    )


def number(text: str) -> float:
    """A finite decimal number (no '8_0', 'nan' or 'inf')."""
    value = parse_number(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number")
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
    return parse


probability_open01 = number_in(0, 1, low_open=True, high_open=True)  # α
share = number_in(0, 1, low_open=True)  # a share that must draw something: (0, 1]
fraction = number_in(0, 1)  # [0, 1]


def positive_number(text: str) -> float:
    value = number(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be greater than 0, not {value:g}")
    return value


def non_negative_number(text: str) -> float:
    value = number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value:g}")
    return value


def output_folder(text: str) -> Path:
    """A folder to write into: an existing folder, or a new one whose parent exists (not a
    file or a device such as /etc/passwd or /dev/null)."""
    path = Path(text)
    if not text.strip():
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
    """A name (an annotator's, a reviewer's) as it will be stored: white space folded; no
    control or bidirectional characters, not empty."""
    name = folded_name(text)
    problem = name_problem(name)
    if problem is not None:
        raise argparse.ArgumentTypeError(f"the name {text!r} {problem}")
    return name


def output_file(text: str) -> Path:
    """A file that can be written (its folder exists and is writable; not a folder)."""
    try:
        return writable_output(text, "file")
    except UserError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("file ")) from None
