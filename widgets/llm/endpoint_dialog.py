"""EndpointDialog: add an OpenAI-compatible endpoint to the workspace's models."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.i18n import _


class EndpointDialog(QDialog):
    """Name, base URL(s), served model name and API key of an OpenAI-compatible endpoint."""

    def __init__(self, keyring_problem: str | None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(_("Add an endpoint"))
        self.name = QLineEdit()
        self.name.setPlaceholderText(_("llama-3.1-8b on lab server"))
        self.base_urls = QLineEdit()
        self.base_urls.setPlaceholderText("http://10.0.0.5:8000/v1, http://10.0.0.6:8000/v1")
        self.api_model = QLineEdit()
        self.api_model.setPlaceholderText("meta-llama/Llama-3.1-8B-Instruct")
        self.api_key = QLineEdit()
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key.setPlaceholderText(_("optional; stored in the OS keyring"))
        self.keyring_note = QLabel(
            keyring_problem
            or _("The key is stored in the OS keyring, never in the workspace file.")
        )
        self.keyring_note.setWordWrap(True)
        self.concurrency = QSpinBox()
        self.concurrency.setRange(0, 256)
        self.concurrency.setSpecialValueText(_("backend default"))
        self.concurrency.setToolTip(_("Requests sent to the server at the same time"))
        self.is_default = QCheckBox(_("Make it the workspace's default model"))
        if keyring_problem:
            self.keyring_note.setStyleSheet("color: #b45309;")
            self.api_key.setEnabled(False)
            self.api_key.setPlaceholderText(_("no keyring: the key cannot be stored"))
        form = QFormLayout()
        form.addRow(_("Name"), self.name)
        form.addRow(_("Base URL(s)"), self.base_urls)
        form.addRow(_("Model on the server"), self.api_model)
        form.addRow(_("API key"), self.api_key)
        form.addRow(_("Parallel requests"), self.concurrency)
        form.addRow("", self.is_default)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.keyring_note)
        layout.addWidget(self.buttons)
        self.resize(520, 240)

    def values(self) -> dict:
        urls = [u.strip() for u in self.base_urls.text().split(",") if u.strip()]
        return {
            "name": self.name.text().strip(),
            "base_urls": urls,
            "api_model": self.api_model.text().strip(),
            "api_key": self.api_key.text(),
            "concurrency": self.concurrency.value(),
            "is_default": self.is_default.isChecked(),
        }
