"""The .deb's declared floor, control area (preinst, md5sums), documentation and file modes
(fast: no build; a tiny package with the real control area goes through the real dpkg)."""

from __future__ import annotations

import gzip
import re
import shutil
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))

deb = pytest.importorskip("deb")
deb_docs = pytest.importorskip("deb_docs")
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def tiny_package(tmp_path: Path) -> Path:
    """A package with one program file and the control area build_deb writes."""
    root = tmp_path / "root"
    (root / "opt/upabhasha").mkdir(parents=True)
    (root / "opt/upabhasha/program.txt").write_text("the program\n")
    (root / "usr/share/doc/upabhasha").mkdir(parents=True)
    (root / "usr/share/doc/upabhasha/copyright").write_text("MIT\n")
    (root / "opt/upabhasha/link").symlink_to("program.txt")
    deb.write_control_area(root, PROJECT, "2.36", ["libgl1"])
    package = tmp_path / "upabhasha.deb"
    deb.dpkg_deb(root, package, ("-Zxz", "-z1"))
    return package


def dpkg(tmp_path: Path, glibc: str, *args: str) -> subprocess.CompletedProcess:
    """dpkg on its own database and install folder, the maintainer scripts run without a
    chroot, ``getconf`` answering ``glibc``."""
    fakes = tmp_path / "fakes"
    fakes.mkdir(exist_ok=True)
    (fakes / "getconf").write_text(f'#!/bin/sh\necho "glibc {glibc}"\n')
    (fakes / "getconf").chmod(0o755)
    admin, inst = tmp_path / "admin", tmp_path / "inst"
    for folder in (admin / "info", admin / "updates", inst):
        folder.mkdir(parents=True, exist_ok=True)
    (admin / "status").touch()
    return subprocess.run(
        [
            "dpkg",
            f"--admindir={admin}",
            f"--instdir={inst}",
            "--force-script-chrootless",
            "--force-not-root",
            "--force-depends",
            *args,
        ],  # fmt: skip
        capture_output=True,
        text=True,
        env={"PATH": f"{fakes}:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"},
        timeout=120,
    )


def test_dpkg_refuses_an_older_system_before_unpacking_and_verifies_an_install(tmp_path):
    if not (shutil.which("dpkg") and shutil.which("dpkg-deb")):
        pytest.skip("dpkg builds and installs the package")
    package = tiny_package(tmp_path)
    names = subprocess.run(
        ["dpkg-deb", "--ctrl-tarfile", str(package)], capture_output=True, check=True
    )
    listed = subprocess.run(["tar", "-t"], input=names.stdout, capture_output=True, check=True)
    assert set(listed.stdout.decode().split()) >= {"./control", "./md5sums", "./preinst"}
    refused = dpkg(tmp_path, "2.31", "-i", str(package))
    assert refused.returncode == 1
    assert (
        "Upabhasha needs glibc 2.36 or newer (Debian 12, Ubuntu 24.04); this computer has "
        "glibc 2.31." in refused.stderr
    )
    assert "pre-installation script subprocess returned error exit status 1" in refused.stderr
    assert list((tmp_path / "inst").iterdir()) == []  # nothing was unpacked
    installed = dpkg(tmp_path, "2.36", "-i", str(package))
    assert installed.returncode == 0, installed.stderr
    assert (tmp_path / "inst/opt/upabhasha/program.txt").read_text() == "the program\n"
    verified = dpkg(tmp_path, "2.36", "--verify", "upabhasha")
    assert (verified.returncode, verified.stdout) == (0, "")
    (tmp_path / "inst/opt/upabhasha/program.txt").write_text("changed\n")
    verified = dpkg(tmp_path, "2.36", "--verify", "upabhasha")
    assert verified.stdout.split() == ["??5??????", "/opt/upabhasha/program.txt"]


def test_md5sums_lists_every_file_but_the_control_area_and_links(tmp_path):
    root = tmp_path / "root"
    (root / "opt/upabhasha/_internal").mkdir(parents=True)
    (root / "opt/upabhasha/_internal/a.so").write_bytes(b"abc")
    (root / "opt/upabhasha/link.so").symlink_to("_internal/a.so")
    (root / "DEBIAN").mkdir()
    (root / "DEBIAN/control").write_text("Package: x\n")
    assert deb.md5sums(root) == ("900150983cd24fb0d6963f7d28e17f72  opt/upabhasha/_internal/a.so\n")


