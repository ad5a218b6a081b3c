"""The launcher's check for Qt's xcb system libraries, with a fake missing library."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from app.qt_platform_check import (
    XCB_PACKAGES,
    explain,
    missing_from_ldd,
    missing_libraries,
    platform_problem,
    uses_xcb,
    xcb_plugin_path,
)

LDD_OUTPUT = """\
\tlinux-vdso.so.1 (0x00007ffd6d5f2000)
\tlibQt6XcbQpa.so.6 => /opt/x/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f4994400000)
\tlibxcb-cursor.so.0 => not found
\tlibxcb-icccm.so.4 => not found
\tlibxcb-util.so.1 => /lib/x86_64-linux-gnu/libxcb-util.so.1 (0x00007f499431d000)
\tlibxcb-icccm.so.4 => not found
\tlibfoo-unknown.so.7 => not found
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f4993c00000)
"""
X11 = {"DISPLAY": ":0"}


def test_ldd_not_found_lines_become_sonames_once():
    assert missing_from_ldd(LDD_OUTPUT) == [
        "libxcb-cursor.so.0",
        "libxcb-icccm.so.4",
        "libfoo-unknown.so.7",
    ]
    assert missing_from_ldd("\tlibc.so.6 => /lib/libc.so.6 (0x1)\n") == []


def test_explanation_is_one_line_naming_the_debian_packages():
    line = explain(["libxcb-cursor.so.0", "libxcb-icccm.so.4", "libfoo-unknown.so.7"])
    assert "\n" not in line
    assert line.endswith("sudo apt install libfoo-unknown.so.7 libxcb-cursor0 libxcb-icccm4")
    assert "libxcb-cursor.so.0" in line


def test_fake_missing_library_is_reported(tmp_path):
    plugin = tmp_path / "libqxcb.so"
    plugin.write_bytes(b"")
    problem = platform_problem(X11, plugin=plugin, ldd=lambda _p: LDD_OUTPUT)
    if not sys.platform.startswith("linux"):
        assert problem is None
        return
    assert problem is not None and "libxcb-cursor0 libxcb-icccm4" in problem


def test_nothing_missing_means_no_problem(tmp_path):
    plugin = tmp_path / "libqxcb.so"
    ok = "\tlibxcb.so.1 => /lib/libxcb.so.1 (0x1)\n"
    assert platform_problem(X11, plugin=plugin, ldd=lambda _p: ok) is None


def test_without_ldd_the_known_libraries_are_loaded_one_by_one(tmp_path):
    tried: list[list[str]] = []

    def load(sonames):
        tried.append(sonames)
        return ["libxcb-keysyms.so.1"]

    plugin = tmp_path / "libqxcb.so"
    assert missing_libraries(plugin, ldd=lambda _p: None, load=load) == ["libxcb-keysyms.so.1"]
    assert tried == [list(XCB_PACKAGES)]
    assert "libxcb-keysyms1" in explain(["libxcb-keysyms.so.1"])


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"DISPLAY": ":0"}, True),
        ({}, False),  # no display: Qt fails for another reason, not ours to explain
        ({"QT_QPA_PLATFORM": "offscreen", "DISPLAY": ":0"}, False),
        ({"QT_QPA_PLATFORM": "xcb"}, True),
        ({"QT_QPA_PLATFORM": "wayland;xcb", "DISPLAY": ":0"}, False),
        ({"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland", "DISPLAY": ":0"}, False),
    ],
)
def test_only_the_xcb_platform_is_checked(environ, expected):
    assert uses_xcb(environ) is expected


def test_offscreen_never_runs_the_check(tmp_path):
    def ldd(_p):
        raise AssertionError("ldd must not run for the offscreen platform")

    assert platform_problem({"QT_QPA_PLATFORM": "offscreen"}, plugin=tmp_path, ldd=ldd) is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the xcb plugin is Linux-only")
def test_the_real_plugin_is_found_and_real_ldd_output_parses():
    plugin = xcb_plugin_path()
    assert plugin is not None and plugin.name == "libqxcb.so"
    output = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True).stdout
    assert "libxcb" in output
    assert all(name.startswith("lib") for name in missing_from_ldd(output))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the xcb plugin is Linux-only")
def test_gui_entry_point_prints_the_line_and_exits_3(tmp_path):
    """The real entry point, with ldd answering that one library is missing."""
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    ldd = fake_bin / "ldd"
    ldd.write_text("#!/bin/sh\necho '\tlibxcb-cursor.so.0 => not found'\n", encoding="utf-8")
    ldd.chmod(0o755)
    env = {
        "PATH": f"{fake_bin}:/usr/bin:/bin",
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
        "DISPLAY": ":99",
        "HOME": str(tmp_path),
        "UPABHASHA_CONFIG_DIR": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    result = subprocess.run(
        [sys.executable, "-m", "app.gui_main"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 3, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines == [explain(["libxcb-cursor.so.0"])]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the xcb plugin is Linux-only")
def test_the_saved_language_applies_from_the_start(tmp_path):
    """settings.json says Bengali: the very first line the program prints is in Bengali."""
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    ldd = fake_bin / "ldd"
    ldd.write_text("#!/bin/sh\necho '\tlibxcb-cursor.so.0 => not found'\n", encoding="utf-8")
    ldd.chmod(0o755)
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text('{"version": 1, "language": "bn"}', encoding="utf-8")
    env = {
        "PATH": f"{fake_bin}:/usr/bin:/bin",
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
        "DISPLAY": ":99",
        "HOME": str(tmp_path),
        "UPABHASHA_CONFIG_DIR": str(config),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    result = subprocess.run(
        [sys.executable, "-m", "app.gui_main"], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 3, result.stderr
    assert result.stderr.startswith("উপভাষা তার জানালা খুলতে পারছে না")
    assert "sudo apt install libxcb-cursor0" in result.stderr
