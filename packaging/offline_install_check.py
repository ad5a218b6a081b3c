"""Install the .deb with apt in minimal Debian 11 and Debian 12 roots that have no package
sources and no network, and run the installed program's smoke test there (offscreen).
``build.py --install-deb`` (CI) checks both; by hand, as root::

    python3 packaging/offline_install_check.py dist/upabhasha_0.1.0_amd64.deb --suite bullseye

1. the suite's base root: ``debootstrap --variant=minbase`` with the desktop floor
   (``system_floor.DESKTOP_FLOOR``: what every desktop install has), then
   ``/etc/apt/sources.list*`` and apt's package lists removed, so apt knows no package it
   could download. Made once and kept under ``~/.cache/upabhasha/roots/`` (CI reuses it);
2. a scratch copy of it for each check, so the kept root never holds the .deb, and a check
   killed half-way leaves nothing the next one meets;
3. ``apt-get install ./upabhasha_*.deb`` inside the copy without a network: it must succeed
   with what the floor provides (Debian 11's glibc 2.31 included);
4. ``/usr/bin/upabhasha-gui --smoke-test`` there with a fresh HOME, offscreen, also without a
   network; then ``apt-get remove upabhasha``.

Prints one JSON line per suite: the install's apt output and time, the smoke test's result;
exit code 0 when every suite passed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_root import (  # noqa: E402 - packaging/ on the path
    ensure_root_tools,
    make_root,
    roots_folder,
    run_in_root,
)
from system_floor import DESKTOP_FLOOR  # noqa: E402

SUITES = ("bullseye", "bookworm")  # Debian 11 (glibc 2.31, the floor) and Debian 12
SMOKE = (
    "home=$(mktemp -d) && HOME=$home QT_QPA_PLATFORM=offscreen LANG=C.UTF-8 "
    "/usr/bin/upabhasha-gui --smoke-test"
)


def base_root(suite: str, say: Callable[[str], None]) -> Path:
    """The suite's minimal root with the floor and no package sources, made once."""
    key = hashlib.sha256(json.dumps([suite, sorted(DESKTOP_FLOOR)]).encode()).hexdigest()[:12]
    root = roots_folder() / f"install-{suite}-{key}"
    if (root / "usr/bin/apt-get").exists():
        return root
    ensure_root_tools(say)
    say(f"debootstrap {suite} with the desktop floor (once; cached)")
    make_root(root, suite, DESKTOP_FLOOR, _without_package_sources)
    return root


def _without_package_sources(root: Path) -> None:
    """No package source and no package list: apt can fetch nothing afterwards."""
    for path in (root / "etc/apt").glob("sources.list*"):
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    (root / "etc/apt/sources.list.d").mkdir()  # empty: apt warns when it is missing
    for path in (root / "var/lib/apt/lists").glob("*"):
        if path.is_file():
            path.unlink()


def check_suite(deb: Path, suite: str, say: Callable[[str], None]) -> dict:
    """Install, smoke-test and remove the .deb offline in a copy of the suite's root."""
    result: dict = {"suite": suite}
    base = base_root(suite, say)
    with tempfile.TemporaryDirectory(prefix=f"check-{suite}-", dir=roots_folder()) as tmp:
        root = Path(tmp) / "root"
        subprocess.run(["cp", "-a", str(base), str(root)], check=True)
        shutil.copy(deb, root / "tmp" / deb.name)
        say(f"{suite}: apt-get install ./{deb.name} offline")
        started = time.perf_counter()
        apt = ["apt-get", "install", "-y", "-q", "--no-install-recommends", f"/tmp/{deb.name}"]
        installed = run_in_root(root, apt, capture=True, network=False)
        result["install_s"] = round(time.perf_counter() - started, 1)
        result["install_ok"] = installed.returncode == 0
        result["apt_tail"] = (installed.stdout + installed.stderr).splitlines()[-6:]
        if result["install_ok"]:
            started = time.perf_counter()
            smoke = run_in_root(root, ["sh", "-c", SMOKE], capture=True, network=False)
            result["smoke_s"] = round(time.perf_counter() - started, 1)
            lines = smoke.stdout.strip().splitlines()
            report = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {}
            result["smoke_ok"] = smoke.returncode == 0 and report.get("ok") is True
            result["smoke_failures"] = report.get("failures", [smoke.stderr[-1500:]])
            removed = run_in_root(
                root, ["apt-get", "remove", "-y", "upabhasha"], capture=True, network=False
            )
            result["removed"] = removed.returncode == 0
    result["ok"] = bool(result.get("smoke_ok") and result.get("removed"))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deb", type=Path)
    parser.add_argument("--suite", action="append", choices=SUITES, help="default: all")
    args = parser.parse_args(argv)
    results = [check_suite(args.deb, suite, print) for suite in args.suite or SUITES]
    for result in results:
        print(json.dumps(result, ensure_ascii=False))
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