def test_control_declares_the_libc_floor_a_real_maintainer_and_a_whole_description():
    text = deb.control(PROJECT, 1000, "2.36", ["libgl1", "libxcb1"])
    fields = dict(line.split(": ", 1) for line in text.splitlines() if not line.startswith(" "))
    assert fields["Depends"] == "libc6 (>= 2.36), libgl1, libxcb1"
    assert "localhost" not in fields["Maintainer"] and "@" in fields["Maintainer"]
    assert len(fields["Description"]) <= 80
    long = [line[1:] for line in text.splitlines() if line.startswith(" ")]
    assert all(len(line) <= 80 for line in long)  # lintian: extended-description-line-too-long
    assert f"{PROJECT['description']}." in " ".join(long)  # not cut mid-word


def test_the_copyright_file_lists_every_bundled_distribution_with_its_licence(tmp_path):
    internal = tmp_path / "bundle" / "_internal"
    internal.mkdir(parents=True)
    for name in ("jinja2", "numpy"):
        dist = metadata.distribution(name)
        info = Path(dist._path)  # type: ignore[attr-defined]
        shutil.copytree(info, internal / info.name)
    text = deb_docs.copyright_text(tmp_path / "bundle", PROJECT, deb.maintainer(PROJECT))
    assert "Jinja2" in text and "BSD" in text and "numpy" in text
    assert "LGPL-3" in text and "Permission is hereby granted" in text
    log = gzip.decompress(deb_docs.changelog(PROJECT, deb.maintainer(PROJECT))).decode()
    assert log.startswith(f"upabhasha ({PROJECT['version']}) unstable; urgency=medium")
    entries = deb_docs.overrides("upabhasha").split("\n\n")
    assert len(entries) == len(deb_docs.OVERRIDES)
    for entry in entries:  # each override with its own reason, scoped to paths
        comment, override = entry.strip().split("\n")
        assert comment.startswith("# ") and len(comment) > 30 and "(same)" not in comment
        assert re.fullmatch(
            r"upabhasha: [a-z0-9-]+ (\* )?\[(opt/upabhasha|usr/bin)/\S*\]", override
        )


def test_file_modes_programs_keep_their_execute_bit_libraries_lose_it(tmp_path):
    library = tmp_path / "libx.so.1"
    library.write_bytes(b"\x7fELF" + b"\0" * 16)
    library.chmod(0o775)
    program = tmp_path / "torch_shm_manager"
    program.write_bytes(b"\x7fELF" + b"\0" * 16)
    program.chmod(0o775)
    script = tmp_path / "run.sh"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o664)
    data = tmp_path / "data.json"
    data.write_text("{}")
    data.chmod(0o777)
    assert deb.file_mode(library) == 0o644
    assert deb.file_mode(program) == 0o755
    assert deb.file_mode(script) == 0o644  # a #! line alone does not make it a program
    assert deb.file_mode(data) == 0o644
    assert deb.file_mode(tmp_path) == 0o755


def test_the_menu_entry_names_the_program_in_bengali_too():
    build = pytest.importorskip("build")
    from package_checks import desktop_problems

    text = build.DESKTOP.format(exec="upabhasha-gui", icon="upabhasha")
    keys = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
    assert keys["Name[bn]"] == "উপভাষা"
    for key in ("Name[bn]", "GenericName[bn]", "Comment[bn]"):
        assert keys[key] and not any("a" <= c.lower() <= "z" for c in keys[key]), key
    if shutil.which("desktop-file-validate"):
        assert desktop_problems({"menu entry": text}) == []


def test_the_build_runs_the_built_packages_own_preinst_against_an_older_glibc(tmp_path):
    if not (shutil.which("dpkg-deb") and shutil.which("getconf")):
        pytest.skip("dpkg-deb builds the package; getconf tells this machine's glibc")
    from package_checks import preinst_check

    checked = preinst_check(tiny_package(tmp_path))
    assert checked["problems"] == []
    assert checked["refusal"][0].endswith("this computer has glibc 2.17.")
    broken = tmp_path / "broken"
    broken.mkdir()
    deb.write_control_area(broken, PROJECT, "2.36", [])
    (broken / "DEBIAN/preinst").write_text("#!/bin/sh\nexit 0\n")  # refuses nothing
    package = tmp_path / "broken.deb"
    deb.dpkg_deb(broken, package, ("-Zxz", "-z1"))
    assert "did not refuse glibc 2.17" in preinst_check(package)["problems"][0]
