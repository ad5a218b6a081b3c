"""Small parts the study dialogs share: a list of check boxes carrying data, and the one
status line (the translate and generate dialogs both use them), and a body that scrolls where
the screen is too low for a dialog."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QWidget,
)


def in_a_row(*widgets: QWidget) -> QWidget:
    """The widgets side by side, left-aligned, with no margins of their own."""
    box = QWidget()
    layout = QHBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    for w in widgets:
        layout.addWidget(w)
    layout.addStretch(1)
    return box


def checkable_item(text: str, data: object, checked: bool) -> QListWidgetItem:
    item = QListWidgetItem(text)
    item.setData(Qt.ItemDataRole.UserRole, data)
    item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
    item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
    return item


def checkable_list(rows: list[tuple[str, object, bool]]) -> QListWidget:
    """A list of (text, data, checked) items with check boxes."""
    widget = QListWidget()
    for text, data, checked in rows:
        widget.addItem(checkable_item(text, data, checked))
    return widget


def checked_data(widget: QListWidget) -> list:
    return [
        widget.item(i).data(Qt.ItemDataRole.UserRole)
        for i in range(widget.count())
        if widget.item(i).checkState() == Qt.CheckState.Checked
    ]


def set_checked(widget: QListWidget, values) -> None:
    values = set(values)
    for i in range(widget.count()):
        item = widget.item(i)
        item.setCheckState(
            Qt.CheckState.Checked
            if item.data(Qt.ItemDataRole.UserRole) in values
            else Qt.CheckState.Unchecked
        )


def show_status(label: QLabel, text: str, *, error: bool = False) -> None:
    """The dialog's one status line; errors in red."""
    label.setStyleSheet("color: #b00020" if error else "")
    label.setText(text)


class ScreenFittingScroll(QScrollArea):
    """A dialog's body that scrolls where the screen is too low for it (the import dialog was
    791 px tall, 961 px with the Bijoy preview: its buttons fell off a 768 px laptop screen).

    It asks for its content's full size up to the screen's free height less ``reserve_px``
    (the title bar and what stays outside it: the dialog's buttons), so on a large screen the
    dialog shows everything unscrolled; QScrollArea's own hint stops at 24 lines."""

    def __init__(self, body: QWidget, *, reserve_px: int = 120):
        super().__init__()
        self.reserve_px = reserve_px
        self._body = body  # the one content, never replaced (widget() is typed as optional)
        # never squeezed below its size hint to save a scroll bar (rows drew over each other)
        body.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.setWidget(body)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def sizeHint(self) -> QSize:
        hint = self._body.sizeHint()
        width = hint.width() + self.verticalScrollBar().sizeHint().width()
        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is None:
            return QSize(width, hint.height())
        room = screen.availableGeometry().height() - self.reserve_px
        return QSize(width, max(min(hint.height(), room), 120))

    def minimumSizeHint(self) -> QSize:
        # as wide as the content: a wider page (another kind) widens the dialog, no cut
        width = self._body.minimumSizeHint().width() + self.verticalScrollBar().sizeHint().width()
        return QSize(width, 120)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()  # the content's size changed: the dialog's layout asks again
            self._widen_window()
        return super().eventFilter(watched, event)

    def _widen_window(self) -> None:
        """A wider content widens its window (a dialog's own setMinimumWidth would otherwise
        keep the layout from doing it), within the screen."""
        window = self.window()
        layout = window.layout()
        if window is self or layout is None:
            return
        need = layout.totalMinimumSize().width()
        screen = window.screen() or QGuiApplication.primaryScreen()
        if screen is not None:
            need = min(need, screen.availableGeometry().width() - FRAME_ALLOWANCE_PX)
        if window.width() < need:
            window.resize(need, window.height())


FRAME_ALLOWANCE_PX = 40  # title bar and borders, outside the dialog's own size


def size_to_screen(dialog: QWidget) -> None:
    """Give ``dialog`` its full size where the screen has room, less where it has not.

    Qt's first show limits a window to 2/3 of the screen, which cut a scrolling body short on
    a 1080 px screen that had room for all of it."""
    screen = dialog.screen() or QGuiApplication.primaryScreen()
    hint = dialog.sizeHint()
    if screen is None:
        dialog.resize(hint)
        return
    room = screen.availableGeometry()
    dialog.resize(
        min(hint.width(), room.width() - FRAME_ALLOWANCE_PX),
        min(hint.height(), room.height() - FRAME_ALLOWANCE_PX),
    )


class CurrentPageStack(QStackedWidget):
    """A QStackedWidget as tall as the page it shows, not as its tallest page (the import
    dialog's corpus page sat above the question page's empty height): QStackedLayout leaves
    pages whose size policy is Ignored out of its size."""

    def __init__(self):
        super().__init__()
        self.currentChanged.connect(self._size_to_current)

    def addWidget(self, widget: QWidget) -> int:
        index = super().addWidget(widget)
        self._size_to_current()
        return index

    def _size_to_current(self, _index: int = 0) -> None:
        preferred, ignored = QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Ignored
        for i in range(self.count()):
            page = self.widget(i)
            if page is not None:
                policy = preferred if i == self.currentIndex() else ignored
                page.setSizePolicy(policy, policy)
        self.updateGeometry()
