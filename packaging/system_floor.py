"""The desktop floor: the system libraries the Linux bundle may take from the machine it runs
on, because every Debian 11 and Ubuntu 20.04 desktop install and their successors have them.
Everything else the bundle links to must be inside the bundle, so the .deb installs with no
package sources.

The floor is what PyInstaller itself never bundles (glibc; the graphics stack, which must
match the machine's drivers: libGL, libEGL, libxcb; Wayland's client libraries) plus the
basic desktop libraries every desktop session loads. The C++ runtime is the system's: the
system's GPU drivers load into the process and need the system's own, newer than the build
root's (a copy loaded first would make them fail). The package names are the same on Debian
11 and 12 and Ubuntu 20.04 to 24.04 (none of them was renamed by Ubuntu's 64-bit time_t move).
The .deb's ``Depends`` names only the floor packages whose libraries a bundled file links to
and does not find in the bundle (:func:`system_depends`).
"""

from __future__ import annotations

import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from runpaths import elf_files

# Debian/Ubuntu package → the sonames it provides that a bundled file may link to.
DESKTOP_FLOOR: dict[str, tuple[str, ...]] = {
    "libc6": (
        "libc.so.6",
        "libm.so.6",
        "libdl.so.2",
        "libpthread.so.0",
        "librt.so.1",
        "libutil.so.1",
        "libresolv.so.2",
        "ld-linux-x86-64.so.2",
    ),
    "libxcb1": ("libxcb.so.1",),
    "libx11-6": ("libX11.so.6",),
    "libgl1": ("libGL.so.1",),
    "libegl1": ("libEGL.so.1",),
    "libwayland-client0": ("libwayland-client.so.0",),
    "libwayland-cursor0": ("libwayland-cursor.so.0",),
    "libwayland-egl1": ("libwayland-egl.so.1",),
    "libfontconfig1": ("libfontconfig.so.1",),
    "libfreetype6": ("libfreetype.so.6",),
    "libglib2.0-0": ("libglib-2.0.so.0", "libgthread-2.0.so.0"),
    "libdbus-1-3": ("libdbus-1.so.3",),
    "libxkbcommon0": ("libxkbcommon.so.0",),
    "zlib1g": ("libz.so.1",),
    "libstdc++6": ("libstdc++.so.6",),
    "libgcc-s1": ("libgcc_s.so.1",),
}
FLOOR_SONAMES = {soname: package for package, names in DESKTOP_FLOOR.items() for soname in names}
# Libraries only a run-time plug-in links to (llama.cpp's Vulkan backend): without them the
# plug-in does not load and the app runs on the CPU, so the .deb recommends their packages.
# Debian's libvulkan1 itself recommends ``mesa-vulkan-drivers | vulkan-icd``: AMD's and
# Intel's drivers come through it; NVIDIA's driver packages provide vulkan-icd.
OPTIONAL_SYSTEM: dict[str, tuple[str, ...]] = {"libvulkan1": ("libvulkan.so.1",)}
OPTIONAL_SONAMES = {
    soname: package for package, names in OPTIONAL_SYSTEM.items() for soname in names
}


def _dynamic_section(path: Path) -> tuple[list[str], list[Path]]:
    """DT_NEEDED sonames and the RUNPATH/RPATH folders ($ORIGIN expanded) of an ELF file."""
    out = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)
    folders = [
        Path(entry.replace("$ORIGIN", str(path.parent)))
        for found in re.findall(r"\((?:RUNPATH|RPATH)\)\s+Library r\w*path: \[([^\]]+)\]", out)
        for entry in found.split(":")
    ]
    return needed, folders


def system_needs(bundle: Path) -> dict[str, list[str]]:
    """Every soname a bundled ELF file links to that the dynamic loader will not find in the
    bundle (PyInstaller's bootloader puts ``_internal`` on the library path; each file's
    RUNPATH adds its own folders) → the files that need it: what the system must provide."""
    internal = bundle / "_internal"

    def outside(path: Path) -> tuple[Path, list[str]]:
        needed, folders = _dynamic_section(path)
        return path, [n for n in needed if not any((d / n).exists() for d in [internal, *folders])]

    found: dict[str, list[str]] = {}
    with ThreadPoolExecutor(max_workers=4) as pool:
        for path, sonames in pool.map(outside, elf_files(bundle)):
            for soname in sonames:
                found.setdefault(soname, []).append(str(path.relative_to(bundle)))
    return found


def system_depends(needs: dict[str, list[str]]) -> list[str]:
    """The floor packages providing ``needs`` (libc6 aside: the .deb names it with its
    version floor)."""
    packages = {FLOOR_SONAMES[soname] for soname in needs if soname in FLOOR_SONAMES}
    return sorted(packages - {"libc6"})


def system_recommends(needs: dict[str, list[str]]) -> list[str]:
    """The packages of :data:`OPTIONAL_SYSTEM` whose libraries a bundled plug-in links to."""
    return sorted({OPTIONAL_SONAMES[soname] for soname in needs if soname in OPTIONAL_SONAMES})


def floor_problems(needs: dict[str, list[str]], depends: list[str]) -> list[str]:
    """What would make the .deb need the network: a library taken from the system that is not
    on the floor, or a dependency outside the floor."""
    problems = [
        f"{files[0]} (and {len(files) - 1} more) links {soname}: neither bundled nor on the "
        "desktop floor"
        for soname, files in sorted(needs.items())
        if soname not in FLOOR_SONAMES and soname not in OPTIONAL_SONAMES
    ]
    problems += [
        f"Depends names {package}, which is not on the desktop floor"
        for package in depends
        if package not in DESKTOP_FLOOR
    ]
    return problems


def depends_packages(field: str) -> list[str]:
    """Package names of a Depends field (``libc6 (>= 2.36), libgl1`` → libc6, libgl1)."""
    return [entry.split()[0] for entry in field.split(",") if entry.strip()]
