"""Register the bundled Bengali font with Qt so Bengali renders on machines without one.

The font files and their matplotlib registration live in :mod:`engine.text.fonts` (Qt-free, also
used by the report); here Qt gets them at start-up.
"""

from __future__ import annotations

import logging

from engine.text.fonts import BENGALI_FAMILY, FONT_FILES, font_paths, register_matplotlib_fonts  # noqa: F401 (re-exported)

log = logging.getLogger(__name__)

_qt_families: list[str] | None = None


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
