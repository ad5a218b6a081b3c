"""Upabhasha's own file types (packaging/upabhasha-mime.xml): a workspace and a review
package are known by their SQLite header's application_id and their extension, other SQLite
files are not claimed, the menu entry names exactly these types, and a package given on the
command line (as the menu entry passes it) opens in its own window. The look-up is Qt's
(QMimeDatabase reads shared-mime-info) in a fresh process pointed at the built database."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))

deb = pytest.importorskip("deb")
NS = {"m": "http://www.freedesktop.org/standards/shared-mime-info"}
WORKSPACE = "application/x-upabhasha-workspace"
PACKAGE = "application/x-upabhasha-review-package"

LOOK_UP = r"""
import json, sys
from PySide6.QtCore import QMimeDatabase
db = QMimeDatabase()
print(json.dumps({path: [db.mimeTypeForFile(path).name(), db.mimeTypeForFile(path).comment()]
                  for path in sys.argv[1:]}))
"""


def declared_types() -> list[str]:
    tree = ET.parse(deb.MIME_FILE)
    return [t.get("type") for t in tree.getroot().findall("m:mime-type", NS)]


def mime_database(tmp_path: Path) -> Path:
    if not shutil.which("update-mime-database"):
        pytest.skip("update-mime-database (shared-mime-info) builds the database")
    data = tmp_path / "data"
    (data / "mime/packages").mkdir(parents=True)
    shutil.copy(deb.MIME_FILE, data / "mime/packages/upabhasha.xml")
    built = subprocess.run(
        ["update-mime-database", "-V", str(data / "mime")], capture_output=True, text=True
    )
    assert built.returncode == 0, built.stderr
    assert "warning" not in built.stderr.lower() and "error" not in built.stderr.lower()
    return data


def review_package(tmp_path: Path) -> Path:
    """A real package: the sample workspace, one annotator, one batch, exported."""
    from engine.annotation.annotators import add_annotator
    from engine.annotation.assignment import assign, candidate_targets
    from engine.annotation.packages import export_package
    from engine.samples.workspace import build_sample_workspace
    from engine.workspace.store import Workspace

    path = build_sample_workspace(tmp_path / "lab.sqlite")
    with Workspace(path) as ws:
        add_annotator(ws, "Karim", ["sylhet"])
        targets = candidate_targets(ws, "variant", dialects=["sylhet"])
        assign(ws, "field", "variant", ["Karim"], targets=targets, seed=4)
        export_package(ws, "Karim", tmp_path / "karim.upkg")
    return tmp_path / "karim.upkg"


def test_workspaces_and_packages_are_known_by_header_and_extension_and_nothing_else(tmp_path):
    pytest.importorskip("PySide6")
    data = mime_database(tmp_path)
    package = review_package(tmp_path)
    files = tmp_path / "files"
    files.mkdir()
    shutil.copy(tmp_path / "lab.sqlite", files / "study.sqlite")  # a workspace, by its header
    shutil.copy(tmp_path / "lab.sqlite", files / "study.upabhasha")
    shutil.copy(package, files / "karim.upkg")
    shutil.copy(package, files / "sent-by-mail.bin")  # renamed: still a package, by its header
    other = sqlite3.connect(files / "other.sqlite")  # another program's SQLite file
    other.execute("CREATE TABLE t (x)")
    other.commit()
    other.close()
    names = sorted(str(p) for p in files.iterdir())
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path / "home"),
        "XDG_DATA_HOME": str(tmp_path / "home/.local/share"),
        "XDG_DATA_DIRS": f"{data}:/usr/share",
        "LANGUAGE": "bn",
        "LANG": "C.UTF-8",
    }
    out = subprocess.run(
        [sys.executable, "-c", LOOK_UP, *names],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    found = {Path(k).name: v for k, v in json.loads(out.stdout).items()}
    assert found["study.sqlite"] == [WORKSPACE, "উপভাষা কর্মক্ষেত্র"]
    assert found["study.upabhasha"][0] == WORKSPACE
    assert found["karim.upkg"] == [PACKAGE, "উপভাষা পর্যালোচনা প্যাকেজ"]
    assert found["sent-by-mail.bin"][0] == PACKAGE
    assert found["other.sqlite"][0] == "application/vnd.sqlite3"


def test_the_menu_entry_claims_exactly_the_declared_types():
    build = pytest.importorskip("build")
    text = build.DESKTOP.format(exec="upabhasha-gui", icon="upabhasha")
    keys = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
    assert keys["MimeType"].rstrip(";").split(";") == declared_types() == [WORKSPACE, PACKAGE]
    assert "%f" in keys["Exec"]
    assert "upabhasha-mime.xml" in build.INSTALL_DESKTOP  # the tarball's user install


@pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")  # offscreen
def test_a_review_package_named_on_the_command_line_opens_in_its_own_window(qtbot, tmp_path):
    from app.gui_main import open_file
    from app.main_window import MainWindow
    from app.settings import Settings

    package = review_package(tmp_path)
    window = MainWindow(Settings(), save=lambda settings: None)
    qtbot.addWidget(window)
    window.show()
    assert open_file(window, str(package), create=False)
    (panel,) = window.annotation.package_windows
    qtbot.addWidget(panel)
    qtbot.waitUntil(panel.isVisible)
    assert panel.windowTitle().endswith("review package")
    assert window.workspace is None  # a package opens alone, not as a workspace


def test_the_tarballs_user_install_adds_the_menu_entry_and_the_file_types(tmp_path):
    build = pytest.importorskip("build")
    if not shutil.which("update-mime-database"):
        pytest.skip("update-mime-database (shared-mime-info) builds the user's database")
    folder = tmp_path / "upabhasha-0.1.0"
    folder.mkdir()
    for name in ("upabhasha.png", "upabhasha-mime.xml"):
        shutil.copy(ROOT / "packaging" / name, folder / name)
    entry = build.DESKTOP.format(exec="upabhasha-launcher", icon="upabhasha")
    (folder / "upabhasha.desktop").write_text(entry, encoding="utf-8")
    script = folder / "install-desktop-entry.sh"
    script.write_text(build.INSTALL_DESKTOP, encoding="utf-8")
    script.chmod(0o755)
    home = tmp_path / "home"
    done = subprocess.run(
        [str(script)],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(home)},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    share = home / ".local/share"
    installed = (share / "applications/upabhasha.desktop").read_text(encoding="utf-8")
    assert f'Exec="{folder}/upabhasha-launcher" %f' in installed
    assert (share / "mime/packages/upabhasha.xml").is_file()
    types = (share / "mime/types").read_text(encoding="utf-8").split()
    assert WORKSPACE in types and PACKAGE in types  # the user's database was rebuilt
    if shutil.which("desktop-file-validate"):
        from package_checks import desktop_problems

        assert desktop_problems({"installed entry": installed}) == []
