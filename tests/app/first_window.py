"""Starting the real GUI entry point (settings, language, window) in a fresh process,
offscreen, with a fresh home: what the window showed and what was loaded by then."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Prints, once the window shows, its language, the menu bar's titles and which of the given
# modules are loaded.
SCRIPT = r"""
import json, os, sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication(sys.argv[:1])
watched = json.loads(sys.argv[1])

def report():
    window = next(w for w in QApplication.topLevelWidgets()
                  if isinstance(w, QMainWindow) and w.isVisible())
    from engine.i18n import current_language
    titles = [a.text() for a in window.menuBar().actions()]
    loaded = [m for m in watched if m in sys.modules]
    print(json.dumps({"language": current_language(), "menus": titles, "loaded": loaded}),
          flush=True)
    os._exit(0)  # no closeEvent: nothing here is worth saving

QTimer.singleShot(0, report)
from app.gui_main import main
main([])
"""


def user_env(tmp_path: Path, lang: str = "en_US.UTF-8") -> dict[str, str]:
    """A fresh home; no LANGUAGE, LC_ALL or LC_MESSAGES, so LANG alone names the locale."""
    return {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT),
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "UPABHASHA_CONFIG_DIR": str(tmp_path / "config"),
        "UPABHASHA_LOG_DIR": str(tmp_path / "logs"),
        "QT_QPA_PLATFORM": "offscreen",
        "LANG": lang,
    }


def start_window(
    tmp_path: Path,
    lang: str = "en_US.UTF-8",
    saved: dict | None = None,
    watched: tuple[str, ...] = (),
    wrapper: tuple[str, ...] = (),
) -> dict:
    """Start the GUI with ``saved`` as its settings file (none when None) and report;
    ``wrapper``: a command the Python process runs under (strace)."""
    if saved is not None:
        config = tmp_path / "config"
        config.mkdir()
        (config / "settings.json").write_text(json.dumps(saved), encoding="utf-8")
    result = subprocess.run(
        [*wrapper, sys.executable, "-c", SCRIPT, json.dumps(watched)],
        capture_output=True,
        text=True,
        env=user_env(tmp_path, lang),
        cwd=ROOT,
        timeout=300 if wrapper else 120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout.strip().splitlines()[-1])
