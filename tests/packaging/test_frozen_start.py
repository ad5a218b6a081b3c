"""The frozen start check (bench/frozen_start.py) reads what was loaded by the first window
from the program's own log line. Run here on the sources through a program folder whose
``upabhasha-gui`` starts them (the frozen build runs the same main())."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

frozen_start = pytest.importorskip("frozen_start")

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="a shell script as the program")


def program_folder(tmp_path: Path, before: str = "") -> Path:
    """A program folder whose upabhasha-gui runs the GUI's main(), after ``before``."""
    program = tmp_path / "program"
    program.mkdir()
    code = f"{before}from app.gui_main import main; raise SystemExit(main())"
    script = program / "upabhasha-gui"
    script.write_text(
        f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -c "{code}" "$@"\n',
        encoding="utf-8",
    )
    script.chmod(0o755)
    return program


def test_the_first_window_is_reached_with_nothing_heavy_loaded(tmp_path):
    shown_s, main_to_shown_s, loaded, heavy = frozen_start.time_first_window(
        program_folder(tmp_path)
    )
    assert heavy == []
    assert loaded > 100 and 0 < main_to_shown_s < shown_s


def test_a_heavy_module_loaded_before_the_window_is_reported(tmp_path):
    _shown, _main, _loaded, heavy = frozen_start.time_first_window(
        program_folder(tmp_path, before="import sqlite_utils; ")  # it brings pandas
    )
    assert heavy == ["pandas", "sqlite_utils", "numpy"]  # in HEAVY_MODULES order
