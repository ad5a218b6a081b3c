"""Before Qt starts on Linux: name the X11 (xcb) system libraries that are missing.

PySide6 >= 6.5 needs libxcb-cursor0 and the usual xcb helpers to open a window; without
them Qt aborts with "Could not load the Qt platform plugin 'xcb'", which tells a field
linguist nothing. The launcher checks first and prints one line naming the packages.
"""

from __future__ import annotations

import ctypes.util
import os
import sys

# library name for ctypes.util.find_library -> Debian/Ubuntu package
XCB_LIBRARIES = {
    "xcb-cursor": "libxcb-cursor0",
    "xcb-icccm": "libxcb-icccm4",
    "xcb-keysyms": "libxcb-keysyms1",
    "xcb-image": "libxcb-image0",
    "xcb-render-util": "libxcb-render-util0",
    "xcb-shape": "libxcb-shape0",
    "xcb-xkb": "libxcb-xkb1",
    "xkbcommon-x11": "libxkbcommon-x11-0",
}


def uses_xcb(environ=os.environ, platform: str = sys.platform) -> bool:
    """True when Qt will try the X11 plugin: Linux, no other platform chosen."""
    if not platform.startswith("linux"):
        return False
    chosen = environ.get("QT_QPA_PLATFORM", "")
    if chosen:
        return chosen.split(":")[0] == "xcb"
    return not environ.get("WAYLAND_DISPLAY")


def missing_xcb_packages(find=ctypes.util.find_library) -> list[str]:
    return [package for lib, package in XCB_LIBRARIES.items() if not find(lib)]


def xcb_problem(environ=os.environ, platform: str = sys.platform, find=None) -> str | None:
    """One line for the user when the window cannot open, else None."""
    if not uses_xcb(environ, platform):
        return None
    missing = missing_xcb_packages(find or ctypes.util.find_library)
    if not missing:
        return None
    return (
        f"upabhasha-gui: cannot open a window: missing system libraries "
        f"{', '.join(missing)} (install them, e.g. 'sudo apt-get install {' '.join(missing)}')"
    )
