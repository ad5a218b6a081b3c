"""The installer's Vulkan llama.cpp: the .deb recommends the Vulkan loader (its plug-in loads
only where the system has one) and the wheel is cached outside the clone (fast, no build)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))

floor = pytest.importorskip("system_floor")
deb = pytest.importorskip("deb")
vulkan_build = pytest.importorskip("vulkan_build")


def test_the_vulkan_loader_is_recommended_not_a_floor_problem():
    needs = {
        "libvulkan.so.1": ["_internal/llama_cpp/lib/libggml-vulkan.so"],
        "libGL.so.1": ["_internal/PySide6/Qt/lib/libQt6Gui.so.6"],
    }
    depends = floor.system_depends(needs)
    assert depends == ["libgl1"]
    assert floor.system_recommends(needs) == ["libvulkan1"]
    assert floor.floor_problems(needs, depends) == []
    # any other library outside the floor still is one
    assert floor.floor_problems({"libfoo.so.3": ["_internal/x.so"]}, [])


def test_control_recommends_after_depends():
    project = {
        "name": "upabhasha",
        "version": "1.0",
        "description": "x",
        "maintainers": [{"name": "A", "email": "a@example.org"}],
    }
    text = deb.control(project, 10, "2.36", ["libgl1"], ["libvulkan1"])
    lines = text.splitlines()
    assert (
        lines.index("Recommends: libvulkan1") == lines.index("Depends: libc6 (>= 2.36), libgl1") + 1
    )
    assert "Recommends" not in deb.control(project, 10, "2.36", ["libgl1"])


def test_the_wheel_cache_is_outside_the_clone_and_keyed_by_version_and_flags(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = vulkan_build.cache_folder()
    assert folder.parent == tmp_path / "upabhasha" / "wheels"
    assert folder.name.startswith(f"{vulkan_build.LLAMA_CPP_VERSION}-vulkan-")
    assert vulkan_build.cached_wheel() is None
    monkeypatch.setattr(vulkan_build, "CMAKE_ARGS", vulkan_build.CMAKE_ARGS + " -DGGML_AVX512=ON")
    assert vulkan_build.cache_folder() != folder  # other flags, another wheel
    assert "-DGGML_BACKEND_DL=ON" in vulkan_build.CMAKE_ARGS
