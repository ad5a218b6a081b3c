"""``make installer``: build the Linux artefact and smoke-test the built program.

1. install the ``packaging`` extra of pyproject.toml (PyInstaller) into this environment;
2. run PyInstaller on packaging/upabhasha.spec (one-folder build, two programs);
3. write dist/upabhasha-<version>-linux-x86_64.tar.gz: the program folder, a launcher,
   a .desktop file (plus the script that installs it for the user) and the icon;
4. unpack it into a temporary folder, make the program folder read-only (as an install
   under /opt would be), run ``upabhasha-gui --smoke-test`` there with fresh platform
   folders (a temporary HOME/XDG), and check that nothing was written next to the program
   and that user data went to the platform folders.

Prints the build time and the artefact size; the last line is one JSON object.
``--skip-build`` reuses the previous PyInstaller output, ``--no-smoke`` skips step 4.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
WORK = ROOT / "build" / "pyinstaller"
DIST = ROOT / "dist"
SMOKE_TIMEOUT_S = 600

LAUNCHER = """#!/bin/sh
# Upabhasha launcher: starts the program from wherever this folder was unpacked.
# The command line is next to it: ./upabhasha --help
here="$(dirname "$(readlink -f "$0")")"
exec "$here/upabhasha-gui" "$@"
"""

DESKTOP = """[Desktop Entry]
Type=Application
Version=1.5
Name=Upabhasha
GenericName=Dialect evaluation workstation
Comment=How much worse do LLMs answer questions in Bengali dialects?
Exec={exec} %f
Icon={icon}
Terminal=false
Categories=Science;Education;Languages;
MimeType=application/vnd.sqlite3;
StartupWMClass=upabhasha-gui
"""

INSTALL_DESKTOP = """#!/bin/sh
# Adds Upabhasha to the desktop menu of the current user (no root needed).
# Undo: rm ~/.local/share/applications/upabhasha.desktop
#          ~/.local/share/icons/hicolor/256x256/apps/upabhasha.png
# Your workspaces, settings and logs are not touched by either.
set -e
here="$(dirname "$(readlink -f "$0")")"
apps="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
icons="${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor/256x256/apps"
mkdir -p "$apps" "$icons"
cp "$here/upabhasha.png" "$icons/upabhasha.png"
sed -e "s|^Exec=.*|Exec=\\"$here/upabhasha-launcher\\" %f|" -e "s|^Icon=.*|Icon=upabhasha|" \\
    "$here/upabhasha.desktop" > "$apps/upabhasha.desktop"
chmod +x "$apps/upabhasha.desktop"
command -v update-desktop-database >/dev/null && update-desktop-database "$apps" || true
echo "Upabhasha added to the applications menu ($apps/upabhasha.desktop)"
"""


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def say(text: str) -> None:
    print(f"[installer] {text}", flush=True)


def install_packaging_extra() -> None:
    requirements = project()["optional-dependencies"]["packaging"]
    say(f"installing the packaging extra: {', '.join(requirements)}")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", *requirements], check=True)


def run_pyinstaller() -> Path:
    say("PyInstaller: packaging/upabhasha.spec (one folder)")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "PyInstaller",
            "--noconfirm",
            "--log-level",
            "WARN",
            "--distpath",
            str(WORK / "dist"),
            "--workpath",
            str(WORK / "work"),
            str(PACKAGING / "upabhasha.spec"),
        ],
        check=True,
        cwd=ROOT,
    )
    return WORK / "dist" / project()["name"]


def folder_bytes(folder: Path) -> int:
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def biggest_parts(folder: Path, n: int = 8) -> dict[str, float]:
    """Size in MB of the largest top-level entries of the bundle's _internal folder."""
    internal = folder / "_internal"
    sizes = {}
    for entry in internal.iterdir():
        sizes[entry.name] = folder_bytes(entry) if entry.is_dir() else entry.lstat().st_size
    top = sorted(sizes.items(), key=lambda kv: -kv[1])[:n]
    return {name: round(size / 1e6, 1) for name, size in top}


def write_artefact(bundle: Path, version: str, variant: str = "cpu") -> Path:
    name = project()["name"]
    stem = f"{name}-{version}"
    staging = WORK / "staging"
    shutil.rmtree(staging, ignore_errors=True)
    top = staging / stem
    shutil.copytree(bundle, top, symlinks=True)
    for filename, text, mode in (
        ("upabhasha-launcher", LAUNCHER, 0o755),
        ("install-desktop-entry.sh", INSTALL_DESKTOP, 0o755),
        ("upabhasha.desktop", DESKTOP.format(exec="upabhasha-launcher", icon="upabhasha"), 0o644),
    ):
        (top / filename).write_text(text, encoding="utf-8")
        (top / filename).chmod(mode)
    for icon in ("upabhasha.png", "upabhasha.svg"):
        shutil.copy2(PACKAGING / icon, top / icon)
    shutil.copy2(PACKAGING / "README.md", top / "PACKAGING-NOTES.md")
    DIST.mkdir(exist_ok=True)
    suffix = "" if variant == "cpu" else f"-{variant}"
    artefact = DIST / f"{stem}-linux-x86_64{suffix}.tar.gz"
    say(f"writing {artefact.relative_to(ROOT)}")
    pigz = shutil.which("pigz")
    if pigz:  # parallel gzip, same format
        with artefact.open("wb") as out:
            tar = subprocess.Popen(
                ["tar", "-C", str(staging), "-cf", "-", stem], stdout=subprocess.PIPE
            )
            subprocess.run([pigz, "-6"], stdin=tar.stdout, stdout=out, check=True)
            if tar.wait() != 0:
                raise SystemExit("tar failed")
    else:
        with tarfile.open(artefact, "w:gz", compresslevel=6) as tar:
            tar.add(top, arcname=stem)
    shutil.rmtree(staging)
    return artefact


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {
        str(p.relative_to(folder)): (p.lstat().st_size, p.lstat().st_mtime_ns)
        for p in folder.rglob("*")
    }


