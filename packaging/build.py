"""``make installer``: build the Linux artefacts from a clean environment and check them.

1. inside the Debian 11 build root (packaging/build_root.py: made once, cached outside the
   clone; root needed), so that no bundled file needs a glibc newer than 2.31:
   create ``build/installer-venv`` with only the runtime dependencies of pyproject.toml and
   the ``packaging`` extra (PyInstaller), the CPU torch first (``TORCH_SPEC``, as the
   Makefile does), then llama-cpp-python with llama.cpp's Vulkan and CPU backends
   (packaging/vulkan_build.py: built once, cached outside the clone); reused while
   pyproject.toml and the torch spec are unchanged; refused when a test-only package
   (numba, llvmlite, pytest) is in it;
2. run PyInstaller on packaging/upabhasha.spec with it (one-folder build, two programs);
3. check the folder: no file needing a glibc or C++ runtime above the floor (Debian 11's:
   build_root.GLIBC_FLOOR, GLIBCXX_FLOOR), the rules of bundle_rules (no test folders, no identical library pairs,
   no CUDA runtime in the CPU build), its libraries against the desktop floor
   (system_floor: each one the bundle or the floor provides; the .deb depends on floor
   packages only) and its start (bench/frozen_start.py: no lazily
   imported package loaded before main(), ``--help`` and first-window times);
4. write ``dist/upabhasha_<version>_amd64.deb`` (packaging/deb.py, xz on every core): the one
   compression pass; ``--tarball`` adds ``dist/upabhasha-<version>-linux-x86_64.tar.<ext>``
   (the same program folder, a launcher, a .desktop file, the file types and the script that
   installs them for the user, the icon), and a GPU variant writes only the tarball;
5. make the tarball's folder read-only (as an install under /opt would be; unpacked from
   the tarball when one was written, else staged with hard links), run
   ``upabhasha-launcher --smoke-test`` there with fresh platform folders
   (packaging/frozen_smoke.py).

``--install-deb`` (root, apt; ``.ci/run`` does it) is the CI check: desktop-file-validate on
both menu entries, lintian on the .deb in the background while the .deb is installed with
apt-get, smoke-tested (the one full smoke run, instead of step 5's) and removed, checking
that nothing is left; then installed offline and smoke-tested in minimal Debian 11 and
Debian 12 roots (packaging/offline_install_check.py).
Each phase's time is printed as it ends; the last line printed is one JSON object: phases,
sizes, the glibc floor, the frozen start, the smoke and lint results.
``--skip-build`` re-packs the previous PyInstaller output, ``--no-smoke`` skips the start
check and smoke test, ``--compare-compression`` times gzip, xz and zstd on the same tar.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
WORK = ROOT / "build" / "pyinstaller"
DIST = ROOT / "dist"
# name → (file suffix, command reading a tar on stdin; -T0: every core). Compared on the same
# folder (README "Numbers"): gzip -6 misses the size goal; xz -6 is far too slow on a shared
# machine; zstd -12 meets the goal in a fraction of xz's time.
COMPRESSORS = {
    "gz": ("tar.gz", ["gzip", "-6"]),
    "xz": ("tar.xz", ["xz", "-T0", "-6"]),
    "zst": ("tar.zst", ["zstd", "-T0", "-12", "-q"]),
}
COMPRESSION = "zst"
# The .deb is xz-compressed whatever the tarball uses: every dpkg reads xz (a zstd .deb needs
# dpkg >= 1.21.18), so an older system gets apt's refusal of the libc6 floor, not a malformed
# archive. Level 1: levels 3 and 6 took 2.9 and 10.5 times as long on the same 150 MB for 4 %
# and 13 % smaller output. deb.dpkg_deb lets xz use every core (--threads-max).
DEB_COMPRESSION = ("-Zxz", "-z1")

sys.path.insert(0, str(PACKAGING))
from build_root import (  # noqa: E402
    GLIBC_FLOOR,
    GLIBCXX_FLOOR,
    build_environment,
    ensure_root,
    pip_configuration,
    run_in_root,
)
from build_root import PYTHON as ROOT_PYTHON  # noqa: E402
from bundle_binaries import above_floor, bundle_problems, glibc_floor  # noqa: E402 - packaging/ on the path
from frozen_smoke import run_smoke, summary  # noqa: E402
from launchers import tarball_launcher  # noqa: E402
from root_bundle import BUNDLE_RUN, project, say  # noqa: E402
from vulkan_build import cache_folder  # noqa: E402

DESKTOP = """[Desktop Entry]
Type=Application
Version=1.4
Name=Upabhasha
Name[bn]=উপভাষা
GenericName=Dialect evaluation workstation
GenericName[bn]=উপভাষা মূল্যায়নের ওয়ার্কস্টেশন
Comment=How much worse do LLMs answer questions in Bengali dialects?
Comment[bn]=বাংলা উপভাষায় প্রশ্ন করলে বড় ভাষা মডেলগুলো কতটা খারাপ উত্তর দেয়?
Keywords=dialect;Bengali;LLM;evaluation;annotation;translation;
Keywords[bn]=উপভাষা;বাংলা;মূল্যায়ন;টীকা;অনুবাদ;
Exec={exec} %f
Icon={icon}
Terminal=false
Categories=Education;Languages;
MimeType=application/x-upabhasha-workspace;application/x-upabhasha-review-package;
StartupWMClass=upabhasha-gui
"""

INSTALL_DESKTOP = """#!/bin/sh
# Adds Upabhasha to the desktop menu of the current user (no root needed), and its file types
# (workspaces, review packages).
# Undo: rm ~/.local/share/applications/upabhasha.desktop
#          ~/.local/share/icons/hicolor/256x256/apps/upabhasha.png
#          ~/.local/share/mime/packages/upabhasha.xml
# Your workspaces, settings and logs are not touched by either.
set -e
here="$(dirname "$(readlink -f "$0")")"
apps="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
icons="${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor/256x256/apps"
mime="${XDG_DATA_HOME:-$HOME/.local/share}/mime"
mkdir -p "$apps" "$icons" "$mime/packages"
cp "$here/upabhasha.png" "$icons/upabhasha.png"
cp "$here/upabhasha-mime.xml" "$mime/packages/upabhasha.xml"
command -v update-mime-database >/dev/null && update-mime-database "$mime" || true
sed -e "s|^Exec=.*|Exec=\\"$here/upabhasha-launcher\\" %f|" -e "s|^Icon=.*|Icon=upabhasha|" \\
    "$here/upabhasha.desktop" > "$apps/upabhasha.desktop"
