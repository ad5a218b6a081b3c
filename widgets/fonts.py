"""Ship and register the Bengali font so Bengali renders on machines without one.

Noto Sans Bengali (OFL, see resources/fonts/OFL.txt) is read by name through
importlib.resources and registered with Qt at start-up; matplotlib gets it lazily, when
the first chart is drawn, with DejaVu Sans after it so Latin text falls back.
"""

from __future__ import annotations

import contextlib
import logging
from importlib.resources import as_file, files
from pathlib import Path

log = logging.getLogger(__name__)

BENGALI_FAMILY = "Noto Sans Bengali"
FONT_FILES = ("NotoSansBengali-Regular.ttf", "NotoSansBengali-Bold.ttf")
MATPLOTLIB_FAMILIES = [BENGALI_FAMILY, "DejaVu Sans"]

# Keeps extracted font files alive when resources live in a zip (frozen builds).
_resource_files = contextlib.ExitStack()
_qt_families: list[str] | None = None
_matplotlib_done = False


def font_paths() -> list[Path]:
    folder = files("resources") / "fonts"
    return [_resource_files.enter_context(as_file(folder / name)) for name in FONT_FILES]


def register_qt_fonts(app=None) -> list[str]:
    """Register the fonts with Qt (once) and put Bengali after the UI font in the fallback list.

    Returns the registered family names. Needs a QGuiApplication.
    """
    global _qt_families
    from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication

    if _qt_families is None:
        families: list[str] = []
        for path in font_paths():
            font_id = QFontDatabase.addApplicationFont(str(path))
            if font_id < 0:
                log.warning("Qt could not load font %s", path)
                continue
            families.extend(QFontDatabase.applicationFontFamilies(font_id))
        _qt_families = sorted(set(families))
        log.info("registered Qt fonts: %s", _qt_families)
    app = app or QGuiApplication.instance()
    if app is not None and BENGALI_FAMILY in _qt_families:
        font: QFont = app.font()
        current = font.families() or [font.family()]
        if BENGALI_FAMILY not in current:
            font.setFamilies([*current, BENGALI_FAMILY])
            app.setFont(font)
    return list(_qt_families)


def bengali_font(point_size: float | None = None):
    """A QFont that prefers Noto Sans Bengali (for text fields holding Bengali)."""
    from PySide6.QtGui import QFont, QGuiApplication

    font = QFont(QGuiApplication.font())
    font.setFamilies([BENGALI_FAMILY, *(font.families() or [font.family()])])
    if point_size:
        font.setPointSizeF(point_size)
    return font


def register_matplotlib_fonts() -> None:
    """Add the fonts to matplotlib's font manager and make them the default family list."""
    global _matplotlib_done
    if _matplotlib_done:
        return
    import matplotlib
    from matplotlib import font_manager

    for path in font_paths():
        font_manager.fontManager.addfont(str(path))
    matplotlib.rcParams["font.family"] = MATPLOTLIB_FAMILIES
    _matplotlib_done = True
