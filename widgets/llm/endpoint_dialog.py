"""EndpointDialog: add an OpenAI-compatible endpoint to the workspace's models, or edit one.

Its bounds (connect and read timeout, retries) are those of ``upabhasha models add URL
--connect-timeout S --read-timeout S --max-retries N``: the same defaults, stated in the
dialog, the same ranges (:mod:`engine.llm.api`'s ``ENDPOINT_LIMITS``), stored the same way.
A value out of range or a name the name rule refuses keeps the dialog open with the reason.
"""

from __future__ import annotations

import json

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

from engine.errors import UserError
from engine.i18n import _
from engine.llm.api import (
    BREAKER_FAILURES,
    CONNECT_TIMEOUT,
    MAX_RETRIES,
    READ_TIMEOUT,
    checked_endpoint_limits,
)
from engine.text.text_rules import checked_name
from widgets.common.dialog_parts import show_status
from widgets.common.hints import for_gui
from widgets.common.number_boxes import DecimalBox, NumberBox

# Wider than the allowed ranges, so that a value out of range can be typed and refused with
# the reason instead of vanishing under the spin box's validator.
_TYPABLE_SECONDS = 99_999.0
_TYPABLE_RETRIES = 999


class EndpointDialog(QDialog):
    """Name, base URL(s), served model name, API key and bounds of an OpenAI-compatible
    endpoint. ``existing``: the models row of an endpoint to edit (its name stays)."""

    def __init__(
        self,
        keyring_problem: str | None,
        parent: QWidget | None = None,
        existing: dict | None = None,
    ):
        super().__init__(parent)
        self.existing = existing
        self.setWindowTitle(_("Edit the endpoint") if existing else _("Add an endpoint"))
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
        self.connect_timeout = self._seconds_box()
        self.read_timeout = self._seconds_box()
        self.max_retries = NumberBox()
        self.max_retries.setRange(0, _TYPABLE_RETRIES)
        self.limits_note = QLabel(
            _(
                "Timeouts are in seconds. Defaults: {connect:g} to connect, {read:g} for a whole "
                "reply, {retries} retries; a server that fails {breaker} times in a row is "
                "left for the rest of the step."
            ).format(
                connect=CONNECT_TIMEOUT.default,
                read=READ_TIMEOUT.default,
                retries=MAX_RETRIES.default,
                breaker=BREAKER_FAILURES,
            )
        )
        self.limits_note.setWordWrap(True)
        self.is_default = QCheckBox(_("Make it the workspace's default model"))
        if keyring_problem:
            self.keyring_note.setStyleSheet("color: #b45309;")
            self.api_key.setEnabled(False)
            self.api_key.setPlaceholderText(_("no keyring: the key cannot be stored"))
        self.error = QLabel()
        self.error.setWordWrap(True)
        form = QFormLayout()
        form.addRow(_("Name"), self.name)
        form.addRow(_("Base URL(s)"), self.base_urls)
        form.addRow(_("Model on the server"), self.api_model)
        form.addRow(_("API key"), self.api_key)
        form.addRow(_("Parallel requests"), self.concurrency)
        form.addRow(_("Connect timeout"), self.connect_timeout)
        form.addRow(_("Read timeout"), self.read_timeout)
        form.addRow(_("Retries of a failed request"), self.max_retries)
        form.addRow("", self.is_default)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.limits_note)
        layout.addWidget(self.keyring_note)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self._fill(existing or {})
        self.resize(520, 320)

    @staticmethod
    def _seconds_box() -> DecimalBox:
        box = DecimalBox()
        box.setDecimals(1)
        box.setRange(0.0, _TYPABLE_SECONDS)
        return box

    def _fill(self, row: dict) -> None:
        """The form as ``row`` has it (the defaults for a new endpoint)."""
        saved = json.loads(row.get("load_params") or "{}")
        self.connect_timeout.setValue(saved.get(CONNECT_TIMEOUT.key, CONNECT_TIMEOUT.default))
        self.read_timeout.setValue(saved.get(READ_TIMEOUT.key, READ_TIMEOUT.default))
        self.max_retries.setValue(saved.get(MAX_RETRIES.key, MAX_RETRIES.default))
        if not row:
            return
        self.name.setText(row["name"])
        self.name.setReadOnly(True)  # the workspace's name of the model: editing keeps it
        self.base_urls.setText(", ".join(json.loads(row.get("base_urls") or "[]")))
        self.api_model.setText(row.get("api_model") or "")
        self.concurrency.setValue(saved.get("concurrency", 0))
        self.is_default.setChecked(bool(row.get("is_default")))
        if row.get("keyring_service"):
            self.api_key.setPlaceholderText(_("leave empty to keep the stored key"))

    def limits(self) -> dict:
        """The bounds that differ from the defaults, as ``models add`` stores what it is
        given: ``load_params`` keys."""
        chosen = {
            CONNECT_TIMEOUT: self.connect_timeout.value(),
            READ_TIMEOUT: self.read_timeout.value(),
            MAX_RETRIES: self.max_retries.value(),
        }
        return {limit.key: value for limit, value in chosen.items() if value != limit.default}

    def problem(self) -> str | None:
        """Why OK cannot go on (a name the name rule refuses, a bound out of range)."""
        try:
            if self.name.text().strip():
                checked_name(self.name.text(), "model name")
            checked_endpoint_limits(self.limits())
        except UserError as exc:
            return for_gui(str(exc))
        return None

    def accept(self) -> None:
        problem = self.problem()
        if problem is not None:
            show_status(self.error, problem, error=True)
            return
        super().accept()

    def values(self) -> dict:
        urls = [u.strip() for u in self.base_urls.text().split(",") if u.strip()]
        return {
            "name": self.name.text().strip(),
            "base_urls": urls,
            "api_model": self.api_model.text().strip(),
            "api_key": self.api_key.text(),
            "concurrency": self.concurrency.value(),
            "is_default": self.is_default.isChecked(),
            "limits": self.limits(),
        }
