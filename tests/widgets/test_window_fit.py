"""The first-run window fits the screen (field laptops: 1366×768), with every panel shown."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QMargins, QRect, QSize

from app.window_fit import FRAME_ESTIMATE, PREFERRED, client_geometry, fits, initial_geometry

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


def fake_screen_env(tmp_path, width: int, height: int) -> dict:
    screen = tmp_path / "screen.json"
    screen.write_text(
        json.dumps({"screens": [{"name": "s", "x": 0, "y": 0, "width": width, "height": height}]}),
        encoding="utf-8",
    )
    return {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT),
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "UPABHASHA_CONFIG_DIR": str(tmp_path / "config"),
        "QT_QPA_PLATFORM": f"offscreen:configfile={screen}",
    }


def run_on_screen(tmp_path, width: int, height: int, args: list[str], timeout: int = 120) -> dict:
    """Run ``python ARGS`` with Qt's offscreen platform faking one ``width``×``height`` screen;
    the JSON report it prints last."""
    result = subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        env=fake_screen_env(tmp_path, width, height),
        cwd=ROOT,
        timeout=timeout,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("language", ["en", "bn"])
def test_main_window_fits_a_1366x768_screen_with_every_panel(tmp_path, language):
    """A real window on a fake 1366×768 screen (Qt's offscreen platform, configured)."""
    report = run_on_screen(tmp_path, 1366, 768, ["-c", SCRIPT, language])
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


@pytest.mark.parametrize("language", ["en", "bn"])
def test_every_panel_and_dialog_fits_a_1366x768_screen(tmp_path, language):
    """scripts/fit_probe.py opens the window, every panel and every QDialog under
    widgets/ (found, not listed) and reports any too large, clipped header or button,
    sideways scroll or hidden column."""
    report = run_on_screen(
        tmp_path, 1366, 768, [str(ROOT / "scripts" / "fit_probe.py"), language], timeout=300
    )
    assert report["available"] == [1366, 768]
    seen = report["seen"]
    assert sum(name.startswith("panel ") for name in seen) >= 12, seen
    for dialog in ("ImportDialog", "ImportDialog (Bijoy preview)", "TranslateDialog"):
        assert dialog in seen, seen
    assert report["problems"] == [], "\n".join(report["problems"])


MAXIMISED = r"""
import base64, json
from PySide6.QtWidgets import QApplication
app = QApplication([])
from app.settings import Settings
from app.main_window import MainWindow
first = MainWindow(Settings(), save=lambda s: None)
first.show(); app.processEvents()
report = {"first": first.isMaximized()}
first.showNormal(); first.resize(1000, 700); app.processEvents()
saved = base64.b64encode(bytes(first.saveGeometry())).decode()
again = MainWindow(Settings(window_geometry=saved), save=lambda s: None)
again.show(); app.processEvents()
report.update(again=again.isMaximized(), again_size=[again.width(), again.height()])
print(json.dumps(report), flush=True)
import os; os._exit(0)
"""


def test_on_a_1920_screen_the_first_window_opens_maximised_and_a_saved_geometry_wins(tmp_path):
    report = run_on_screen(tmp_path, 1920, 1080, ["-c", MAXIMISED])
    assert report["first"] is True
    assert report["again"] is False and report["again_size"] == [1000, 700], report


def test_a_1366_screen_does_not_maximise(tmp_path):
    from app.window_fit import MAXIMISE_FROM

    assert MAXIMISE_FROM > 1366  # the laptop keeps a window it can move beside another


@pytest.mark.qt_log_ignore("This plugin does not support raise")  # the offscreen tooltip
def test_an_elided_cell_shows_its_whole_text_on_hover(qtbot):
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QApplication, QTableWidget, QTableWidgetItem, QToolTip

    from widgets.common.elided_tooltips import install_elided_tooltips

    long_text = "আমার সোনার বাংলা, আমি তোমায় ভালোবাসি — চিরদিন তোমার আকাশ, তোমার বাতাস"
    table = QTableWidget(2, 2)
    qtbot.addWidget(table)
    table.setItem(0, 0, QTableWidgetItem(long_text))
    table.setItem(1, 0, QTableWidgetItem("ok"))
    table.setColumnWidth(0, 80)
    table.show()
    assert install_elided_tooltips(table) == 1 and install_elided_tooltips(table) == 0
    viewport = table.viewport()

    def hover(row: int) -> str:
        QToolTip.hideText()
        QApplication.processEvents()
        pos = table.visualRect(table.model().index(row, 0)).center()
        event = QHelpEvent(QEvent.Type.ToolTip, pos, viewport.mapToGlobal(pos))
        QApplication.sendEvent(viewport, event)
        return QToolTip.text() if QToolTip.isVisible() else ""

    assert hover(1) == ""  # a cell that fits has no tooltip
    assert hover(0) == long_text


def test_panels_of_the_window_get_elided_cell_tooltips(qtbot, sync_bridge, sample_db, tmp_path):
    import shutil

    from PySide6.QtWidgets import QAbstractItemView, QHeaderView

    from app.main_window import MainWindow
    from app.settings import Settings

    path = tmp_path / "s.sqlite"
    shutil.copy(sample_db, path)
    window = MainWindow(Settings(), bridge=sync_bridge, save=lambda s: None)
    qtbot.addWidget(window)
    assert window.open_workspace(path)
    for name in ("answers", "tasks", "agreement", "review"):
        views = window.panels[name].findChildren(QAbstractItemView)
        tables = [v for v in views if not isinstance(v, QHeaderView)]
        assert tables and all(v.viewport().property("elided_tooltips") for v in tables), name


def test_the_fit_probe_finds_the_panels_and_dialogs_under_widgets():
    """New panels and dialogs are covered when they land: the probe finds them by class."""
    from scripts.fit_probe import dialog_classes, panel_classes

    panels = {cls.__name__ for cls in panel_classes()}
    dialogs = {cls.__name__ for cls in dialog_classes()}
    assert {"ReviewPanel", "TasksPanel", "AgreementPanel", "MetricsPanel"} <= panels
    assert {
        "ImportDialog",
        "AddDialectDialog",
        "TranslateDialog",
        "GenerateDialog",
        "EndpointDialog",
        "ShortcutsDialog",
    } <= dialogs


PER_SCREEN = r"""
import base64, json
from PySide6.QtWidgets import QApplication
app = QApplication([])
from app.settings import Settings
from app.main_window import MainWindow
from app.window_fit import screen_key
saved = []
first = MainWindow(Settings(), save=saved.append)
first.show(); app.processEvents()
first.showNormal(); first.resize(505, 438); app.processEvents()
first.close(); app.processEvents()  # closing saves the geometry under this screen's size
settings = saved[-1]
report = {"key": screen_key(first), "keys": sorted(settings.window_geometries)}
# left small: refitted, not a postage stamp
small = MainWindow(settings, save=lambda s: None)
small.show(); app.processEvents()
report["small_again"] = [small.width(), small.height()]
# a geometry kept for another screen size does not apply here; this size's one does
mid = MainWindow(Settings(), save=lambda s: None)
mid.show(); app.processEvents(); mid.showNormal(); mid.resize(1000, 700); app.processEvents()
here = base64.b64encode(bytes(mid.saveGeometry())).decode()
both = Settings(window_geometries={"1366x768": settings.window_geometry, screen_key(mid): here})
again = MainWindow(both, save=lambda s: None)
again.show(); app.processEvents()
report["again"] = [again.width(), again.height()]
print(json.dumps(report), flush=True)
import os; os._exit(0)
"""


def test_geometry_is_kept_per_screen_size_and_a_small_one_is_refitted(tmp_path):
    report = run_on_screen(tmp_path, 1920, 1080, ["-c", PER_SCREEN])
    assert report["key"] == "1920x1080" and report["keys"] == ["1920x1080"]
    assert report["small_again"][0] >= 640 and report["small_again"][1] >= 400, report
    assert report["again"] == [1000, 700], report


# frames of common window managers (left, top, right, bottom): what frameGeometry − geometry
# measures once a window is framed
FRAMES = {
    "estimate": FRAME_ESTIMATE,
    "GNOME": QMargins(0, 37, 0, 0),
    "KDE Breeze": QMargins(0, 30, 0, 0),
    "Xfce": QMargins(4, 28, 4, 4),
    "Windows 10": QMargins(8, 31, 8, 8),
    "none": QMargins(0, 0, 0, 0),
}


@pytest.mark.parametrize("frame", FRAMES.values(), ids=FRAMES.keys())
@pytest.mark.parametrize(
    "available", [QRect(0, 0, 1366, 768), QRect(0, 0, 1366, 728), QRect(0, 32, 1366, 736)]
)
def test_the_window_and_its_frame_fit_a_1366x768_screen(frame, available):
    """The window's own rectangle, fitted with the estimate (before a window manager framed
    it), and its real frame around it: inside the available area for every frame no larger
    than the estimate; fitted with the real frame, exactly the fitted rectangle."""
    client = client_geometry(available)
    assert fits(client.marginsAdded(frame), available)
    refitted = client_geometry(available, frame)
    assert refitted.marginsAdded(frame) == initial_geometry(available)


def test_a_framed_window_off_the_screen_is_fitted_again_with_its_real_frame(qtbot):
    """Once framed, a window whose frame runs off its screen (a frame larger than the
    estimate, a window moved) is fitted again; one that fits is left where it is."""
    from PySide6.QtWidgets import QWidget

    from app.window_fit import refit_if_off_screen

    window = QWidget()
    qtbot.addWidget(window)
    window.show()
    available = window.screen().availableGeometry()
    tall = QMargins(12, 60, 12, 12)
    window.setGeometry(available.adjusted(0, 0, 0, -20))
    assert not fits(window.geometry().marginsAdded(tall), available)
    assert refit_if_off_screen(window, tall)
    assert fits(window.geometry().marginsAdded(tall), available)
    assert window.geometry().marginsAdded(tall) == initial_geometry(available)
    assert not refit_if_off_screen(window, tall)  # it fits now: left alone


PER_SCREEN_1366 = r"""
import base64, json
from PySide6.QtCore import QMargins
from PySide6.QtWidgets import QApplication
app = QApplication([])
from app.settings import Settings
from app.main_window import MainWindow
from app.window_fit import FRAME_ESTIMATE, screen_key
report = {}
saved = []
first = MainWindow(Settings(), save=saved.append)
first.show(); app.processEvents()
available = first.screen().availableGeometry()
report["first_with_frame_fits"] = available.contains(first.geometry().marginsAdded(FRAME_ESTIMATE))
report["first"] = [first.width(), first.height(), first.isMaximized()]
first.setGeometry(30, 20, 1200, 650); app.processEvents()
first.close(); app.processEvents()  # saved under this screen's size
again = MainWindow(saved[-1], save=lambda s: None)
again.show(); app.processEvents()
report["key"] = screen_key(again)
report["again"] = [again.x(), again.y(), again.width(), again.height()]
# a 1920x1080 monitor's geometry (per screen, and as the one of older settings)
big = MainWindow(Settings(), save=lambda s: None)
big.show(); app.processEvents()
big.setGeometry(300, 200, 1600, 950); app.processEvents()
taken = bytearray(big.saveGeometry())
taken[46:50] = (1920).to_bytes(4, "big")  # as saved on a 1920 px wide monitor
monitor = base64.b64encode(bytes(taken)).decode()
for name, settings in (
    ("other_screen", Settings(window_geometries={"1920x1080": monitor}, window_geometry=monitor)),
    ("older_settings", Settings(window_geometry=monitor)),
):
    window = MainWindow(settings, save=lambda s: None)
    window.show(); app.processEvents()
    report[name] = [window.x(), window.y(), window.width(), window.height()]
here = MainWindow(Settings(), save=lambda s: None)
here.show(); app.processEvents(); here.setGeometry(40, 30, 1100, 600); app.processEvents()
older = Settings(window_geometry=base64.b64encode(bytes(here.saveGeometry())).decode())
window = MainWindow(older, save=lambda s: None)
window.show(); app.processEvents()
report["older_here"] = [window.x(), window.y(), window.width(), window.height()]
print(json.dumps(report), flush=True)
import os; os._exit(0)
"""


def placed(got: list[int], wanted: list[int]) -> bool:
    """The same size, and the same place give or take the offscreen platform's 2 px frame
    (Qt places the shown window's frame or its inside there, by a few pixels)."""
    return got[2:] == wanted[2:] and all(abs(g - w) <= 3 for g, w in zip(got[:2], wanted[:2]))


def test_on_a_1366_screen_the_window_fits_with_a_frame_and_comes_back_as_saved(tmp_path):
    """On a 1366×768 screen: the first window leaves room for a frame; a geometry saved
    there reopens as it was; a 1920×1080 monitor's geometry is not applied (the window is
    fitted, centred, not shrunk into a corner)."""
    report = run_on_screen(tmp_path, 1366, 768, ["-c", PER_SCREEN_1366])
    assert report["first_with_frame_fits"] and report["first"][2] is False, report
    fitted = client_geometry(QRect(0, 0, 1366, 768))
    assert report["first"][:2] == [fitted.width(), fitted.height()], report
    assert report["key"] == "1366x768" and placed(report["again"], [30, 20, 1200, 650]), report
    centred = [fitted.x(), fitted.y(), fitted.width(), fitted.height()]
    assert placed(report["other_screen"], centred), report
    # settings from before geometry was kept per screen: their one geometry, taken on a
    # screen 1920 px wide, is not applied here either
    assert placed(report["older_settings"], centred), report
    assert report["older_here"][2:] == [1100, 600], report  # one taken on a 1366 px screen is


def test_once_shown_and_framed_a_window_off_the_screen_is_fitted_again(qtbot):
    """The watch fit_to_screen leaves on the window: Qt's offscreen platform frames a shown
    window with a 2 px border, the one frame this machine can show; a window as large as the
    screen's available area has that frame run off it, and is fitted again as it shows."""
    from PySide6.QtWidgets import QWidget

    from app.window_fit import fit_to_screen

    window = QWidget()
    qtbot.addWidget(window)
    fit_to_screen(window)
    available = window.screen().availableGeometry()
    window.setGeometry(available)  # as a geometry saved without its frame would put it
    window.show()
    qtbot.waitUntil(lambda: window.frameGeometry() != window.geometry())
    qtbot.waitUntil(lambda: fits(window.frameGeometry(), available))
    assert window.frameGeometry() == initial_geometry(available)
