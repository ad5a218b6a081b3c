"""Help → Keyboard shortcuts: every action and shortcut found in a window, in one table."""

from __future__ import annotations

import re

from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.i18n import _
from widgets.common.elided_tooltips import install_elided_tooltips

MNEMONIC_SUFFIX = re.compile(r"\s*\(&\w\)")


def collect_shortcuts(root: QWidget) -> list[tuple[str, str]]:
    """(description, key sequences) for every QAction/QShortcut with a key under ``root``."""
    keys: dict[str, list[str]] = {}

    def add(text: str, sequence: QKeySequence) -> None:
        key = sequence.toString(QKeySequence.SequenceFormat.NativeText)
        if text and key and key not in keys.setdefault(text, []):
            keys[text].append(key)

    for action in root.findChildren(QAction):
        # "কর্মক্ষেত্র খুলুন… (&O)": a translation's mnemonic suffix goes with the "&"
        text = MNEMONIC_SUFFIX.sub("", action.text()).replace("&", "").rstrip("…").strip()
        for sequence in action.shortcuts():
            add(text, sequence)
    for shortcut in root.findChildren(QShortcut):
        add(shortcut.whatsThis() or shortcut.objectName(), shortcut.key())
    return sorted(
        ((text, ", ".join(k)) for text, k in keys.items() if k), key=lambda row: row[0].casefold()
    )


class ShortcutsDialog(QDialog):
    def __init__(self, shortcuts: list[tuple[str, str]], parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(_("Keyboard shortcuts"))
        self.table = QTableWidget(len(shortcuts), 2)
        self.table.setHorizontalHeaderLabels([_("Action"), _("Shortcut")])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for row, (text, key) in enumerate(shortcuts):
            self.table.setItem(row, 0, QTableWidgetItem(text))
            self.table.setItem(row, 1, QTableWidgetItem(key))
        install_elided_tooltips(self.table)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(560, 620)
