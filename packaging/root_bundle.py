"""The part of ``make installer`` that runs inside the Debian 11 build root (build_root.py),
with the root's own Python, which has the standard library only: the clean build venv and
PyInstaller. ``build.py`` runs it there as ``python3.11 packaging/root_bundle.py``; it writes
what it did to ``build/pyinstaller/bundle-run.json``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
WORK = ROOT / "build" / "pyinstaller"
VENV = ROOT / "build" / "installer-venv"
BUNDLE_RUN = WORK / "bundle-run.json"  # what the build inside the root reports back
TORCH_SPEC = os.environ.get("TORCH_SPEC", "torch==2.13.0")
# packages of the test extras that must never reach the bundle (numba/llvmlite: 180 MB)
NOT_RUNTIME = ("numba", "llvmlite", "pytest", "ppi-python", "pytest-qt")

sys.path.insert(0, str(PACKAGING))
from vulkan_build import cache_folder, install_vulkan_llama  # noqa: E402 - packaging/ on the path


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def say(text: str) -> None:
    print(f"[installer] {text}", flush=True)


def venv_python() -> Path:
    return VENV / "bin" / "python"


def _stamp() -> str:
    """What the build venv was made from: the runtime and packaging requirements, the version,
    the torch spec and this Python (test extras and tool settings do not matter)."""
    meta = project()
    made_from = [
        meta["version"],
        meta["dependencies"],
        meta["optional-dependencies"]["packaging"],
        TORCH_SPEC,
        sys.version,
        cache_folder().name,  # the llama.cpp build (packaging/vulkan_build.py)
    ]
    return hashlib.sha256(json.dumps(made_from).encode()).hexdigest()


def build_venv() -> bool:
    """The clean build environment (runtime dependencies + PyInstaller); True when made now."""
    stamp = VENV / ".installed"
    if stamp.is_file() and stamp.read_text() == _stamp():
        say(f"reusing {VENV.relative_to(ROOT)} (pyproject.toml and {TORCH_SPEC} unchanged)")
        made = False
    else:
        say(f"creating {VENV.relative_to(ROOT)}: {TORCH_SPEC}, then .[packaging] (no test extras)")
        shutil.rmtree(VENV, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        pip = [str(venv_python()), "-m", "pip", "install", "--quiet"]
        subprocess.run([*pip, TORCH_SPEC], check=True)
        install_vulkan_llama(venv_python())  # llama.cpp with Vulkan + CPU plug-ins, not PyPI's
        subprocess.run([*pip, "-e", f"{ROOT}[packaging]"], check=True, cwd=ROOT)
        stamp.write_text(_stamp())
        made = True
    found = subprocess.run(
        [str(venv_python()), "-m", "pip", "list", "--format=json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    names = {d["name"].lower().replace("_", "-") for d in json.loads(found)}
    unwanted = sorted(names & set(NOT_RUNTIME))
    if unwanted:
        raise SystemExit(f"{VENV} holds test-only packages {unwanted}: delete it and rerun")
    return made


def run_pyinstaller() -> Path:
    say("PyInstaller: packaging/upabhasha.spec (one folder)")
    subprocess.run(
        [
            str(venv_python()),
            "-m",
            "PyInstaller",
            "--noconfirm",
            "--log-level",
            "WARN",
            "--distpath",
            str(WORK / "dist"),
            "--workpath",
            str(WORK / "work"),
            str(PACKAGING / "upabhasha.spec"),
        ],
        check=True,
        cwd=ROOT,
    )
    return WORK / "dist" / project()["name"]


def main() -> int:
    started = time.perf_counter()
    made = build_venv()
    venv_s = round(time.perf_counter() - started, 1)
    say(f"phase venv: {venv_s:.0f} s")
    run_pyinstaller()
    pyinstaller_s = round(time.perf_counter() - started - venv_s, 1)
    say(f"phase pyinstaller: {pyinstaller_s:.0f} s")
    WORK.mkdir(parents=True, exist_ok=True)
    run = {"venv_made": made, "phases_s": {"venv": venv_s, "pyinstaller": pyinstaller_s}}
    BUNDLE_RUN.write_text(json.dumps(run))
    return 0


if __name__ == "__main__":
    sys.exit(main())
