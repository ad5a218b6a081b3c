"""The launcher names missing xcb libraries in one line instead of Qt's plugin error."""

from __future__ import annotations

import os
import subprocess
import sys

from app.platform_check import XCB_LIBRARIES, uses_xcb, xcb_problem


def test_only_linux_x11_is_checked():
    assert uses_xcb({}, "linux")
    assert not uses_xcb({"QT_QPA_PLATFORM": "offscreen"}, "linux")
    assert uses_xcb({"QT_QPA_PLATFORM": "xcb"}, "linux")
    assert not uses_xcb({"WAYLAND_DISPLAY": "wayland-0"}, "linux")
    assert not uses_xcb({}, "win32")


def test_missing_libraries_are_named_in_one_line():
    line = xcb_problem({}, "linux", find=lambda lib: None if lib == "xcb-cursor" else "x.so")
    assert line is not None and "\n" not in line
    assert "libxcb-cursor0" in line and "apt-get install libxcb-cursor0" in line
    assert xcb_problem({}, "linux", find=lambda lib: "x.so") is None
    assert len(XCB_LIBRARIES) == 8


def test_launcher_exits_with_the_line(tmp_path):
    code = (
        "import sys, ctypes.util; ctypes.util.find_library = lambda name: None; "
        "from app.gui_main import main; sys.exit(main([]))"
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "UPABHASHA_CONFIG_DIR": str(tmp_path),
        "UPABHASHA_LOG_DIR": str(tmp_path),
        "PYTHONPATH": os.getcwd(),
    }
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert out.returncode == 3
    assert out.stderr.strip().count("\n") == 0
    assert out.stderr.startswith("upabhasha-gui: cannot open a window: missing system libraries")
