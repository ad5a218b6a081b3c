"""Before QApplication exists: can Qt's xcb platform plugin load on this Linux machine?

PySide6 ≥ 6.5 needs system libraries a minimal desktop may lack (``libxcb-cursor0`` and the
other xcb utility libraries). Without them Qt prints "could not load the Qt platform plugin
'xcb'… This application failed to start because no Qt platform plugin could be initialized"
and aborts, which tells a field linguist nothing. This check asks the dynamic loader (``ldd``
on the plugin, or ``ctypes`` when ``ldd`` is missing) which libraries are not found and
turns them into one line naming the Debian/Ubuntu packages to install.

No Qt module is imported here: the plugin is found through the PySide6 package folder.
"""

from __future__ import annotations

import ctypes
import importlib.util
import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from engine.i18n import _

log = logging.getLogger(__name__)

# soname → Debian/Ubuntu package (the libraries Qt 6's xcb plugin links against)
XCB_PACKAGES: dict[str, str] = {
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-xinput.so.0": "libxcb-xinput0",
    "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libdbus-1.so.3": "libdbus-1-3",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libOpenGL.so.0": "libopengl0",
    "libglib-2.0.so.0": "libglib2.0-0",
}


def xcb_plugin_path() -> Path | None:
    """The xcb platform plugin inside the PySide6 package (also in a frozen bundle)."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        for candidate in (
            Path(folder) / "Qt" / "plugins" / "platforms" / "libqxcb.so",
            Path(folder) / "plugins" / "platforms" / "libqxcb.so",
        ):
            if candidate.exists():
                return candidate
    return None


def missing_from_ldd(output: str) -> list[str]:
    """Sonames ``ldd`` reports as ``not found``, in first-seen order, without duplicates."""
    missing: list[str] = []
    for line in output.splitlines():
        name, sep, target = line.strip().partition("=>")
        if sep and target.strip() == "not found" and name.strip() not in missing:
            missing.append(name.strip())
    return missing


def _run_ldd(path: Path) -> str | None:
    ldd = shutil.which("ldd")
    if ldd is None:
        return None
    try:
        result = subprocess.run(
            [ldd, str(path)], capture_output=True, text=True, timeout=20, check=False
        )
    except (OSError, subprocess.SubprocessError) as exc:
        log.info("ldd %s failed: %s", path, exc)
        return None
    return result.stdout


def _missing_by_loading(sonames: list[str]) -> list[str]:
    missing = []
    for soname in sonames:
        try:
            ctypes.CDLL(soname)
        except OSError:
            missing.append(soname)
    return missing


def missing_libraries(
    plugin: Path | None,
    *,
    ldd: Callable[[Path], str | None] = _run_ldd,
    load: Callable[[list[str]], list[str]] = _missing_by_loading,
) -> list[str]:
    """Libraries the xcb plugin needs that the loader cannot find (empty = it will load)."""
    if plugin is None:
        return []
    output = ldd(plugin)
    if output is not None:
        return missing_from_ldd(output)
    return load(list(XCB_PACKAGES))  # no ldd (minimal system): try the known libraries


def uses_xcb(environ: os._Environ | dict[str, str] | None = None) -> bool:
    """Whether Qt will pick the xcb platform: Linux, an X display, no other platform forced."""
    env = os.environ if environ is None else environ
    platform = env.get("QT_QPA_PLATFORM", "")
    if platform:
        return platform.split(";")[0].split(":")[0] == "xcb"
    if env.get("WAYLAND_DISPLAY") and env.get("XDG_SESSION_TYPE") == "wayland":
        return False  # Qt 6 prefers its wayland plugin there
    return bool(env.get("DISPLAY"))


def explain(missing: list[str]) -> str:
    """One line: what is missing and the apt command that installs it."""
    packages = sorted({XCB_PACKAGES.get(soname, soname) for soname in missing})
    return _(
        "Upabhasha cannot open its window: Qt's xcb platform needs system libraries that are "
        "missing ({libraries}). Install them with: sudo apt install {packages}"
    ).format(libraries=", ".join(missing), packages=" ".join(packages))


def platform_problem(
    environ: os._Environ | dict[str, str] | None = None,
    *,
    plugin: Path | None = None,
    ldd: Callable[[Path], str | None] = _run_ldd,
    load: Callable[[list[str]], list[str]] = _missing_by_loading,
) -> str | None:
    """The one-line explanation when the xcb plugin cannot load here, else None."""
    if not sys.platform.startswith("linux") or not uses_xcb(environ):
        return None
    missing = missing_libraries(plugin or xcb_plugin_path(), ldd=ldd, load=load)
    return explain(missing) if missing else None
