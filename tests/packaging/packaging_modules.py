"""The build's own modules (packaging/ is no package: the spec puts it on sys.path)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

PACKAGING = Path(__file__).resolve().parents[2] / "packaging"


def load_packaging_module(name: str):
    """packaging/<name>.py, registered under its bare name as the spec imports it."""
    spec = importlib.util.spec_from_file_location(name, PACKAGING / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
