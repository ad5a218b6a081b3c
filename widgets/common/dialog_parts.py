"""Small parts the study dialogs share: a list of check boxes carrying data, and the one
status line (the translate and generate dialogs both use them)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem


def checkable_list(rows: list[tuple[str, object, bool]]) -> QListWidget:
    """A list of (text, data, checked) items with check boxes."""
    widget = QListWidget()
    for text, data, checked in rows:
        item = QListWidgetItem(text)
        item.setData(Qt.ItemDataRole.UserRole, data)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
        widget.addItem(item)
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
