"""The Debian/Ubuntu package: ``dist/upabhasha_<version>_amd64.deb`` built with dpkg-deb, and
the check that it installs with apt, passes its smoke test and uninstalls cleanly.

Layout: the PyInstaller folder in ``/opt/upabhasha`` (read-only for users), launchers
``/usr/bin/upabhasha-gui`` and ``/usr/bin/upabhasha``, the menu entry in
``/usr/share/applications`` and the icon in the hicolor theme. ``Depends`` lists the system
libraries Qt's xcb platform needs (``app.qt_platform_check.XCB_PACKAGES``, the same list the
program names when one is missing). User data stays in the user's folders: removing the
package leaves workspaces, settings and logs alone.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
PREFIX = Path("opt/upabhasha")
LAUNCHERS = ("upabhasha-gui", "upabhasha")
INSTALLED = [
    Path("/") / PREFIX,
    *(Path("/usr/bin") / name for name in LAUNCHERS),
    Path("/usr/share/applications/upabhasha.desktop"),
    Path("/usr/share/icons/hicolor/256x256/apps/upabhasha.png"),
    Path("/usr/share/icons/hicolor/scalable/apps/upabhasha.svg"),
]

LAUNCHER = """#!/bin/sh
# Upabhasha ({program}); the program folder is /{prefix}
exec /{prefix}/{program} "$@"
"""


def xcb_dependencies() -> list[str]:
    sys.path.insert(0, str(ROOT))
    from app.qt_platform_check import XCB_PACKAGES

    return sorted(set(XCB_PACKAGES.values()))


def control(project: dict, installed_kb: int) -> str:
    return (
        f"Package: {project['name']}\n"
        f"Version: {project['version']}\n"
        "Section: science\n"
        "Priority: optional\n"
        "Architecture: amd64\n"
        f"Depends: {', '.join(xcb_dependencies())}\n"
        f"Installed-Size: {installed_kb}\n"
        "Maintainer: Upabhasha developers <upabhasha@localhost>\n"
        f"Description: {project['description'][:78]}\n"
        " Desktop workstation for Bengali dialect LLM evaluation: embedded model, retrieval,\n"
        " translation, answering, judging, understanding tasks, social-bias probes, field\n"
        " annotation and reports. Works offline; user data stays in the user's folders.\n"
    )


def build_deb(
    bundle: Path,
    project: dict,
    desktop_entry: str,
    staging: Path,
    out_dir: Path,
    compression: tuple[str, ...],
) -> Path:
    """Stage the package tree next to ``bundle`` and run ``dpkg-deb --build``."""
    shutil.rmtree(staging, ignore_errors=True)
    root = staging / "root"
    shutil.copytree(bundle, root / PREFIX, symlinks=True)
    (root / "usr/bin").mkdir(parents=True)
    for program in LAUNCHERS:
        path = root / "usr/bin" / program
        path.write_text(LAUNCHER.format(program=program, prefix=PREFIX), encoding="utf-8")
        path.chmod(0o755)
    apps = root / "usr/share/applications"
    apps.mkdir(parents=True)
    (apps / "upabhasha.desktop").write_text(desktop_entry, encoding="utf-8")
    for size, icon in (("256x256", "upabhasha.png"), ("scalable", "upabhasha.svg")):
        folder = root / "usr/share/icons/hicolor" / size / "apps"
        folder.mkdir(parents=True)
        shutil.copy2(PACKAGING / icon, folder / icon)
    installed_kb = sum(p.lstat().st_size for p in root.rglob("*") if p.is_file()) // 1024
    (root / "DEBIAN").mkdir()
    (root / "DEBIAN/control").write_text(control(project, installed_kb), encoding="utf-8")
    for path in [root, *root.rglob("*")]:  # dpkg wants 0755 folders, no group/other writes
        if not path.is_symlink():
            path.chmod(path.stat().st_mode & ~0o022 | (0o755 if path.is_dir() else 0))
    out_dir.mkdir(exist_ok=True)
    deb = out_dir / f"{project['name']}_{project['version']}_amd64.deb"
    subprocess.run(
        ["dpkg-deb", "--root-owner-group", *compression, "--build", str(root), str(deb)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    shutil.rmtree(staging)
    return deb


def _apt(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["apt-get", "-y", "-q", *args],
        capture_output=True,
        text=True,
        env={"DEBIAN_FRONTEND": "noninteractive", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"},
    )


def leftovers() -> list[str]:
    return [str(p) for p in INSTALLED if p.exists() or p.is_symlink()]


def install_check(deb: Path, say) -> dict:
    """apt-get install the .deb (as root), run the installed program's smoke test, then
    apt-get remove it and check that nothing of it is left."""
    from frozen_smoke import run_smoke, summary

    if sys.platform != "linux" or not shutil.which("apt-get"):
        raise SystemExit("the .deb check needs a Debian/Ubuntu system with apt-get")
    import os

    if os.geteuid() != 0:
        raise SystemExit("the .deb check installs a package: run it as root (CI does)")
    if leftovers():
        raise SystemExit(f"upabhasha is already installed here ({leftovers()}); remove it first")
    result: dict = {}
    say(f"apt-get install ./{deb.name}")
    installed = _apt("install", "--no-install-recommends", str(deb.resolve()))
    if installed.returncode != 0:
        # the xcb libraries may be unknown to a fresh machine's package lists
        say("apt-get install failed; apt-get update, then once more")
        updated = _apt("update")
        if updated.returncode != 0:
            raise SystemExit(
                "apt-get update failed (no network to the Debian mirror?):\n"
                + updated.stderr[-2000:]
            )
        installed = _apt("install", "--no-install-recommends", str(deb.resolve()))
        if installed.returncode != 0:
            raise SystemExit(f"apt-get install ./{deb.name} failed:\n{installed.stderr[-3000:]}")
    try:
        say("smoke test of the installed program: /usr/bin/upabhasha-gui --smoke-test")
        # root owns /opt/upabhasha here; the snapshot check still catches any write into it
        smoke = run_smoke(["/usr/bin/upabhasha-gui"], Path("/") / PREFIX, read_only=False)
        result["smoke"] = summary(smoke)
    finally:
        say("apt-get remove upabhasha")
        removed = _apt("remove", "upabhasha")
        result["removed"] = removed.returncode == 0
        result["left_behind"] = leftovers()
    if not result["removed"]:
        result.setdefault("failures", []).append(f"apt-get remove failed: {removed.stderr[-500:]}")
    if result["left_behind"]:
        result.setdefault("failures", []).append(f"left after removal: {result['left_behind']}")
    result["ok"] = result["smoke"]["ok"] and not result.get("failures")
    return result