def set_writable(folder: Path, writable: bool) -> None:
    for path in [folder, *folder.rglob("*")]:
        if path.is_symlink():
            continue
        mode = path.stat().st_mode
        mode = (
            mode | stat.S_IWUSR
            if writable
            else mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
        )
        path.chmod(mode)


def smoke_test(artefact: Path) -> dict:
    """Unpack, make read-only, run the frozen smoke test with fresh platform folders."""
    with tempfile.TemporaryDirectory(prefix="upabhasha-installer-") as tmp:
        tmp = Path(tmp)
        with tarfile.open(artefact) as tar:
            tar.extractall(tmp / "unpacked", filter="tar")
        program = next((tmp / "unpacked").iterdir())
        home = tmp / "home"
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("UPABHASHA_", "PYTHON", "VIRTUAL_ENV", "QT_", "XDG_"))
        }
        env.update(
            HOME=str(home),
            XDG_DATA_HOME=str(home / ".local/share"),
            XDG_CONFIG_HOME=str(home / ".config"),
            XDG_STATE_HOME=str(home / ".local/state"),
            XDG_CACHE_HOME=str(home / ".cache"),
        )
        (tmp / "cwd").mkdir()
        set_writable(program, False)
        before = snapshot(program)
        say(f"smoke test of the unpacked artefact: {program}/upabhasha-launcher --smoke-test")
        started = time.perf_counter()
        try:
            out = subprocess.run(
                [str(program / "upabhasha-launcher"), "--smoke-test"],
                env=env,
                cwd=tmp / "cwd",
                stdout=subprocess.PIPE,
                text=True,
                timeout=SMOKE_TIMEOUT_S,
            )
        finally:
            changed = sorted(set(snapshot(program).items()) ^ set(before.items()))
            set_writable(program, True)
        seconds = time.perf_counter() - started
        lines = out.stdout.strip().splitlines()
        report = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {}
        failures = list(report.get("failures", ["no JSON report on stdout"]))
        if out.returncode != 0:
            failures.append(f"exit code {out.returncode}")
        if changed:
            failures.append(f"files written next to the program: {[c[0] for c in changed][:10]}")
        for kind, folder in (report.get("user_folders") or {}).items():
            if not Path(folder).is_relative_to(home):
                failures.append(f"{kind} folder {folder} is not in the user's home")
        if not report.get("frozen"):
            failures.append("the program that ran was not the frozen one")
        return {
            "ok": not failures,
            "failures": failures,
            "seconds": round(seconds, 1),
            "report": report,
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--skip-build",
        action="store_true",
        help="reuse build/pyinstaller/dist (no pip, no PyInstaller)",
    )
    parser.add_argument("--no-smoke", action="store_true", help="do not run the smoke test")
    parser.add_argument(
        "--bundle",
        type=Path,
        help="pack this PyInstaller folder (implies "
        "--skip-build; packaging/gpu/build-linux-cuda.sh passes its own)",
    )
    parser.add_argument("--variant", default="cpu", help="artefact name suffix (cpu: none)")
    args = parser.parse_args(argv)
    if sys.platform != "linux":
        raise SystemExit(
            "build.py writes the Linux artefact; see packaging/README.md for "
            "the Windows and macOS recipes"
        )
    version = project()["version"]
    result: dict = {"version": version}
    started = time.perf_counter()
    if args.bundle or args.skip_build:
        bundle = args.bundle or WORK / "dist" / project()["name"]
    else:
        install_packaging_extra()
        bundle = run_pyinstaller()
    result["build_s"] = round(time.perf_counter() - started, 1)
    result["bundle_mb"] = round(folder_bytes(bundle) / 1e6, 1)
    result["largest_mb"] = biggest_parts(bundle)
    t = time.perf_counter()
    artefact = write_artefact(bundle, version, args.variant)
    result["package_s"] = round(time.perf_counter() - t, 1)
    result["artefact"] = str(artefact.relative_to(ROOT))
    result["artefact_mb"] = round(artefact.stat().st_size / 1e6, 1)
    say(
        f"built in {result['build_s']:.0f} s (+{result['package_s']:.0f} s to compress): "
        f"{result['artefact']} is {result['artefact_mb']:.0f} MB "
        f"({result['bundle_mb']:.0f} MB unpacked)"
    )
    code = 0
    if not args.no_smoke:
        smoke = smoke_test(artefact)
        report = smoke["report"]
        result["smoke"] = {
            "ok": smoke["ok"],
            "seconds": smoke["seconds"],
            "failures": smoke["failures"],
            "startup_s": report.get("startup_s"),
            "steps_s": (report.get("pipeline") or {}).get("steps_s"),
            "llama_backend": (report.get("llama_backend") or {}).get("message"),
        }
        say(
            f"smoke test {'passed' if smoke['ok'] else 'FAILED'} in {smoke['seconds']:.0f} s"
            + ("" if smoke["ok"] else ": " + "; ".join(smoke["failures"]))
        )
        code = 0 if smoke["ok"] else 1
    print(json.dumps(result, ensure_ascii=False), flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
