"""The first start follows the system's locale; a language chosen in the menu is kept."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.i18n import system_language

ROOT = Path(__file__).resolve().parents[2]

# Starts the real GUI entry point (settings, language, window) offscreen and prints the menu
# bar's titles once the window shows.
SCRIPT = r"""
import json, os, sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication(sys.argv[:1])

def report():
    window = next(w for w in QApplication.topLevelWidgets()
                  if isinstance(w, QMainWindow) and w.isVisible())
    from engine.i18n import current_language
    titles = [a.text() for a in window.menuBar().actions()]
    print(json.dumps({"language": current_language(), "menus": titles}), flush=True)
    os._exit(0)  # no closeEvent: nothing here is worth saving

QTimer.singleShot(0, report)
from app.gui_main import main
main([])
"""


def start_window(tmp_path: Path, lang: str, saved: dict | None = None) -> dict:
    config = tmp_path / "config"
    if saved is not None:
        config.mkdir()
        (config / "settings.json").write_text(json.dumps(saved), encoding="utf-8")
    env = {  # no LANGUAGE, LC_ALL or LC_MESSAGES: LANG alone names the locale
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT),
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "UPABHASHA_CONFIG_DIR": str(config),
        "UPABHASHA_LOG_DIR": str(tmp_path / "logs"),
        "QT_QPA_PLATFORM": "offscreen",
        "LANG": lang,
    }
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_first_start_on_a_bengali_system_is_in_bengali(tmp_path):
    report = start_window(tmp_path, "bn_BD.UTF-8")
    assert report["language"] == "bn"
    assert "ফাইল (&F)" in report["menus"] and "দেখুন (&V)" in report["menus"]


def test_first_start_on_an_english_system_is_in_english(tmp_path):
    report = start_window(tmp_path, "en_US.UTF-8")
    assert report["language"] == "en"
    assert "&File" in report["menus"] and "&View" in report["menus"]


def test_english_chosen_in_the_menu_stays_english_on_a_bengali_system(tmp_path):
    report = start_window(tmp_path, "bn_BD.UTF-8", saved={"version": 1, "language": "en"})
    assert report["language"] == "en" and "&File" in report["menus"]


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "bn_BD.UTF-8"}, "bn"),
        ({"LANG": "bn_IN"}, "bn"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LC_ALL": "en_US.UTF-8", "LANG": "bn_BD.UTF-8"}, "en"),
        ({"LC_MESSAGES": "bn_BD.UTF-8", "LANG": "en_US.UTF-8"}, "bn"),
        ({"LANGUAGE": "fr:bn", "LANG": "en_US.UTF-8"}, "bn"),
        ({"LANGUAGE": "", "LANG": "bn_BD.UTF-8"}, "bn"),
        ({}, None),
    ],
)
def test_system_language_follows_gettexts_order(environ, expected):
    assert system_language(environ) == expected
