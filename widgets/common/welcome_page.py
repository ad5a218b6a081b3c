"""The first page when no workspace is open: open the sample, create, open, add a model."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from engine.i18n import _


class WelcomePage(QWidget):
    sig_open_sample = Signal()
    sig_new_workspace = Signal()
    sig_open_workspace = Signal()
    sig_open_recent = Signal(str)
    sig_add_model = Signal()
    sig_open_package = Signal()

    def __init__(self, recent_workspaces: list[str] | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        title = QLabel(_("Upabhasha — উপভাষা"))
        title.setObjectName("welcomeTitle")
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.8)
        font.setBold(True)
        title.setFont(font)
        intro = QLabel(
            _(
                "Measure how much worse language models answer questions in regional "
                "Bengali dialects than in standard Bengali. Start with the sample "
                "workspace, or create your own and import a corpus and questions."
            )
        )
        intro.setWordWrap(True)

        self.sample_button = QPushButton(_("Open the sample workspace"))
        self.sample_button.setToolTip(
            _(
                "A small illustrative workspace built from the bundled "
                "sample data (not gold, not for research findings)"
            )
        )
        self.new_button = QPushButton(_("Create a new workspace…"))
        self.open_button = QPushButton(_("Open a workspace…"))
        self.model_button = QPushButton(_("Add a model…"))
        self.package_button = QPushButton(_("Open a review package…"))
        self.package_button.setToolTip(
            _("Annotate the items someone sent you in a review package (no workspace needed)")
        )
        every = (
            self.sample_button,
            self.new_button,
            self.open_button,
            self.model_button,
            self.package_button,
        )
        for button in every:
            button.setMinimumHeight(36)
        self.sample_button.clicked.connect(self.sig_open_sample)
        self.new_button.clicked.connect(self.sig_new_workspace)
        self.open_button.clicked.connect(self.sig_open_workspace)
        self.model_button.clicked.connect(self.sig_add_model)
        self.package_button.clicked.connect(self.sig_open_package)

        self.recent_list = QListWidget()
        self.recent_list.itemActivated.connect(
            lambda item: self.sig_open_recent.emit(item.data(Qt.ItemDataRole.UserRole))
        )
        self.set_recent(recent_workspaces or [])

        buttons = QVBoxLayout()
        for button in every:
            buttons.addWidget(button)
        buttons.addStretch(1)
        recent = QVBoxLayout()
        recent.addWidget(QLabel(_("Recent workspaces")))
        recent.addWidget(self.recent_list)
        row = QHBoxLayout()
        row.addLayout(buttons, 1)
        row.addLayout(recent, 2)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(48, 36, 48, 36)
        layout.addWidget(title)
        layout.addWidget(intro)
        layout.addSpacing(18)
        layout.addLayout(row, 1)

    def set_recent(self, paths: list[str]) -> None:
        self.recent_list.clear()
        for path in paths:
            item = QListWidgetItem(f"{Path(path).name}    {Path(path).parent}")
            item.setData(Qt.ItemDataRole.UserRole, path)
            item.setToolTip(path)
            self.recent_list.addItem(item)
        self.recent_list.setEnabled(bool(paths))
        if not paths:
            self.recent_list.addItem(_("(none yet)"))


if __name__ == "__main__":
    app = QApplication(sys.argv)
    page = WelcomePage(["/tmp/example.sqlite"])
    page.resize(800, 500)
    page.show()
    sys.exit(app.exec())
