"""JsonOutputButton: ask the selected endpoint again which way it takes a JSON schema (the
probe of engine.llm.endpoints.probe) and keep what it finds with the endpoint."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QPushButton, QWidget

from engine.i18n import _
from engine.llm import tasks as model_tasks
from engine.llm.api import DEFAULT_STRUCTURED_OUTPUT, STRUCTURED_OUTPUT_MODES
from widgets.common.task_bridge import WRITER, TaskBridge


class JsonOutputButton(QPushButton):
    """Enabled for an endpoint (:meth:`set_model`); probes in the pool, keeps a finding on
    the writer lane, then says what it found."""

    sig_status_message = Signal(str)
    sig_kept = Signal()

    def __init__(self, workspace_path: str, bridge: TaskBridge, parent: QWidget | None = None):
        super().__init__(_("Find JSON output again"), parent)
        self.workspace_path, self.bridge = workspace_path, bridge
        self.row: dict | None = None
        self.setToolTip(
            _(
                "Ask the selected endpoint which way it takes a JSON schema ({modes}), a few "
                "tokens per try"
            ).format(modes=", ".join(f"'{m}'" for m in STRUCTURED_OUTPUT_MODES))
        )
        self.setEnabled(False)
        self.clicked.connect(lambda: self.probe())

    def set_model(self, row: dict | None) -> None:
        self.row = row if row is not None and row["kind"] == "endpoint" else None
        self.setEnabled(self.row is not None)

    def probe(self) -> None:
        if self.row is None:
            return
        model_id, name = self.row["id"], self.row["name"]
        self.setEnabled(False)
        self.bridge.run(
            model_tasks.probe_structured_output_at,
            args=(self.workspace_path, model_id),
            label=_("Asking {name} for JSON output").format(name=name),
            on_done=lambda probe: self._keep(model_id, name, probe),
            on_error=lambda _exc: self.setEnabled(self.row is not None),
        )

    def _keep(self, model_id: int, name: str, probe) -> None:
        self.setEnabled(self.row is not None)
        if probe.mode is None:
            self.sig_status_message.emit(
                _("{name}: no JSON output form found ({reason}); {mode} is sent").format(
                    name=name, reason=probe.reason, mode=DEFAULT_STRUCTURED_OUTPUT
                )
            )
            return
        self.bridge.run(
            model_tasks.keep_structured_output_at,
            args=(self.workspace_path, model_id, probe),
            lane=WRITER,
            label=_("Saving {name}").format(name=name),
            on_done=lambda _none: self._kept(name, probe.mode),
        )

    def _kept(self, name: str, mode: str) -> None:
        self.sig_status_message.emit(
            _("{name} takes JSON output as {mode}").format(name=name, mode=mode)
        )
        self.sig_kept.emit()
