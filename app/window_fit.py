"""The main window's first size fits the screen it opens on (field laptops: 1366×768).

A fixed 1280×800 (or a geometry saved on a larger monitor) runs off a small screen; here the
window takes its preferred size where the screen allows, otherwise the screen's available area
less a margin, centred; a first window (no saved geometry) on a screen at least 1920 px wide
opens maximised, as a 1280×800 window would leave a third of it unused. Pure geometry (:func:`initial_geometry`) is separate from the window so
it can be checked for any screen size.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

PREFERRED = QSize(1280, 800)
MAXIMISE_FROM = 1920  # a first window on a screen at least this wide opens maximised
MARGIN = 0.04  # share of the available width/height left free on a small screen


def initial_geometry(available: QRect, preferred: QSize = PREFERRED) -> QRect:
    """The window rectangle (frame included) for a screen whose usable area is ``available``."""
    width = min(preferred.width(), int(available.width() * (1 - MARGIN)))
    height = min(preferred.height(), int(available.height() * (1 - MARGIN)))
    rect = QRect(0, 0, width, height)
    rect.moveCenter(available.center())
    return rect


def fits(frame: QRect, available: QRect) -> bool:
    return available.contains(frame)


def suitable(frame: QRect, available: QRect) -> bool:
    """A restored window worth keeping: on the screen, and at least half the fitted size each
    way (a window left small on a laptop would open as a postage stamp on a large monitor)."""
    fitted = initial_geometry(available)
    return (
        fits(frame, available)
        and frame.width() >= fitted.width() // 2
        and frame.height() >= fitted.height() // 2
    )


def screen_key(window: QWidget) -> str:
    """The size of the screen ``window`` is on, as "1366x768": geometry is kept per size."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        return ""
    size = screen.size()
    return f"{size.width()}x{size.height()}"


def fit_to_screen(window: QWidget, *, restored: bool = False) -> QRect:
    """Size and place ``window`` within its screen; a restored geometry that suits is kept."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        window.resize(PREFERRED)
        return window.geometry()
    available = screen.availableGeometry()
    if restored and suitable(window.frameGeometry(), available):
        return window.geometry()
    frame = initial_geometry(available)
    # the frame (title bar, borders) is outside geometry(); leave room for it
    extra_w = window.frameGeometry().width() - window.geometry().width()
    extra_h = window.frameGeometry().height() - window.geometry().height()
    window.resize(max(frame.width() - extra_w, 1), max(frame.height() - extra_h, 1))
    window.move(frame.topLeft())
    if not restored and available.width() >= MAXIMISE_FROM:
        # the fitted size stays the one the window returns to when un-maximised
        window.setWindowState(window.windowState() | Qt.WindowState.WindowMaximized)
    return frame
