"""The checks ``build.py`` runs on what it built, besides the smoke test: the frozen program's
start (bench/frozen_start.py: nothing lazily imported before main(), start-up times), the
bundle's contents against the rules (:func:`bundle_binaries.bundle_problems`), its libraries
and the .deb's Depends against the desktop floor (:func:`floor_check`), and the lint of the
package: ``desktop-file-validate`` on both menu entries and ``lintian`` on the .deb
(started in the background, so it runs while the .deb is installed and smoke-tested).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# command → the Debian package that provides it
LINT_TOOLS = {"desktop-file-validate": "desktop-file-utils", "lintian": "lintian"}


def frozen_start(bundle: Path, runs: int = 3) -> dict:
    sys.path.insert(0, str(ROOT / "bench"))
    from frozen_start import measure

    return measure(bundle, runs)


def ensure_tools(say) -> list[str]:
    """The lint tools, installed with apt-get when missing and allowed (root); returns those
    still missing."""
    missing = [tool for tool in LINT_TOOLS if shutil.which(tool) is None]
    if missing and os.geteuid() == 0 and shutil.which("apt-get"):
        packages = sorted({LINT_TOOLS[t] for t in missing})
        say(f"apt-get install {' '.join(packages)} (for the package lint)")
        subprocess.run(
            ["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages],
            env={"DEBIAN_FRONTEND": "noninteractive", "PATH": os.environ["PATH"]},
            capture_output=True,
        )
    return [tool for tool in LINT_TOOLS if shutil.which(tool) is None]


def desktop_problems(entries: dict[str, str]) -> list[str]:
    """desktop-file-validate's errors and warnings for each entry (name → text)."""
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in entries.items():
            path = Path(tmp) / "upabhasha.desktop"
            path.write_text(text, encoding="utf-8")
            out = subprocess.run(
                ["desktop-file-validate", str(path)], capture_output=True, text=True
            )
            problems += [
                f"{name}: {line.split(': ', 1)[-1]}"
                for line in (out.stdout + out.stderr).splitlines()
                if re.search(r": (error|warning): ", line)
            ]
    return problems


def start_lintian(deb: Path) -> tuple[subprocess.Popen, float]:
    log = tempfile.TemporaryFile(mode="w+")
    # --display-info: unused-override is an info tag
    proc = subprocess.Popen(
        ["lintian", "--no-cfg", "--display-info", str(deb)], stdout=log, stderr=log, text=True
    )
    proc.log = log  # type: ignore[attr-defined]
    return proc, time.perf_counter()


def floor_check(bundle: Path, deb: Path | None) -> dict:
    """The bundle's libraries against the desktop floor (packaging/system_floor.py): every
    library a bundled file links to is in the bundle or on the floor, and the built .deb's
    Depends names floor packages only, so apt installs it with no package sources."""
    from system_floor import depends_packages, floor_problems, system_needs

    needs = system_needs(bundle)
    depends = []
    if deb is not None:
        field = subprocess.run(
            ["dpkg-deb", "-f", str(deb), "Depends"], capture_output=True, text=True, check=True
        ).stdout
        depends = depends_packages(field)
    return {
        "from_system": sorted(needs),
        "depends": depends,
        "problems": floor_problems(needs, depends),
    }


def lintian_result(started: tuple[subprocess.Popen, float]) -> dict:
    proc, began = started
    proc.wait()
    proc.log.seek(0)  # type: ignore[attr-defined]
    lines = proc.log.read().splitlines()  # type: ignore[attr-defined]
    tags: dict[str, int] = {}
    for line in lines:
        found = re.match(r"([EWI]): \S+: (\S+)", line)
        if found:
            key = f"{found.group(1)}: {found.group(2)}"
            tags[key] = tags.get(key, 0) + 1
    return {
        "seconds": round(time.perf_counter() - began, 1),
        "errors": [line for line in lines if line.startswith("E: ")][:20],
        "warning_lines": sum(1 for line in lines if line.startswith("W: ")),
        "unused_overrides": [
            line for line in lines if re.match(r"[EWI]: \S+: (unused|mismatched)-override", line)
        ],
        "tags": tags,
    }


def preinst_check(deb: Path, older: str = "2.17") -> dict:
    """The built .deb's own preinst, run as dpkg runs it before unpacking: with ``getconf``
    faked to report glibc ``older`` it must refuse with the sentence; on this machine (the
    build's, which meets the floor) it must let the install through."""
    with tempfile.TemporaryDirectory() as tmp:
        control, fakes = Path(tmp) / "control", Path(tmp) / "fakes"
        subprocess.run(["dpkg-deb", "-e", str(deb), str(control)], check=True)
        fakes.mkdir()
        (fakes / "getconf").write_text(f'#!/bin/sh\necho "glibc {older}"\n', encoding="utf-8")
        (fakes / "getconf").chmod(0o755)
        runs = {
            name: subprocess.run(
                ["sh", str(control / "preinst"), "install"],
                capture_output=True,
                text=True,
                env={"PATH": path, "LANG": "C.UTF-8"},
            )
            for name, path in (("older", f"{fakes}:/usr/bin:/bin"), ("here", "/usr/bin:/bin"))
        }
    said = runs["older"].stderr.splitlines()
    problems = []
    if runs["older"].returncode == 0 or not said or f"has glibc {older}." not in said[0]:
        problems.append(f"the preinst did not refuse glibc {older}: {runs['older'].stderr!r}")
    if runs["here"].returncode != 0:
        problems.append(f"the preinst refused this machine: {runs['here'].stderr!r}")
    return {"refusal": said, "problems": problems}
