"""The bundled Bengali font for everything that draws without Qt (charts, report figures).

Noto Sans Bengali (OFL, see resources/fonts/OFL.txt) is read by name through
importlib.resources; matplotlib gets it lazily, before the first figure is drawn, with DejaVu
Sans after it so Latin text falls back. :mod:`widgets.common.fonts` registers it with Qt.
"""

from __future__ import annotations

import contextlib
import threading
from importlib.resources import as_file, files
from pathlib import Path

BENGALI_FAMILY = "Noto Sans Bengali"
FONT_FILES = ("NotoSansBengali-Regular.ttf", "NotoSansBengali-Bold.ttf")
MATPLOTLIB_FAMILIES = [BENGALI_FAMILY, "DejaVu Sans"]

# Keeps extracted font files alive when resources live in a zip (frozen builds).
_resource_files = contextlib.ExitStack()
_matplotlib_lock = threading.Lock()  # the charts' worker and the GUI thread (exports)
_matplotlib_done = False


def font_paths() -> list[Path]:
    folder = files("resources") / "fonts"
    return [_resource_files.enter_context(as_file(folder / name)) for name in FONT_FILES]


def register_matplotlib_fonts() -> None:
    """Add the fonts to matplotlib's font manager and make them the default family list."""
    global _matplotlib_done
    with _matplotlib_lock:
        if _matplotlib_done:
            return
        # lazy: matplotlib is slow to import
        import matplotlib
        from matplotlib import font_manager

        for path in font_paths():
            font_manager.fontManager.addfont(str(path))
        matplotlib.rcParams["font.family"] = MATPLOTLIB_FAMILIES
        _matplotlib_done = True
