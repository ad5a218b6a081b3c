"""engine/ is Qt-free and loads heavy libraries lazily (docs/design.md, house style 1 and 14)."""

import pkgutil
import subprocess
import sys
from pathlib import Path

import engine

REPO = Path(__file__).resolve().parents[2]
HEAVY = [
    "PySide6",
    "llama_cpp",
    "faiss",
    "torch",
    "sentence_transformers",
    "matplotlib.pyplot",
    "pandas",
    "app",
    "widgets",
]


def engine_modules() -> list[str]:
    return sorted(m.name for m in pkgutil.walk_packages(engine.__path__, "engine."))


def test_importing_every_engine_module_loads_no_qt_and_no_heavy_library():
    modules = engine_modules()
    assert len(modules) > 5
    code = (
        "import importlib, sys, json\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"print(json.dumps([h for h in {HEAVY!r} if h in sys.modules]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout


def _upward_imports(folder: str, banned: tuple[str, ...]) -> list[str]:
    offenders = []
    for path in (REPO / folder).rglob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            stripped = line.strip()
            if any(
                stripped.startswith((f"import {b}", f"from {b} ", f"from {b}.")) for b in banned
            ):
                offenders.append(f"{path.relative_to(REPO)}: {stripped}")
    return offenders


def test_imports_point_downward_only():
    """app -> widgets -> engine (docs/design.md): engine imports neither, widgets never app."""
    assert _upward_imports("engine", ("PySide6", "app", "widgets")) == []
    assert _upward_imports("widgets", ("app",)) == []
