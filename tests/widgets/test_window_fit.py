"""The first-run window fits the screen (field laptops: 1366×768), with every panel shown."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, QSize

from app.window_fit import PREFERRED, fits, initial_geometry

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def collect_qt_garbage():
    """Widgets in reference cycles are freed here, on the GUI thread, not by a GC pass that
    happens to run in a later test's worker thread (a Qt object destroyed off the GUI thread
    crashes)."""
    yield
    gc.collect()


def test_initial_geometry_on_a_1366x768_laptop():
    available = QRect(0, 0, 1366, 728)  # 768 less a 40 px task bar
    rect = initial_geometry(available)
    assert fits(rect, available)
    assert rect.width() == 1280 and rect.height() == int(728 * 0.96)
    assert rect.center() == available.center()


def test_initial_geometry_on_a_large_screen_is_the_preferred_size():
    available = QRect(1920, 0, 2560, 1400)  # a second monitor to the right
    rect = initial_geometry(available)
    assert rect.size() == PREFERRED and fits(rect, available)


def test_initial_geometry_on_a_tiny_screen_still_fits():
    available = QRect(0, 0, 1024, 600)
    rect = initial_geometry(available)
    assert fits(rect, available) and rect.width() < 1024 and rect.height() < 600


SCRIPT = r"""
import json, sys, tempfile, pathlib
from PySide6.QtWidgets import QApplication
app = QApplication([])
from engine.i18n import set_language
set_language(sys.argv[1])  # labels are longer in Bengali
from widgets.common.fonts import register_qt_fonts
register_qt_fonts(app)
from app.settings import Settings
from app.main_window import MainWindow
from engine.samples.workspace import build_sample_workspace
window = MainWindow(Settings(), save=lambda s: None)
window.show(); app.processEvents()
available = window.screen().availableGeometry()
report = {"available": [available.width(), available.height()],
          "welcome": [window.frameGeometry().width(), window.frameGeometry().height()]}
ok = available.contains(window.frameGeometry())
path = build_sample_workspace(pathlib.Path(tempfile.mkdtemp()) / "s.sqlite")
window.open_workspace(path)
for i in range(window.tabs.count()):
    window.tabs.setCurrentIndex(i); app.processEvents()
    if not available.contains(window.frameGeometry()):
        ok = False
        report.setdefault("too_big", []).append(
            [window.tabs.tabText(i), window.frameGeometry().width(), window.frameGeometry().height()])
report["workspace"] = [window.frameGeometry().width(), window.frameGeometry().height()]
report["min_hint"] = [window.minimumSizeHint().width(), window.minimumSizeHint().height()]
report["ok"] = ok
print(json.dumps(report), flush=True)
import os

os._exit(0)  # no closeEvent: background chart/index tasks may still run
"""


@pytest.mark.parametrize("language", ["en", "bn"])
def test_main_window_fits_a_1366x768_screen_with_every_panel(tmp_path, language):
    """A real window on a fake 1366×768 screen (Qt's offscreen platform, configured)."""
    screen = tmp_path / "screen.json"
    screen.write_text(
        json.dumps({"screens": [{"name": "laptop", "x": 0, "y": 0, "width": 1366, "height": 768}]}),
        encoding="utf-8",
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT),
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "UPABHASHA_CONFIG_DIR": str(tmp_path / "config"),
        "QT_QPA_PLATFORM": f"offscreen:configfile={screen}",
    }
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, language],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["available"] == [1366, 768]
    assert report["ok"], report
    assert report["welcome"][0] <= 1366 and report["workspace"][0] <= 1366
    assert report["min_hint"][0] <= 1300, report  # room for the frame on a 1366 px screen


def test_a_saved_geometry_larger_than_the_screen_is_refitted(qtbot, sync_bridge):
    import base64

    from app.main_window import MainWindow
    from app.settings import Settings

    first = MainWindow(Settings(), bridge=sync_bridge, save=lambda s: None)
    qtbot.addWidget(first)
    first.setGeometry(0, 0, 3000, 2000)
    saved = base64.b64encode(bytes(first.saveGeometry())).decode()
    window = MainWindow(Settings(window_geometry=saved), bridge=sync_bridge, save=lambda s: None)
    qtbot.addWidget(window)
    available = window.screen().availableGeometry()
    assert window.frameGeometry().width() <= available.width()
    assert window.frameGeometry().height() <= available.height()
    assert window.size() != QSize(3000, 2000)