chmod +x "$apps/upabhasha.desktop"
command -v update-desktop-database >/dev/null && update-desktop-database "$apps" || true
echo "Upabhasha added to the applications menu ($apps/upabhasha.desktop)"
"""


def build_in_root(result: dict, phases: Phases) -> Path:
    """The build venv and PyInstaller, run inside the Debian 11 build root (build_root.py)
    with this clone, the pip cache and the wheel cache at their own paths."""
    root = ensure_root(say)
    phases.done("build_root")
    BUNDLE_RUN.unlink(missing_ok=True)
    caches = [Path.home() / ".cache" / "pip", cache_folder().parent]
    for cache in caches:
        cache.mkdir(parents=True, exist_ok=True)
    ran = run_in_root(
        root,
        [ROOT_PYTHON, "packaging/root_bundle.py"],
        binds=(ROOT, *caches, *pip_configuration()),
        cwd=ROOT,
        env=build_environment(),
    )
    if ran.returncode != 0 or not BUNDLE_RUN.is_file():
        raise SystemExit(f"the build in {root} failed (exit {ran.returncode}); see above")
    inside = json.loads(BUNDLE_RUN.read_text())
    result["venv_made"] = inside["venv_made"]
    result["in_root_s"] = inside["phases_s"]  # venv and PyInstaller apart
    phases.done("venv_pyinstaller")
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


def stage_tree(bundle: Path, version: str) -> tuple[Path, str]:
    """The tarball's folder: the program plus launcher, menu entry and icon."""
    name = project()["name"]
    stem = f"{name}-{version}"
    staging = WORK / "staging"
    shutil.rmtree(staging, ignore_errors=True)
    top = staging / stem
    shutil.copytree(bundle, top, symlinks=True, copy_function=os.link)  # no 1.2 GB copy
    launcher = tarball_launcher(glibc_floor(bundle))
    for filename, text, mode in (
        ("upabhasha-launcher", launcher, 0o755),
        ("install-desktop-entry.sh", INSTALL_DESKTOP, 0o755),
        ("upabhasha.desktop", DESKTOP.format(exec="upabhasha-launcher", icon="upabhasha"), 0o644),
    ):
        (top / filename).write_text(text, encoding="utf-8")
        (top / filename).chmod(mode)
    for icon in ("upabhasha.png", "upabhasha.svg", "upabhasha-mime.xml"):
        shutil.copy2(PACKAGING / icon, top / icon)
    shutil.copy2(PACKAGING / "README.md", top / "PACKAGING-NOTES.md")
    return staging, stem


