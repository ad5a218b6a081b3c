"""Nothing heavy before the first window or for ``upabhasha --help``: pandas (which
sqlite-utils imports with itself) and numpy (the statistics, the nesting check) load only
when a step uses them. Watched twice: the modules Python has imported, and (strace) the
files the process opened, which also sees a library loaded outside Python's imports."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.gui_main import HEAVY_MODULES
from tests.app.first_window import ROOT, start_window, user_env

NOT_AT_START = ("pandas", "sqlite_utils", *HEAVY_MODULES)

HELP = r"""
import atexit, json, sys
watched = json.loads(sys.argv[1])
atexit.register(lambda: print(json.dumps([m for m in watched if m in sys.modules])))
from app.cli import main
main(["--help"])
"""

STRACE = shutil.which("strace")


def _strace_works() -> bool:
    """strace is installed and may trace here (a container can deny ptrace)."""
    if STRACE is None:
        return False
    done = subprocess.run([STRACE, "-qq", "-o", os.devnull, "true"], capture_output=True)
    return done.returncode == 0


needs_strace = pytest.mark.skipif(not _strace_works(), reason="no strace that may trace here")
# a file of numpy's or pandas' installed package (their modules, their bundled libraries)
HEAVY_FILE = re.compile(r"/(numpy|pandas)(\.libs)?/")
OPENED = re.compile(r'openat\([^,]+, "([^"]+)", [^)]*\) = \d+')


def opened_files(trace: Path) -> list[str]:
    """The files a ``strace -f -e trace=openat`` log shows opened (failed opens left out)."""
    return OPENED.findall(trace.read_text(encoding="utf-8", errors="replace"))


def heavy_files(trace: Path) -> list[str]:
    return [path for path in opened_files(trace) if HEAVY_FILE.search(path)]


def strace(trace: Path) -> tuple[str, ...]:
    assert STRACE is not None
    return (STRACE, "-f", "-qq", "-e", "trace=openat", "-o", str(trace))


def run_help(tmp_path: Path, wrapper: tuple[str, ...] = ()) -> list[str]:
    """``upabhasha --help``'s usage line and the watched modules it loaded."""
    result = subprocess.run(
        [*wrapper, sys.executable, "-c", HELP, json.dumps(NOT_AT_START)],
        capture_output=True,
        text=True,
        env=user_env(tmp_path),
        cwd=ROOT,
        timeout=300 if wrapper else 120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    usage, loaded = result.stdout.rsplit("\n", 2)[:2]
    assert "usage: upabhasha" in usage
    return json.loads(loaded)


def test_the_first_window_shows_before_pandas_or_numpy_loads(tmp_path):
    report = start_window(tmp_path, watched=NOT_AT_START)
    assert "&File" in report["menus"]
    assert report["loaded"] == []


def test_help_loads_no_pandas_or_numpy(tmp_path):
    assert run_help(tmp_path) == []


@needs_strace
def test_no_pandas_or_numpy_file_is_opened_before_the_first_window(tmp_path):
    trace = tmp_path / "openat.log"
    report = start_window(tmp_path, watched=NOT_AT_START, wrapper=strace(trace))
    assert "&File" in report["menus"]  # the process stops once the window has shown
    opened = opened_files(trace)
    assert any("/PySide6/" in path for path in opened)  # the trace saw the start-up
    assert heavy_files(trace) == []


@needs_strace
def test_help_opens_no_pandas_or_numpy_file(tmp_path):
    trace = tmp_path / "openat.log"
    assert run_help(tmp_path, strace(trace)) == []
    assert any("/app/cli/" in path for path in opened_files(trace))  # it saw the start-up
    assert heavy_files(trace) == []


@needs_strace
def test_the_trace_check_sees_a_numpy_import(tmp_path):
    trace = tmp_path / "openat.log"
    subprocess.run(
        [*strace(trace), sys.executable, "-c", "import numpy"],
        check=True,
        env=user_env(tmp_path),
        timeout=300,
    )
    assert any("/numpy/" in path for path in heavy_files(trace))
