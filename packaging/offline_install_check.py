"""Install the .deb with apt in a minimal Debian root that has no package sources, and run
the installed program's smoke test there (offscreen). Run by hand as root; not in CI (the root,
made from Debian's mirror, is 514 MB on disk)::

    python3 packaging/offline_install_check.py dist/upabhasha_0.1.0_amd64.deb /work/scratch/root

1. ``debootstrap --variant=minbase bookworm ROOT`` (skipped when ROOT already holds a system);
2. installs the desktop floor in it (``system_floor.DESKTOP_FLOOR``: what every Debian 12 /
   Ubuntu 24.04 desktop has), then removes ``/etc/apt/sources.list*`` and apt's package lists,
   so apt knows no package it could download;
3. ``apt-get install ./upabhasha_*.deb`` inside the root, without a network
   (``unshare --net``): it must succeed with what the floor provides;
4. ``/usr/bin/upabhasha-gui --smoke-test`` inside the root with a fresh HOME, offscreen,
   also without a network; then ``apt-get remove upabhasha``.

Prints one JSON line: the installed packages' count, the install's apt output, the smoke
test's result; exit code 0 when both passed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from system_floor import DESKTOP_FLOOR  # noqa: E402 - packaging/ on the path

MIRROR = "http://deb.debian.org/debian"
ENV = ["env", "-i", "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "DEBIAN_FRONTEND=noninteractive"]


def chroot(root: Path, *command: str, network: bool = False) -> subprocess.CompletedProcess:
    isolate = [] if network else ["unshare", "--net"]
    return subprocess.run(
        [*isolate, "chroot", str(root), *ENV, *command], capture_output=True, text=True
    )


def make_root(root: Path, suite: str) -> None:
    if not (root / "usr/bin/apt-get").exists():
        subprocess.run(
            ["debootstrap", "--variant=minbase", suite, str(root), MIRROR],
            check=True,
            capture_output=True,
        )


def install_floor(root: Path) -> None:
    """The floor packages, then no package source and no package lists: apt can fetch
    nothing afterwards. Done once per root."""
    if (root / "etc/apt/sources.list").exists():
        chroot(root, "apt-get", "update", "-q", network=True)
        installed = chroot(
            root, "apt-get", "install", "-y", "-q", "--no-install-recommends",
            *DESKTOP_FLOOR, network=True,
        )  # fmt: skip
        if installed.returncode != 0:
            raise SystemExit(f"installing the floor failed:\n{installed.stderr[-2000:]}")
        for path in (root / "etc/apt").glob("sources.list*"):
            shutil.rmtree(path) if path.is_dir() else path.unlink()
        (root / "etc/apt/sources.list.d").mkdir()  # empty: apt warns when it is missing
        for path in (root / "var/lib/apt/lists").glob("*"):
            if path.is_file():
                path.unlink()


def mount_system(root: Path) -> list[Path]:
    mounted = []
    for target, args in (
        ("proc", ["-t", "proc", "proc"]),
        ("dev", ["--bind", "/dev"]),
        ("dev/shm", ["-t", "tmpfs", "tmpfs"]),
    ):
        subprocess.run(["mount", *args, str(root / target)], check=True)
        mounted.append(root / target)
    return mounted


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deb", type=Path)
    parser.add_argument("root", type=Path, help="the minimal root (made when missing)")
    parser.add_argument("--suite", default="bookworm")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        raise SystemExit("run as root: debootstrap, chroot and mount need it")
    make_root(args.root, args.suite)
    result: dict = {"root": str(args.root), "suite": args.suite}
    mounted = mount_system(args.root)
    try:
        install_floor(args.root)
        listed = chroot(args.root, "dpkg-query", "-W", "-f", "${Package}\\n").stdout.split()
        result["packages_before"] = len(listed)
        apt_dir = args.root / "etc/apt"
        sources = [*apt_dir.glob("sources.list"), *apt_dir.glob("sources.list.d/*")]
        result["package_sources"] = sorted(str(p.relative_to(args.root)) for p in sources)
        shutil.copy(args.deb, args.root / "tmp" / args.deb.name)
        started = time.perf_counter()
        apt = ["apt-get", "install", "-y", "-q", "--no-install-recommends", f"/tmp/{args.deb.name}"]
        installed = chroot(args.root, *apt)
        result["install_s"] = round(time.perf_counter() - started, 1)
        result["install_ok"] = installed.returncode == 0
        result["apt_tail"] = (installed.stdout + installed.stderr).splitlines()[-6:]
        if result["install_ok"]:
            started = time.perf_counter()
            smoke = chroot(
                args.root, "sh", "-c",
                "home=$(mktemp -d) && HOME=$home QT_QPA_PLATFORM=offscreen LANG=C.UTF-8 "
                "/usr/bin/upabhasha-gui --smoke-test",
            )  # fmt: skip
            result["smoke_s"] = round(time.perf_counter() - started, 1)
            lines = smoke.stdout.strip().splitlines()
            report = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {}
            result["smoke_ok"] = smoke.returncode == 0 and report.get("ok") is True
            result["smoke_failures"] = report.get("failures", [smoke.stderr[-1500:]])
            result["removed"] = (
                chroot(args.root, "apt-get", "remove", "-y", "upabhasha").returncode == 0
            )
    finally:
        for path in reversed(mounted):
            subprocess.run(["umount", "-l", str(path)], check=False)
        (args.root / "tmp" / args.deb.name).unlink(missing_ok=True)
    print(json.dumps(result, ensure_ascii=False))
    return 0 if result.get("install_ok") and result.get("smoke_ok") else 1


if __name__ == "__main__":
    sys.exit(main())
