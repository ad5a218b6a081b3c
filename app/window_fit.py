"""The main window's first size fits the screen it opens on (field laptops: 1366×768), frame
included.

A fixed 1280×800 (or a geometry saved on a larger monitor) runs off a small screen; here the
window's frame — the window manager's title bar and borders around what Qt calls its geometry
— takes the preferred size where the screen's available area allows, otherwise that area less
a margin, centred. The frame's size is known only once a window manager has framed the window:
before that a safe estimate (:data:`FRAME_ESTIMATE`) is left for it, and once it is known a
window whose frame runs off the screen is fitted again with the real one. A first window (no
saved geometry) on a screen at least 1920 px wide opens maximised, as a 1280×800 window would
leave a third of it unused. Geometry is saved per screen size (``screen_key``): a window left
on a laptop comes back there as it was, and one from another screen size is never applied.
Pure geometry (:func:`initial_geometry`, :func:`client_geometry`) is separate from the window so
it can be checked for any screen and frame.
"""

from __future__ import annotations

import base64
import binascii
import struct

from PySide6.QtCore import QEvent, QMargins, QObject, QRect, QSize, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

PREFERRED = QSize(1280, 800)
MAXIMISE_FROM = 1920  # a first window on a screen at least this wide opens maximised
MARGIN = 0.04  # share of the available width/height left free on a small screen
# a window manager's title bar and borders, left free before it has framed the window: as
# large as the common desktops' (GNOME, KDE, Xfce, Windows 10/11 draw 0-8 px borders and
# title bars of 24-40 px), so the real frame is no larger
FRAME_ESTIMATE = QMargins(8, 40, 8, 8)


def initial_geometry(available: QRect, preferred: QSize = PREFERRED) -> QRect:
    """The window rectangle (frame included) for a screen whose usable area is ``available``."""
    width = min(preferred.width(), int(available.width() * (1 - MARGIN)))
    height = min(preferred.height(), int(available.height() * (1 - MARGIN)))
    rect = QRect(0, 0, width, height)
    rect.moveCenter(available.center())
    return rect


def client_geometry(
    available: QRect, frame: QMargins = FRAME_ESTIMATE, preferred: QSize = PREFERRED
) -> QRect:
    """The window's own rectangle (Qt's ``geometry()``) whose frame, ``frame`` around it, is
    :func:`initial_geometry`'s rectangle."""
    return initial_geometry(available, preferred).marginsRemoved(frame)


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


def saved_screen_width(geometry: bytes) -> int | None:
    """The width of the screen a ``QWidget.saveGeometry()`` was taken on (None: not one).
    Read by hand: Qt has no reader of its format (magic, version, frame and normal rectangles,
    screen number, two state bytes, then the screen's width, since version 2)."""
    if len(geometry) < 50:
        return None
    magic, major, _minor = struct.unpack(">IHH", geometry[:8])
    if magic != 0x1D9D0CB or major < 2:
        return None
    return struct.unpack(">i", geometry[46:50])[0]


def geometry_to_restore(window: QWidget, per_screen: dict[str, str], single: str) -> str:
    """The saved geometry (base64) for the screen ``window`` opens on: the one kept for this
    screen size; else the single one of settings written before geometry was kept per
    screen size, if it was taken on a screen this wide; else none (a geometry from another
    screen size would be shrunk into a corner of this one)."""
    if screen_key(window) in per_screen:
        return per_screen[screen_key(window)]
    screen = window.screen() or QGuiApplication.primaryScreen()
    if not single or per_screen or screen is None:
        return ""
    try:
        width = saved_screen_width(base64.b64decode(single))
    except (binascii.Error, ValueError):
        return ""
    return single if width == screen.size().width() else ""


def frame_margins(window: QWidget) -> QMargins:
    """The window manager's frame around ``window``: frameGeometry − geometry once it has
    framed the shown window; :data:`FRAME_ESTIMATE` before."""
    if not window.isVisible() or window.frameGeometry() == window.geometry():
        return FRAME_ESTIMATE
    outer, inner = window.frameGeometry(), window.geometry()
    return QMargins(
        inner.left() - outer.left(),
        inner.top() - outer.top(),
        outer.right() - inner.right(),
        outer.bottom() - inner.bottom(),
    )


def _place(window: QWidget, available: QRect, frame: QMargins) -> QRect:
    # the window's own rectangle, whatever the frame turns out to be: a window manager puts
    # a frame no larger than ``frame`` around it, inside the fitted rectangle
    window.setGeometry(client_geometry(available, frame))
    return initial_geometry(available)


def fit_to_screen(window: QWidget, *, restored: bool = False) -> QRect:
    """Size and place ``window`` within its screen; a restored geometry that suits is kept.
    Once a window manager frames the window, a frame that runs off the screen is fitted
    again with the real frame (:class:`RefitWhenFramed`)."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        window.resize(PREFERRED)
        return window.geometry()
    available = screen.availableGeometry()
    RefitWhenFramed.watch(window)
    if restored and suitable(window.frameGeometry(), available):
        return window.geometry()
    outer = _place(window, available, frame_margins(window))
    if not restored and available.width() >= MAXIMISE_FROM:
        # the fitted size stays the one the window returns to when un-maximised
        window.setWindowState(window.windowState() | Qt.WindowState.WindowMaximized)
    return outer


def refit_if_off_screen(window: QWidget, frame: QMargins) -> bool:
    """Fit ``window`` again when its frame, ``frame`` around its geometry, is not inside its
    screen's available area (a maximised window is the window manager's to place)."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None or window.isMaximized() or window.isFullScreen():
        return False
    available = screen.availableGeometry()
    if fits(window.geometry().marginsAdded(frame), available):
        return False
    _place(window, available, frame)
    return True


class RefitWhenFramed(QObject):
    """Watches a window until a window manager has framed it (its frame differs from its
    geometry), then fits it again if that frame runs off the screen, once. Without a window
    manager (a kiosk) the frame never differs and nothing is done; the watch ends after a few
    moves and resizes of the shown window, so a window the person moves later is theirs."""

    EVENTS_WATCHED = 8  # a window manager frames a window within its first few configures

    def __init__(self, target: QWidget):
        super().__init__(target)
        self.target = target
        self.events_left = self.EVENTS_WATCHED

    @classmethod
    def watch(cls, window: QWidget) -> None:
        if not window.property("refit_when_framed"):
            window.setProperty("refit_when_framed", True)
            window.installEventFilter(cls(window))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Show, QEvent.Type.Move, QEvent.Type.Resize):
            window = self.target
            if not window.isVisible():
                return False
            self.events_left -= 1
            framed = window.frameGeometry() != window.geometry()
            if framed or self.events_left <= 0:
                window.removeEventFilter(self)
                if framed:
                    refit_if_off_screen(window, frame_margins(window))
        return False
