"""The desktop floor: what the bundle may take from the system, and the .deb's Depends
(fast: real ELF files of this machine, no build)."""

from __future__ import annotations

import importlib
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))

floor = pytest.importorskip("system_floor")


def _system_library(soname: str) -> Path:
    folders = (Path("/lib/x86_64-linux-gnu"), Path("/usr/lib/x86_64-linux-gnu"))
    found = [folder / soname for folder in folders if (folder / soname).exists()]
    if not found:
        pytest.skip(f"{soname} is not on this system")
    return found[0]


def test_a_library_neither_bundled_nor_on_the_floor_is_found_until_it_is_bundled(tmp_path):
    if sys.platform != "linux" or not shutil.which("readelf"):
        pytest.skip("ELF libraries: Linux")
    internal = tmp_path / "bundle" / "_internal"
    internal.mkdir(parents=True)
    shutil.copy(importlib.import_module("_ssl").__file__, internal)
    needs = floor.system_needs(tmp_path / "bundle")
    assert {"libssl.so.3", "libcrypto.so.3"} <= set(needs)
    problems = floor.floor_problems(needs, floor.system_depends(needs))
    assert any("libssl.so.3: neither bundled nor on the desktop floor" in p for p in problems)
    for soname in ("libssl.so.3", "libcrypto.so.3"):
        shutil.copy(_system_library(soname), internal / soname)
    needs = floor.system_needs(tmp_path / "bundle")
    assert set(needs) <= set(floor.DESKTOP_FLOOR["libc6"]), needs
    assert floor.floor_problems(needs, floor.system_depends(needs)) == []
    assert floor.system_depends(needs) == []  # libc6 is named with its version floor


def test_depends_names_the_floor_packages_of_what_comes_from_the_system():
    needs = {"libGL.so.1": ["a"], "libxcb.so.1": ["b"], "libc.so.6": ["a", "b"]}
    assert floor.system_depends(needs) == ["libgl1", "libxcb1"]
    assert floor.depends_packages("libc6 (>= 2.36), libgl1, libxcb1") == [
        "libc6",
        "libgl1",
        "libxcb1",
    ]
    problems = floor.floor_problems(needs, ["libgl1", "libxcb-cursor0"])
    assert problems == ["Depends names libxcb-cursor0, which is not on the desktop floor"]