def compress(staging: Path, stem: str, out: Path, method: str) -> float:
    """tar the staged folder through the compressor; returns the seconds it took."""
    started = time.perf_counter()
    with out.open("wb") as sink:
        tar = subprocess.Popen(
            ["tar", "-C", str(staging), "-cf", "-", stem], stdout=subprocess.PIPE
        )
        subprocess.run(COMPRESSORS[method][1], stdin=tar.stdout, stdout=sink, check=True)
        if tar.wait() != 0:
            raise SystemExit("tar failed")
    return round(time.perf_counter() - started, 1)


def compare_compression(staging: Path, stem: str) -> dict:
    """Each compressor on the same folder: MB and seconds (how COMPRESSION was chosen)."""
    found = {}
    with tempfile.TemporaryDirectory(dir=WORK) as tmp:
        for method, (suffix, command) in COMPRESSORS.items():
            if not shutil.which(command[0]):
                continue
            out = Path(tmp) / f"a.{suffix}"
            seconds = compress(staging, stem, out, method)
            found[method] = {"mb": round(out.stat().st_size / 1e6, 1), "seconds": seconds}
            say(f"{' '.join(command)}: {found[method]['mb']} MB in {seconds} s")
            out.unlink()
    return found


def write_tarball(staging: Path, stem: str, variant: str, method: str) -> tuple[Path, float]:
    tool = COMPRESSORS[method][1][0]
    if not shutil.which(tool):
        raise SystemExit(f"{tool} is not installed: apt-get install {tool}, or --compression gz")
    DIST.mkdir(exist_ok=True)
    suffix = "" if variant == "cpu" else f"-{variant}"
    artefact = DIST / f"{stem}-linux-x86_64{suffix}.{COMPRESSORS[method][0]}"
    for old in DIST.glob(f"{stem}-linux-x86_64{suffix}.tar.*"):
        old.unlink()
    say(f"writing {artefact.relative_to(ROOT)}")
    return artefact, compress(staging, stem, artefact, method)


def smoke_tarball(artefact: Path) -> dict:
    """Unpack, make read-only, run the frozen smoke test with fresh platform folders."""
    with tempfile.TemporaryDirectory(prefix="upabhasha-installer-") as tmp:
        unpacked = Path(tmp) / "unpacked"
        unpacked.mkdir()
        subprocess.run(["tar", "-C", str(unpacked), "-xf", str(artefact)], check=True)
        return smoke_folder(next(unpacked.iterdir()))


def smoke_folder(program: Path) -> dict:
    say(f"smoke test of the tarball's folder: {program}/upabhasha-launcher --smoke-test")
    return run_smoke([str(program / "upabhasha-launcher")], program)


