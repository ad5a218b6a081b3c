"""ChartView: paints a chart image rendered off the GUI thread (:mod:`widgets.reports.chart_renderer`).

The GUI thread's whole share of a chart update is wrapping the RGBA buffer in a QImage and
painting it. While a re-render at a new size is on its way after a resize, the last image is
shown scaled. Mouse positions are turned into the chart's data coordinates for hover read-outs.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QSizePolicy, QWidget

from engine.i18n import _
from widgets.reports.chart_renderer import RenderedChart

RESIZE_SETTLE_MS = 150


class ChartView(QWidget):
    sig_painted = Signal()  # a newly set image reached the screen
    sig_resized = Signal()  # the size settled: render again to fit
    sig_hover = Signal(float, float)  # data coordinates under the mouse

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.image: QImage | None = None
        self.rendered: RenderedChart | None = None
        self._fresh = False
        self.setMouseTracking(True)
        self.setMinimumSize(320, 200)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self._resize_timer = QTimer(self)
        self._resize_timer.setSingleShot(True)
        self._resize_timer.setInterval(RESIZE_SETTLE_MS)
        self._resize_timer.timeout.connect(self._on_resize_settled)

    def shown_texts(self) -> tuple[str, ...]:
        """What the chart on screen writes (tests read the screen through this)."""
        return self.rendered.texts if self.rendered is not None else ()

    def sizeHint(self) -> QSize:
        return QSize(1100, 650)

    def pixel_size(self) -> tuple[int, int]:
        ratio = self.devicePixelRatioF()
        return round(self.width() * ratio), round(self.height() * ratio)

    def set_image(self, rendered: RenderedChart) -> None:
        image = QImage(
            rendered.rgba,
            rendered.width,
            rendered.height,
            rendered.width * 4,
            QImage.Format.Format_RGBA8888,
        )
        image.setDevicePixelRatio(rendered.device_pixel_ratio)
        self.image = image.copy()  # QImage does not own the Python buffer
        self.rendered = replace(rendered, rgba=b"")  # the pixels live on in the image only
        self._fresh = True
        self.update()

    def fits(self) -> bool:
        """The image was rendered for the view's present size."""
        return (
            self.rendered is not None
            and (self.rendered.width, self.rendered.height) == self.pixel_size()
        )

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), Qt.GlobalColor.white)
        if self.image is None:
            painter.setPen(Qt.GlobalColor.darkGray)
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, _("Loading…"))
        elif self.fits():
            painter.drawImage(QPointF(0, 0), self.image)
        else:
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            painter.drawImage(QRectF(self.rect()), self.image)
        painter.end()
        if self._fresh:
            self._fresh = False
            self.sig_painted.emit()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.rendered is not None and not self.fits():
            self._resize_timer.start()

    def _on_resize_settled(self) -> None:
        if self.isVisible() and not self.fits():
            self.sig_resized.emit()

    def mouseMoveEvent(self, event) -> None:
        rendered = self.rendered
        box = rendered.axes if rendered is not None else None
        if rendered is None or box is None or not self.width() or not self.height():
            return
        # widget coordinates -> image pixels (the image may be shown scaled), y from below
        scale_x = rendered.width / self.width()
        scale_y = rendered.height / self.height()
        position = event.position()
        point = box.to_data(position.x() * scale_x, rendered.height - position.y() * scale_y)
        if point is not None:
            self.sig_hover.emit(*point)
