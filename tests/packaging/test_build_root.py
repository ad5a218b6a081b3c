"""The Debian 11 build root's plumbing: what of the host's pip setup goes in, and commands that
run inside a root with their own mounts, which vanish with them."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "packaging"))
import build_root  # noqa: E402


def test_the_hosts_pip_files_and_local_indexes_go_into_the_root(tmp_path):
    (tmp_path / "pip.conf").write_text("[global]\n")
    (tmp_path / "wheels").mkdir()
    (tmp_path / "index" / "simple").mkdir(parents=True)
    (tmp_path / "constraints.txt").write_text("torch<=3\n")
    debug = f"""env_var:
  PIP_FIND_LINKS='{tmp_path}/wheels'
  PIP_DEFAULT_TIMEOUT='180'
global:
  {tmp_path}/pip.conf, exists: True
    global.constraint: {tmp_path}/constraints.txt
  /nowhere/pip.conf, exists: False
user:
    global.extra-index-url: file://{tmp_path}/index/simple https://example.org/simple
"""
    found = build_root.pip_paths(debug, {"PIP_CERT": f"{tmp_path}/missing.crt"})
    assert found == sorted(
        [
            tmp_path / "pip.conf",
            tmp_path / "wheels",
            tmp_path / "constraints.txt",
            tmp_path / "index",  # the index's parent: its pages link to ../../files
        ]
    )


def _a_kept_root() -> Path:
    if os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.skip("chroot and mount need root")
    kept = sorted(build_root.roots_folder().glob("install-*"))
    if not kept:
        pytest.skip("no Debian root made yet (make installer INSTALLER_ARGS=--install-deb)")
    return kept[0]


def test_a_command_in_a_root_sees_its_binds_offline_and_leaves_no_mount(tmp_path):
    root = _a_kept_root()
    (tmp_path / "note.txt").write_text("from the host\n")
    inside = root / str(tmp_path).lstrip("/")
    made = [p for p in (inside, *inside.parents) if p.is_relative_to(root) and not p.exists()]
    ran = build_root.run_in_root(
        root,
        ["sh", "-c", f"cat {tmp_path}/note.txt && cat /proc/net/dev && cat /etc/debian_version"],
        binds=(tmp_path,),
        capture=True,
        network=False,
    )
    try:
        assert ran.returncode == 0, ran.stderr
        assert ran.stdout.startswith("from the host\n")
        interfaces = [line.split(":")[0].strip() for line in ran.stdout.splitlines() if ":" in line]
        assert interfaces == ["lo"]  # no network inside
        mounts = Path("/proc/self/mounts").read_text()
        assert str(root) not in mounts  # proc, dev, sys and the bind went with the process
    finally:
        for folder in made:  # the mount points it made, deepest first
            folder.rmdir()
