"""Loading a script of scripts/ as a module, for the tests that drive it (the walkthroughs)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def load_script(name: str):
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def gui_driving():
    """scripts/gui_driving.py, as the walkthrough scripts import it (run_step, finish …)."""
    if "gui_driving" not in sys.modules:
        load_script("gui_driving")
    return sys.modules["gui_driving"]