class Phases:
    """Times of the build's phases, printed as each ends and kept for the JSON line."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._started = time.perf_counter()

    def done(self, name: str) -> None:
        now = time.perf_counter()
        self.seconds[name] = round(now - self._started, 1)
        say(f"phase {name}: {self.seconds[name]:.0f} s")
        self._started = now


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--skip-build",
        action="store_true",
        help="reuse build/pyinstaller/dist (no venv, no PyInstaller)",
    )
    parser.add_argument("--no-smoke", action="store_true", help="do not run the smoke test")
    parser.add_argument("--no-deb", action="store_true", help="do not build the .deb")
    parser.add_argument(
        "--install-deb",
        action="store_true",
        help="the CI check: lint the .deb, apt-get install it, smoke-test it, remove it (root); "
        "the tarball (the same folder) is then skipped unless --tarball is given",
    )
    parser.add_argument(
        "--tarball", action="store_true", help="write the tarball as well (a second pass)"
    )
    parser.add_argument(
        "--bundle",
        type=Path,
        help="pack this PyInstaller folder (implies "
        "--skip-build; packaging/gpu/build-linux-cuda.sh passes its own)",
    )
    parser.add_argument("--variant", default="cpu", help="artefact name suffix (cpu: none)")
    parser.add_argument("--compression", choices=sorted(COMPRESSORS), default=COMPRESSION)
    parser.add_argument(
        "--compare-compression",
        action="store_true",
        help="time every compressor on the bundle first",
    )
    args = parser.parse_args(argv)
    if sys.platform != "linux":
        raise SystemExit(
            "build.py writes the Linux artefacts; see packaging/README.md for "
            "the Windows and macOS recipes"
        )
    meta = project()
    version = meta["version"]
    result: dict = {"version": version}
    phases = Phases()
    started = time.perf_counter()
    failed: list[str] = []
    if args.bundle or args.skip_build:
        bundle = args.bundle or WORK / "dist" / meta["name"]
    else:
        bundle = build_in_root(result, phases)
    result["bundle_mb"] = round(folder_bytes(bundle) / 1e6, 1)
    result["largest_mb"] = biggest_parts(bundle)
    result["glibc_floor"] = glibc_floor(bundle)
    for library, floor in (("GLIBC", GLIBC_FLOOR), ("GLIBCXX", GLIBCXX_FLOOR)):
        above = above_floor(bundle, floor, library)
        if above:
            result[f"above_{library.lower()}_floor"] = above[:20]
            failed.append(f"{len(above)} bundled files need {library} newer than {floor}")
    left_out = WORK / "work" / "upabhasha" / "left-out.json"
    if left_out.is_file():
        result["left_out_files"] = {
            why: len(files) for why, files in json.loads(left_out.read_text()).items()
        }
    problems = bundle_problems(bundle, cpu_only=args.variant == "cpu")
    result["bundle_problems"] = problems[:20]
    failed += [f"bundle contents: {problems[:5]}"] if problems else []
    if not args.no_smoke:
        from package_checks import frozen_start

        start = frozen_start(bundle)
        result["frozen_start"] = start
        say(
            f"frozen start: --help {start['help_s']:.2f} s, first window "
            f"{start['first_window_s']:.2f} s, {start['modules_at_start']} modules before "
            f"main(), heavy: {start['heavy_at_start'] or 'none'}; {start['modules_at_window']} "
            f"at the first window, heavy: {start['heavy_at_window'] or 'none'}"
        )
        failed += [f"imported before main(): {start['heavy_at_start']}"] * bool(
            start["heavy_at_start"]
        )
        failed += [f"loaded by the first window: {start['heavy_at_window']}"] * bool(
            start["heavy_at_window"]
        )
    phases.done("checks")
    artefact = staged = None
    # the .deb is the one compression pass unless a tarball is asked for (a GPU variant has
    # no .deb); without --install-deb the tarball's folder is smoke-tested as staged
    tarball = args.tarball or args.compare_compression or args.variant != "cpu"
    if tarball or not args.install_deb:
        staging, stem = stage_tree(bundle, version)
        staged = staging / stem
    if tarball:
        if args.compare_compression:
            result["compression_compared"] = compare_compression(staging, stem)
        artefact, _seconds = write_tarball(staging, stem, args.variant, args.compression)
        shutil.rmtree(staging)
        staged = None
        result["artefact"] = str(artefact.relative_to(ROOT))
        result["artefact_mb"] = round(artefact.stat().st_size / 1e6, 1)
        say(f"{result['artefact']}: {result['artefact_mb']:.0f} MB")
        phases.done("tarball")
    deb = None
    if not args.no_deb and args.variant == "cpu":
        from deb import build_deb

        deb = build_deb(
            bundle,
            meta,
            DESKTOP.format(exec="upabhasha-gui", icon="upabhasha"),
            WORK / "deb",
            DIST,
            DEB_COMPRESSION,
        )
        result["deb"] = str(deb.relative_to(ROOT))
        result["deb_mb"] = round(deb.stat().st_size / 1e6, 1)
        say(f"{result['deb']}: {result['deb_mb']:.0f} MB (xz)")
        from package_checks import preinst_check

        result["preinst"] = preinst_check(deb)
        say(f"preinst on glibc 2.17: {' / '.join(result['preinst']['refusal'])}")
        failed += result["preinst"]["problems"]
        phases.done("deb")
    if args.variant == "cpu":
        from package_checks import floor_check

        floor = floor_check(bundle, deb)
        result["desktop_floor"] = floor
        say(f"from the system: {', '.join(floor['from_system'])}; Depends: {floor['depends']}")
        failed += [f"desktop floor: {floor['problems'][:5]}"] * bool(floor["problems"])
    if (artefact or staged) and not args.no_smoke:
        smoke = summary(smoke_tarball(artefact) if artefact else smoke_folder(staged))
        result["smoke"] = smoke
        say(
            f"smoke test {'passed' if smoke['ok'] else 'FAILED'} in {smoke['seconds']:.0f} s"
            + ("" if smoke["ok"] else ": " + "; ".join(smoke["failures"]))
        )
        failed += [] if smoke["ok"] else ["tarball smoke test"]
        phases.done("tarball_smoke")
    if staged:
        shutil.rmtree(staged.parent)
    if args.install_deb:
        if deb is None:
            raise SystemExit("--install-deb needs the .deb (drop --no-deb)")
        failed += install_and_lint(deb, result, phases)
    result["phases_s"] = phases.seconds
    result["total_s"] = round(time.perf_counter() - started, 1)
    print(json.dumps(result, ensure_ascii=False), flush=True)
    if failed:
        say(f"FAILED: {', '.join(failed)}; rerun with --skip-build after a fix to the spec")
    return 1 if failed else 0


def install_and_lint(deb: Path, result: dict, phases: Phases) -> list[str]:
    """Lint both menu entries and the .deb (lintian in the background) while the .deb is
    installed, smoke-tested and removed; returns the failures."""
    from deb import install_check
    from package_checks import desktop_problems, ensure_tools, lintian_result, start_lintian

    failed = []
    missing = ensure_tools(say)
    if missing:
        failed.append(f"lint tools missing: {missing}")
    lintian = None if "lintian" in missing else start_lintian(deb)
    if "desktop-file-validate" not in missing:
        entries = {
            "/usr/share/applications": DESKTOP.format(exec="upabhasha-gui", icon="upabhasha"),
            "tarball": DESKTOP.format(exec="upabhasha-launcher", icon="upabhasha"),
        }
        result["desktop_problems"] = desktop_problems(entries)
        failed += [f"desktop entries: {result['desktop_problems']}"] * bool(
            result["desktop_problems"]
        )
    checked = install_check(deb, say)
    result["deb_install"] = checked
    say(
        f".deb install, smoke test and removal {'passed' if checked['ok'] else 'FAILED'}"
        + ("" if checked["ok"] else f": {checked.get('failures')} {checked['smoke']}")
    )
    failed += [] if checked["ok"] else [".deb check"]
    phases.done("install_smoke_remove")
    from offline_install_check import SUITES, check_suite

    result["offline_installs"] = [check_suite(deb, suite, say) for suite in SUITES]
    for offline in result["offline_installs"]:
        say(
            f"offline install in {offline['suite']}: "
            + ("passed" if offline["ok"] else f"FAILED {offline}")
        )
        failed += [] if offline["ok"] else [f"offline install in {offline['suite']}"]
    phases.done("offline_installs")
    if lintian is not None:
        lint = lintian_result(lintian)
        result["lintian"] = lint
        say(
            f"lintian: {len(lint['errors'])} errors, {lint['warning_lines']} warning lines, "
            f"{len(lint['unused_overrides'])} unused overrides"
        )
        failed += [f"lintian errors: {lint['errors'][:5]}"] * bool(lint["errors"])
        failed += [f"lintian: {lint['unused_overrides'][:5]}"] * bool(lint["unused_overrides"])
        phases.done("lintian_wait")
    return failed


if __name__ == "__main__":
    sys.exit(main())
