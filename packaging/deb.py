"""The Debian/Ubuntu package: ``dist/upabhasha_<version>_amd64.deb`` built with dpkg-deb, and
the check that it installs with apt, passes its smoke test and uninstalls cleanly.

Layout: the PyInstaller folder in ``/opt/upabhasha`` (read-only for users), launchers
``/usr/bin/upabhasha-gui`` and ``/usr/bin/upabhasha``, the menu entry in
``/usr/share/applications`` and the icon in the hicolor theme. ``Depends`` names only
packages of the desktop floor (:mod:`system_floor`): those whose libraries a bundled file links
to and does not find in the bundle (the graphics stack: libGL, libEGL, libxcb, Wayland), and
``libc6 (>= <floor>)``, the newest glibc symbol version any bundled file needs
(:func:`bundle_binaries.glibc_floor`), so apt installs it with no package sources on a desktop
and refuses an older system in its own words. ``dpkg -i`` is refused before anything is
unpacked by the ``preinst`` (:mod:`launchers`), with a sentence a person understands; the
launchers say the same, and show start-up failures in a window (:mod:`launchers`).
``DEBIAN/md5sums`` lets ``dpkg --verify upabhasha`` check the installed files. The
workspace and review-package file types are declared in
``/usr/share/mime/packages/upabhasha.xml`` (shared-mime-info's trigger updates the cache).
``/usr/share/doc/upabhasha`` holds the copyright file built from the bundle's licences
(:mod:`deb_docs`) and the changelog;
``/usr/share/lintian/overrides/upabhasha`` names, with reasons, what a self-contained ``/opt``
bundle cannot avoid. User data stays in the user's folders: removing the package leaves
workspaces, settings and logs alone.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
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
    Path("/usr/share/doc/upabhasha"),
    Path("/usr/share/lintian/overrides/upabhasha"),
    Path("/usr/share/mime/packages/upabhasha.xml"),
]
MIME_FILE = PACKAGING / "upabhasha-mime.xml"


def maintainer(project: dict) -> str:
    first = project["maintainers"][0]
    return f"{first['name']} <{first['email']}>"


def control(
    project: dict,
    installed_kb: int,
    glibc: str,
    depends: list[str],
    recommends: list[str] | None = None,
) -> str:
    return (
        f"Package: {project['name']}\n"
        f"Version: {project['version']}\n"
        "Section: science\n"
        "Priority: optional\n"
        "Architecture: amd64\n"
        f"Depends: {', '.join([f'libc6 (>= {glibc})', *depends])}\n"
        + (f"Recommends: {', '.join(recommends)}\n" if recommends else "")
        + f"Installed-Size: {installed_kb}\n"
        f"Maintainer: {maintainer(project)}\n"
        "Description: LLM evaluation workstation for Bengali dialects\n"
        + "".join(f" {line}\n" for line in textwrap.wrap(LONG_DESCRIPTION.format(**project), 78))
    )


LONG_DESCRIPTION = (
    "{description}. A desktop workstation for Bengali dialect LLM evaluation: embedded "
    "model, retrieval, translation, answering, judging, understanding tasks, social-bias "
    "probes, field annotation and reports. Works offline; user data stays in the user's "
    "folders."
)


def file_mode(path: Path) -> int:
    """0755 folders and programs, 0644 everything else: shared libraries need no execute bit,
    and nothing is writable by group or others (dpkg, lintian)."""
    if path.is_dir():
        return 0o755
    with path.open("rb") as fh:
        head = fh.read(4)
    library = re.search(r"\.so(\.\d+)*$", path.name) is not None
    program = head[:2] == b"#!" or (head == b"\x7fELF" and not library)
    return 0o755 if program and path.stat().st_mode & 0o100 else 0o644


def build_deb(
    bundle: Path,
    project: dict,
    desktop_entry: str,
    staging: Path,
    out_dir: Path,
    compression: tuple[str, ...],
) -> Path:
    """Stage the package tree next to ``bundle`` and run ``dpkg-deb --build``."""
    from bundle_binaries import glibc_floor
    from deb_docs import write_docs
    from launchers import cli_launcher, deb_gui_launcher
    from system_floor import system_depends, system_needs, system_recommends

    shutil.rmtree(staging, ignore_errors=True)
    root = staging / "root"
    # hard links: the staged tree costs no copy of the 1.2 GB folder
    shutil.copytree(bundle, root / PREFIX, symlinks=True, copy_function=os.link)
    glibc = glibc_floor(bundle)
    (root / "usr/bin").mkdir(parents=True)
    scripts = {
        "upabhasha-gui": deb_gui_launcher(glibc, str(PREFIX)),
        "upabhasha": cli_launcher(glibc, str(PREFIX)),
    }
    for program, text in scripts.items():
        path = root / "usr/bin" / program
        path.write_text(text, encoding="utf-8")
        path.chmod(0o755)
    write_docs(root, bundle, project, maintainer(project))
    apps = root / "usr/share/applications"
    apps.mkdir(parents=True)
    (apps / "upabhasha.desktop").write_text(desktop_entry, encoding="utf-8")
    for size, icon in (("256x256", "upabhasha.png"), ("scalable", "upabhasha.svg")):
        folder = root / "usr/share/icons/hicolor" / size / "apps"
        folder.mkdir(parents=True)
        shutil.copy2(PACKAGING / icon, folder / icon)
    mime = root / "usr/share/mime/packages"
    mime.mkdir(parents=True)
    shutil.copy2(MIME_FILE, mime / "upabhasha.xml")
    needs = system_needs(bundle)
    write_control_area(root, project, glibc, system_depends(needs), system_recommends(needs))
    out_dir.mkdir(exist_ok=True)
    deb = out_dir / f"{project['name']}_{project['version']}_amd64.deb"
    dpkg_deb(root, deb, compression)
    shutil.rmtree(staging)
    return deb


def write_control_area(
    root: Path,
    project: dict,
    glibc: str,
    depends: list[str],
    recommends: list[str] | None = None,
) -> None:
    """``DEBIAN/``: control, preinst (the refusal of an unsupported system) and md5sums, for
    the staged tree ``root``; then the modes of every file (:func:`file_mode`)."""
    from launchers import preinst

    installed_kb = sum(p.lstat().st_size for p in root.rglob("*") if p.is_file()) // 1024
    (root / "DEBIAN").mkdir()
    text = control(project, installed_kb, glibc, depends, recommends)
    (root / "DEBIAN/control").write_text(text, encoding="utf-8")
    (root / "DEBIAN/md5sums").write_text(md5sums(root), encoding="utf-8")
    script = root / "DEBIAN/preinst"
    script.write_text(preinst(glibc), encoding="utf-8")
    script.chmod(0o755)
    for path in [root, *root.rglob("*")]:
        if not path.is_symlink():
            path.chmod(file_mode(path))


def md5sums(root: Path) -> str:
    """dpkg's md5sums file: every regular file of the package (not DEBIAN/), by its path
    without the leading slash. Hashed on all cores (hashlib releases the GIL)."""
    files = sorted(
        p
        for p in root.rglob("*")
        if p.is_file() and not p.is_symlink() and p.parts[len(root.parts)] != "DEBIAN"
    )

    def digest(path: Path) -> str:
        with path.open("rb") as fh:
            return hashlib.file_digest(fh, "md5").hexdigest()

    with ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
        sums = pool.map(digest, files)
    return "".join(f"{s}  {p.relative_to(root)}\n" for s, p in zip(sums, files, strict=True))


def dpkg_deb(root: Path, deb: Path, compression: tuple[str, ...]) -> None:
    """Build the .deb from ``root``, owned by root, the compressor using every core."""
    threads = ["--threads-max", str(os.cpu_count() or 1)]
    subprocess.run(
        ["dpkg-deb", "--root-owner-group", *compression, *threads, "--build", str(root), str(deb)],
        check=True,
        stdout=subprocess.DEVNULL,
    )


# How long apt waits for dpkg's own lock (another apt or dpkg at work) before it gives up.
DPKG_LOCK_WAIT_S = 600
# The machine-wide lock of the install check (machine_lock).
CHECK_LOCK = "upabhasha-deb-check"


def _apt(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["apt-get", "-y", "-q", "-o", f"DPkg::Lock::Timeout={DPKG_LOCK_WAIT_S}", *args],
        capture_output=True,
        text=True,
        env={"DEBIAN_FRONTEND": "noninteractive", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"},
    )


def leftovers() -> list[str]:
    return [str(p) for p in INSTALLED if p.exists() or p.is_symlink()]


def dpkg_state() -> str:
    """dpkg's two-letter state of the package ("ii" installed, "iU" unpacked, "rc" removed
    with its configuration kept ...); "" when dpkg does not know it."""
    out = subprocess.run(
        ["dpkg-query", "-W", "-f=${db:Status-Abbrev}", "upabhasha"],
        capture_output=True,
        text=True,
    )
    return out.stdout.strip() if out.returncode == 0 else ""


def remove_previous(say) -> None:
    """A copy installed before this check (by hand, or by a run killed between install and
    removal) is purged first, so the check installs, tests and removes its own .deb."""
    if not (leftovers() or dpkg_state() not in ("", "un")):
        return
    say(f"a previous upabhasha is installed ({dpkg_state() or leftovers()}): purging it first")
    purged = _apt("purge", "upabhasha")
    if purged.returncode != 0 and dpkg_state() not in ("", "un"):
        # half-installed (a preinst refused, an unpack broke off): dpkg alone can purge it
        subprocess.run(
            ["dpkg", "--purge", "--force-remove-reinstreq", "upabhasha"], capture_output=True
        )
    if leftovers() or dpkg_state() not in ("", "un"):
        raise SystemExit(
            f"upabhasha is still installed here after a purge ({dpkg_state()}, "
            f"{leftovers()}): remove it by hand"
        )


def install_check(deb: Path, say) -> dict:
    """apt-get install the .deb (as root), run the installed program's smoke test, then
    apt-get remove it and check that nothing of it is left. One check at a time on a
    machine (machine_lock: a second waits); a copy installed before is purged first."""
    from machine_lock import machine_lock

    if sys.platform != "linux" or not shutil.which("apt-get"):
        raise SystemExit("the .deb check needs a Debian/Ubuntu system with apt-get")
    if os.geteuid() != 0:
        raise SystemExit("the .deb check installs a package: run it as root (CI does)")
    with machine_lock(CHECK_LOCK, say):
        remove_previous(say)
        return _install_smoke_remove(deb, say)


def _install_smoke_remove(deb: Path, say) -> dict:
    from frozen_smoke import run_smoke, summary

    result: dict = {}
    say(f"apt-get install ./{deb.name}")
    installed = _apt("install", "--no-install-recommends", str(deb.resolve()))
    if installed.returncode != 0:
        # a machine without the desktop floor (a CI container) needs its package lists
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
