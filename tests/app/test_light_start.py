"""Nothing heavy before the first window or for ``upabhasha --help``: pandas (which
sqlite-utils imports with itself) loads only when a step uses it."""

from __future__ import annotations

import json
import subprocess
import sys

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


def test_the_first_window_shows_before_pandas_loads(tmp_path):
    report = start_window(tmp_path, watched=NOT_AT_START)
    assert "&File" in report["menus"]
    assert report["loaded"] == []


def test_help_loads_no_pandas(tmp_path):
    result = subprocess.run(
        [sys.executable, "-c", HELP, json.dumps(NOT_AT_START)],
        capture_output=True,
        text=True,
        env=user_env(tmp_path),
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    usage, loaded = result.stdout.rsplit("\n", 2)[:2]
    assert "usage: upabhasha" in usage
    assert json.loads(loaded) == []
