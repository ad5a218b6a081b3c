"""The .deb's declared floor, launcher, documentation and file modes (fast: no build)."""

from __future__ import annotations

import gzip
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


def run_check(floor: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["sh", "-c", deb.GLIBC_CHECK.format(floor=floor) + "\necho started"],
        capture_output=True,
        text=True,
    )


def test_the_launcher_refuses_an_older_glibc_in_one_line():
    if not shutil.which("getconf"):
        pytest.skip("getconf reports the glibc version")
    refused = run_check("9.99")
    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1
    assert refused.stderr.startswith("Upabhasha needs glibc 9.99 or newer")
    started = run_check("2.17")
    assert started.returncode == 0 and started.stdout == "started\n" and started.stderr == ""


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
    overrides = deb_docs.overrides("upabhasha").splitlines()
    for comment, tag in zip(overrides[::2], overrides[1::2], strict=True):
        assert comment.startswith("# ") and len(comment) > 6 and tag.startswith("upabhasha: ")


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
