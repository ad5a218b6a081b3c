"""The bundle's shared libraries on Linux, after PyInstaller has collected them: system
libraries nothing links to are left out, symbol tables stripped, identical pairs linked, and
the finished folder checked against the rules of :mod:`bundle_rules`. Used by
``upabhasha.spec`` and ``build.py``; tests/packaging/test_bundle_rules.py tests them.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path, PurePosixPath

from bundle_rules import unused_reason
from runpaths import absolute_runpaths, elf_files

# Checks that a stripped library still loads (the dynamic linker refuses a broken one at once).
_LOADS = "import ctypes, sys; ctypes.CDLL(sys.argv[1])"


def strip_symbol_tables(folder: Path, min_gain: int = 64_000) -> dict:
    """Linux: remove the symbol tables (``.symtab``; the dynamic linker reads ``.dynsym``) of
    the bundle's shared libraries, each only when its stripped copy still loads: a library
    that auditwheel patched with patchelf can break when stripped (numpy's OpenBLAS did: "ELF
    load command address/offset not page-aligned"), so a blanket ``strip=True`` is unsafe.
    libtorch_cpu alone drops 89 MB, libpython 17 MB. Returns what was saved and kept."""
    import os
    import shutil
    import subprocess
    import sys
    from concurrent.futures import ThreadPoolExecutor

    strip = shutil.which("strip")
    if strip is None or sys.platform != "linux":
        return {"stripped": 0, "saved_mb": 0.0, "unchanged_because_broken": []}
    internal = folder / "_internal"
    env = dict(os.environ, LD_LIBRARY_PATH=str(internal))
    libraries = [
        p
        for p in internal.rglob("*.so*")
        if p.is_file() and not p.is_symlink() and re.search(r"\.so(\.\d+)*$", p.name)
    ]

    def one(path: Path) -> tuple[str, int]:
        trial = path.with_name(f".{path.name}.stripped")
        done = subprocess.run([strip, "-o", str(trial), str(path)], capture_output=True)
        gain = path.stat().st_size - trial.stat().st_size if done.returncode == 0 else 0
        if gain < min_gain:
            trial.unlink(missing_ok=True)
            return "small", 0
        loads = subprocess.run(
            [sys.executable, "-c", _LOADS, str(trial)], capture_output=True, env=env, timeout=120
        )
        if loads.returncode != 0:
            trial.unlink()
            return "broken", 0
        shutil.copymode(path, trial)
        os.replace(trial, path)
        return "stripped", gain

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(zip(libraries, pool.map(one, libraries)))
    return {
        "stripped": sum(1 for _, (what, _) in results if what == "stripped"),
        "saved_mb": round(sum(gain for _, (_, gain) in results) / 1e6, 1),
        "unchanged_because_broken": sorted(
            str(p.relative_to(internal)) for p, (what, _) in results if what == "broken"
        ),
    }


def needed_libraries(path: str) -> list[str]:
    """The DT_NEEDED entries (sonames) of an ELF file; [] for anything else."""
    import subprocess

    out = subprocess.run(["readelf", "-d", path], capture_output=True, text=True)
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out.stdout)


# Bundled libraries that load only as another library's dependency (never by ctypes or as a
# plug-in): pruned like system libraries when nothing kept links to them.
LINKED_ONLY = ("PySide6/Qt/lib/",)


def unreachable_system_libraries(binaries: list, own_prefixes: tuple[str, ...]) -> set[str]:
    """Destinations of the system libraries (sources outside ``own_prefixes``: Python and the
    build venv) and of Qt's libraries (:data:`LINKED_ONLY`) that no kept binary links to, directly or through another library: what only
    a left-out plug-in or a ctypes probe (transformers looks for ``libcudart.so``) brought
    in. Symbolic links to them go too. Linux only; elsewhere nothing."""
    import shutil
    import sys

    if sys.platform != "linux" or shutil.which("readelf") is None:
        return set()
    real = [(dest, src) for dest, src, kind in binaries if kind != "SYMLINK"]
    system = {
        dest
        for dest, src in real
        if not str(src).startswith(own_prefixes) or dest.startswith(LINKED_ONLY)
    }
    by_name: dict[str, set[str]] = {}
    for dest, _src in real:
        by_name.setdefault(PurePosixPath(dest).name, set()).add(dest)
    sources = dict(real)
    reached = {dest for dest, _src in real if dest not in system}
    todo = list(reached)
    while todo:
        for name in needed_libraries(sources[todo.pop()]):
            for dest in by_name.get(name, ()):
                if dest not in reached:
                    reached.add(dest)
                    todo.append(dest)
    dropped = system - reached
    for dest, src, kind in binaries:
        target = str(PurePosixPath(dest).parent / src).removeprefix("./")
        if kind == "SYMLINK" and target in dropped:
            dropped.add(dest)
    return dropped


def link_identical_pairs(folder: Path) -> list[str]:
    """Linux: ``lib*.so`` beside an identical ``lib*.so.<n>`` (llama.cpp ships both) becomes
    a link to it; returns the files replaced."""
    import filecmp
    import os

    linked = []
    for path in sorted(folder.rglob("*.so")):
        if path.is_symlink() or not path.is_file():
            continue
        for twin in sorted(path.parent.glob(path.name + ".*")):
            if twin.is_file() and not twin.is_symlink() and filecmp.cmp(path, twin, False):
                path.unlink()
                os.symlink(twin.name, path)
                linked.append(str(path.relative_to(folder)))
                break
    return linked


def link_identical_copies(folder: Path) -> list[str]:
    """Linux: a library vendored under the same name and with the same bytes by several
    wheels (auditwheel's ``numpy.libs``/``scipy.libs`` carry one libgfortran build) becomes a
    relative link to its first copy; returns the files replaced."""
    import filecmp
    import os

    first: dict[tuple[str, int], Path] = {}
    linked = []
    for path in sorted(folder.rglob("*.so*")):
        if path.is_symlink() or not path.is_file() or not re.search(r"\.so(\.\d+)*$", path.name):
            continue
        key = (path.name, path.stat().st_size)
        original = first.setdefault(key, path)
        if original != path and filecmp.cmp(original, path, False):
            path.unlink()
            os.symlink(os.path.relpath(original, path.parent), path)
            linked.append(str(path.relative_to(folder)))
    return linked


def remove_dangling_links(folder: Path) -> list[str]:
    """Links COLLECT made to libraries that were left out (``libcudart.so`` → the dropped
    ``libcudart.so.13``): removed; returns them."""
    dangling = sorted(p for p in folder.rglob("*") if p.is_symlink() and not p.exists())
    for link in dangling:
        link.unlink()
    return [str(p.relative_to(folder)) for p in dangling]


def bundle_problems(folder: Path, cpu_only: bool = True) -> list[str]:
    """What the rules above promise, checked on the built folder: no test folders, no left-out
    plug-in, no identical library pair, no CUDA runtime in a CPU bundle, no model chunks, no
    library search path outside the bundle (runpaths)."""
    internal = folder / "_internal"
    problems = []
    for path in internal.rglob("*"):
        rel = str(path.relative_to(internal))
        if path.is_symlink() and not path.exists():
            problems.append(f"dangling link {rel}")
        elif path.is_dir() and path.name in ("test", "tests") and ".dist-info" not in rel:
            problems.append(f"test folder {rel}")
        elif unused_reason(rel) and not path.is_dir():
            problems.append(f"{rel} ({unused_reason(rel)})")
        elif cpu_only and path.name.startswith(("libcudart", "libcublas")):
            problems.append(f"CUDA runtime {rel} in a CPU bundle")
        elif path.suffix == ".so" and not path.is_symlink() and path.is_file():
            import filecmp

            twins = [t for t in path.parent.glob(path.name + ".*") if not t.is_symlink()]
            if any(t.is_file() and filecmp.cmp(path, t, False) for t in twins):
                problems.append(f"identical library pair {rel}")
    for rel, entries in absolute_runpaths(folder).items():
        problems.append(f"{rel} searches the build machine's folders {entries}")
    return sorted(problems)


@cache
def _glibc_versions(version: str) -> tuple[int, ...]:
    return tuple(int(n) for n in version.split("."))


def symbol_needs(folder: Path, library: str = "GLIBC") -> dict[Path, tuple[int, ...]]:
    """Each ELF file in ``folder`` with the newest ``<library>_x.y`` symbol version it
    requires (GLIBC: glibc; GLIBCXX: the C++ runtime)."""
    import subprocess
    from concurrent.futures import ThreadPoolExecutor

    def newest(path: Path) -> tuple[int, ...]:
        out = subprocess.run(["readelf", "-V", "-W", str(path)], capture_output=True, text=True)
        found = re.findall(rf"Name: {library}_(\d+(?:\.\d+)+)", out.stdout)
        return max((_glibc_versions(v) for v in found), default=(0,))

    elves = elf_files(folder)
    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(zip(elves, pool.map(newest, elves), strict=True))


def glibc_floor(folder: Path) -> str:
    """The newest ``GLIBC_x.y`` symbol version any ELF file in ``folder`` requires: the oldest
    glibc the bundle runs on."""
    return ".".join(str(n) for n in max(symbol_needs(folder).values()))


def above_floor(folder: Path, floor: str, library: str = "GLIBC") -> list[str]:
    """The files in ``folder`` that need a ``library`` symbol version newer than ``floor``,
    with what they need."""
    limit = _glibc_versions(floor)
    return [
        f"{path.relative_to(folder)}: {library}_{'.'.join(map(str, version))}"
        for path, version in sorted(symbol_needs(folder, library).items())
        if version > limit
    ]
