"""ModelsPanel: the workspace's models; add a GGUF (dialog or drag and drop), an endpoint, or
models other tools keep on this computer (found in place); try a prompt on the selected one.

GGUF files are validated and hashed in the background (progress through the bridge); the
endpoint's API key goes to the OS keyring, never into the workspace.

``python -m widgets.llm.models_panel [WORKSPACE]`` opens the panel alone.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

from PySide6.QtCore import QModelIndex, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from engine.i18n import _
from engine.llm import tasks as model_tasks
from engine.llm.api import Gpu
from engine.workspace.api import Workspace
from widgets.common import file_dialogs
from widgets.common.file_dialogs import MODELS
from widgets.common.standalone import run_panel
from widgets.common.task_bridge import WRITER, TaskBridge, describe_error
from widgets.common.workspace_watcher import WorkspaceWatcher, follow
from widgets.llm.endpoint_dialog import EndpointDialog
from widgets.llm.json_output_button import JsonOutputButton
from widgets.llm.model_finder import ModelFinderDialog
from widgets.llm.models_model import ModelsTableModel
from widgets.llm.try_prompt_box import TryPromptBox

log = logging.getLogger(__name__)


class ModelsPanel(QWidget):
    sig_status_message = Signal(str)
    sig_changed = Signal()
    sig_model_folders_changed = Signal(list)  # folders added to the finder (settings keep them)

    def __init__(
        self,
        workspace: Workspace,
        bridge: TaskBridge,
        *,
        watcher: WorkspaceWatcher | None = None,
        model_folders: list[str] | None = None,
        parent: QWidget | None = None,
    ):
        """``watcher``: the window's workspace watcher (a panel alone makes its own);
        ``model_folders``: folders the user added to the finder before (the settings')."""
        super().__init__(parent)
        self.ws = workspace
        self.model_folders = list(model_folders or [])
        self.bridge = bridge
        self.setAcceptDrops(True)
        self.model = ModelsTableModel(workspace, self)
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.view.horizontalHeader().setStretchLastSection(True)
        self.view.selectionModel().currentRowChanged.connect(self._show_details)

        self.add_gguf_button = QPushButton(_("Add GGUF file…"))
        self.add_gguf_button.clicked.connect(self.add_gguf_dialog)
        self.add_endpoint_button = QPushButton(_("Add endpoint…"))
        self.add_endpoint_button.clicked.connect(self.add_endpoint_dialog)
        self.edit_endpoint_button = QPushButton(_("Edit endpoint…"))
        self.edit_endpoint_button.setEnabled(False)
        self.edit_endpoint_button.clicked.connect(self.edit_endpoint_dialog)
        self.probe_button = JsonOutputButton(str(workspace.path), bridge)
        self.probe_button.sig_status_message.connect(self.sig_status_message)
        self.probe_button.sig_kept.connect(self.model.reload)
        self.add_embedded_button = QPushButton(_("Add the embedded Gemma 3 270M"))
        self.add_embedded_button.setToolTip(
            _(
                "A small offline model that demonstrates the "
                "pipeline; its Bengali is not research-grade"
            )
        )
        self.add_embedded_button.clicked.connect(self.add_embedded)
        self.find_button = QPushButton(_("Find models on this computer…"))
        self.find_button.clicked.connect(self.find_models_dialog)
        self.finder: ModelFinderDialog | None = None
        self.try_box = TryPromptBox(workspace, bridge)
        self.gpu_label = QLabel(_("Checking GPU offload support…"))
        self.gpu_label.setWordWrap(True)
        self.gpu_report: dict | None = None
        self.plan: dict | None = None
        self.plan_label = QLabel(_("Select a local GGUF model for a GPU offload proposal."))
        self.plan_label.setWordWrap(True)
        self.apply_plan_button = QPushButton(_("Use the proposed n_gpu_layers"))
        self.apply_plan_button.setEnabled(False)
        self.apply_plan_button.clicked.connect(self.apply_plan)
        self.details = QPlainTextEdit()
        self.details.setReadOnly(True)
        self.details.setMaximumHeight(160)
        drop_hint = QLabel(_("Drop .gguf files here to add them."))
        drop_hint.setStyleSheet("color: #666;")

        buttons = QHBoxLayout()
        for button in (
            self.add_gguf_button,
            self.add_endpoint_button,
            self.edit_endpoint_button,
            self.probe_button,
            self.add_embedded_button,
            self.find_button,
        ):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(drop_hint)
        layout = QVBoxLayout(self)
        layout.addLayout(buttons)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.details)
        layout.addWidget(self.try_box)
        layout.addWidget(self.gpu_label)
        plan_row = QHBoxLayout()
        plan_row.addWidget(self.plan_label, 1)
        plan_row.addWidget(self.apply_plan_button)
        layout.addLayout(plan_row)
        self._gpu_checked = False
        # models registered elsewhere (`upabhasha models add`, another window)
        self.watcher = watcher or WorkspaceWatcher(workspace.path, parent=self)
        follow(self, self.model.reload, self.watcher, "models")

    def showEvent(self, event) -> None:
        # llama_cpp is heavy: probe it the first time the panel is seen, not at start-up
        super().showEvent(event)
        if not self._gpu_checked:
            self._gpu_checked = True
            self.check_gpu()

    # -- GPU -------------------------------------------------------------------------------
    def check_gpu(self) -> None:
        self.bridge.run(
            model_tasks.gpu_offload_report,
            label=_("Checking GPU support"),
            on_done=self._show_gpu,
            on_error=self._gpu_failed,
            replace="gpu-check",
        )

    def _show_gpu(self, report: dict) -> None:
        self.gpu_report = report
        if report["supports_gpu_offload"]:
            text = _("This llama.cpp build can offload layers to a GPU (n_gpu_layers).")
        elif report.get("gpu_build"):  # the installer's Vulkan build on a machine without one
            text = _(
                "This llama.cpp build can offload layers to a GPU, but finds none it can use "
                "here; local models run on the CPU."
            )
        elif getattr(sys, "frozen", False):  # an installed program: pip cannot change it
            text = _(
                "This installed Upabhasha carries the CPU build of llama.cpp; local models "
                "work, more slowly. For a GPU, install the GPU build of Upabhasha (CUDA on "
                "Linux and Windows, Metal on Apple silicon), or use an endpoint."
            )
        else:
            text = _(
                "This llama.cpp build runs on the CPU only (no GPU offload); local models "
                "work, more slowly. For a GPU, reinstall llama-cpp-python with CUDA, Metal "
                "or Vulkan, or use an endpoint."
            )
        gpus = [Gpu(**g).describe() for g in report.get("gpus", [])]
        text += "\n" + (
            _("GPU: {gpus}").format(gpus="; ".join(gpus))
            if gpus
            else _("No GPU found (no nvidia-smi, not Apple silicon).")
        )
        seen = [Gpu(**g) for g in report.get("llama_devices", [])]
        if seen:
            text += "\n" + _("llama.cpp sees: {devices}").format(
                devices="; ".join(f"{g.describe()} [{g.kind}]" for g in seen)
            )
        text += "\n" + report["backend_message"]
        self.gpu_label.setText(
            text + f"\nllama-cpp-python {report['llama_cpp_version']} · "
            f"{report['system_info'][:160]}"
        )
        # llama.cpp's own report of the build, as it is
        self.gpu_label.setToolTip(
            f"llama-cpp-python {report['llama_cpp_version']} · {report['system_info']}"
        )
        self._plan_for_current()

    def _gpu_failed(self, exc: BaseException) -> None:
        self.gpu_label.setText(
            _(
                "Could not load llama.cpp ({error}); local GGUF models will "
                "not run. Endpoints still work."
            ).format(error=describe_error(exc, one_line=True))
        )

    def _current_row(self) -> dict | None:
        index = self.view.selectionModel().currentIndex()
        return self.model.rows[index.row()] if index.isValid() else None

    def _plan_for_current(self) -> None:
        """Propose n_gpu_layers and a context for the selected GGUF model (header read in the
        pool; the GPU facts come from the first check)."""
        self.plan = None
        self.apply_plan_button.setEnabled(False)
        row = self._current_row()
        if row is None or row["kind"] != "gguf" or not row.get("path"):
            self.plan_label.setText(_("Select a local GGUF model for a GPU offload proposal."))
            return
        if self.gpu_report is None:
            self.plan_label.setText(_("Checking the GPU…"))
            return
        model_id = row["id"]
        self.bridge.run(
            model_tasks.offload_plan,
            args=(row["path"], self.gpu_report),
            label=_("Planning GPU offload"),
            replace="gpu-plan",
            quiet=True,
            on_done=lambda plan: self._show_plan(model_id, plan),
            on_error=lambda exc: self.plan_label.setText(
                _("No offload proposal: {error}").format(error=describe_error(exc, one_line=True))
            ),
        )

    def _show_plan(self, model_id: int, plan: dict) -> None:
        row = self._current_row()
        if row is None or row["id"] != model_id:
            return  # the selection moved on meanwhile
        saved = json.loads(row.get("load_params") or "{}").get("n_gpu_layers", 0)
        self.plan = plan | {"model_id": model_id}
        self.plan_label.setText(
            plan["message"]
            + "\n"
            + _(
                "Proposed: n_gpu_layers {n} (-1 = all), context {ctx} tokens; saved now: {saved}."
            ).format(n=plan["n_gpu_layers"], ctx=plan["n_ctx"], saved=saved)
        )
        self.apply_plan_button.setEnabled(plan["n_gpu_layers"] != saved)

    def apply_plan(self) -> None:
        """Store the proposal's n_gpu_layers in the model's load_params (writer lane)."""
        if self.plan is None:
            return
        model_id, layers = self.plan["model_id"], self.plan["n_gpu_layers"]
        self.apply_plan_button.setEnabled(False)
        self.bridge.run(
            model_tasks.save_gpu_layers_at,
            args=(str(self.ws.path), model_id, layers),
            lane=WRITER,
            label=_("Saving n_gpu_layers"),
            on_done=lambda _params: self._plan_applied(model_id, layers),
        )

    def _plan_applied(self, model_id: int, layers: int) -> None:
        current = self.view.selectionModel().currentIndex()
        self.model.reload()
        if current.isValid():
            self.view.selectionModel().setCurrentIndex(
                self.model.index(current.row(), 0),
                self.view.selectionModel().SelectionFlag.ClearAndSelect
                | self.view.selectionModel().SelectionFlag.Rows,
            )
        self.sig_status_message.emit(_("n_gpu_layers = {n} saved for the model").format(n=layers))
        self.sig_changed.emit()

    # -- adding models ---------------------------------------------------------------------
    def add_gguf_dialog(self) -> None:
        paths = file_dialogs.open_files(
            self, MODELS, _("Add GGUF model files"), _("GGUF models (*.gguf);;All files (*)")
        )
        for path in paths:
            self.add_gguf(path)

    def find_models_dialog(self) -> ModelFinderDialog:
        """List the GGUF models other tools keep here; the checked ones are added in place."""
        if self.finder is None:
            self.finder = ModelFinderDialog(str(self.ws.path), self.bridge, self)
            self.finder.folders = list(self.model_folders)
            self.finder.sig_add.connect(self.add_found)
            self.finder.sig_folders_changed.connect(self._remember_folders)
        self.finder.open()
        self.finder.search()
        return self.finder

    def _remember_folders(self, folders: list[str]) -> None:
        self.model_folders = folders
        self.sig_model_folders_changed.emit(folders)

    def add_found(self, models: list[dict]) -> None:
        for model in models:
            self.add_gguf(model["path"], name=model["name"], sha256=model["sha256"])

    def add_gguf(
        self, path: str | Path, *, name: str | None = None, sha256: str | None = None
    ) -> None:
        """Validate and hash in the pool, then register on the writer lane (the file stays
        where it is). ``name``: as the workspace calls it (default: the file name);
        ``sha256``: known already (an Ollama blob's digest), not computed again."""
        path = str(Path(path).expanduser().absolute())  # keep the name the user chose
        self.sig_status_message.emit(_("Inspecting {name}…").format(name=Path(path).name))
        self.bridge.run(
            model_tasks.inspect_gguf_file,
            args=(path,),
            kwargs={"known_sha256": sha256},
            dialog=True,
            label=_("Hashing {name}").format(name=name or Path(path).name),
            on_done=lambda info: self._register_gguf(info, name),
        )

    def _register_gguf(self, info: dict, name: str | None = None) -> None:
        name = name or Path(info["path"]).stem  # as `upabhasha models add FILE` names it
        self.bridge.run(
            model_tasks.add_gguf_model_at,
            args=(str(self.ws.path), info, name),
            lane=WRITER,
            label=_("Registering {name}").format(name=name),
            on_done=lambda _id: self._added(name),
        )

    def add_embedded(self) -> None:
        self.bridge.run(
            model_tasks.add_embedded_model_at,
            args=(str(self.ws.path),),
            lane=WRITER,
            dialog=True,
            label=_("Adding the embedded model"),
            on_done=lambda _id: self._added("Gemma 3 270M"),
        )

    def add_endpoint_dialog(self) -> EndpointDialog:
        return self._endpoint_dialog(None)

    def edit_endpoint_dialog(self) -> EndpointDialog | None:
        """The selected endpoint in the same dialog, filled in; OK saves it again under its
        name (the registry's upsert), keeping its key unless a new one is typed."""
        row = self._current_row()
        if row is None or row["kind"] != "endpoint":
            return None
        return self._endpoint_dialog(row)

    def _endpoint_dialog(self, existing: dict | None) -> EndpointDialog:
        problem = model_tasks.keyring_problem()
        dialog = EndpointDialog(problem, self, existing)
        kept_key = (existing or {}).get("keyring_service")
        dialog.accepted.connect(
            lambda: self.add_endpoint(**dialog.values(), keyring_service=kept_key)
        )
        dialog.open()
        return dialog

    def add_endpoint(
        self,
        name: str,
        base_urls: list[str],
        api_model: str,
        api_key: str = "",
        concurrency: int = 0,
        is_default: bool = False,
        limits: dict | None = None,
        keyring_service: str | None = None,
    ) -> None:
        """Register through the same registry call as ``upabhasha models add URL``:
        ``concurrency`` (0: the backend's default) and ``limits`` (timeouts and retries,
        ``load_params`` keys) go to load_params, like ``--concurrency``, ``--connect-timeout``,
        ``--read-timeout`` and ``--max-retries``; ``is_default`` like ``--default``.
        ``keyring_service``: the key an edited endpoint keeps when no new one is given."""
        if not name or not base_urls or not api_model:
            self.sig_status_message.emit(
                _("An endpoint needs a name, a base URL and the model name on the server.")
            )
            return
        service = keyring_service
        if api_key:
            problem = model_tasks.keyring_problem()
            if problem:
                self.sig_status_message.emit(problem)
                return
            service = model_tasks.keyring_service_for(name)
            model_tasks.store_api_key(service, api_key)
        self.bridge.run(
            model_tasks.add_endpoint_model_at,
            args=(str(self.ws.path), name, base_urls, api_model, service),
            kwargs={
                "load_params": ({"concurrency": concurrency} if concurrency else {})
                | (limits or {}),
                "is_default": is_default,
            },
            lane=WRITER,
            label=_("Registering {name}").format(name=name),
            on_done=lambda _id: self._added(name),
        )

    def _added(self, name: str) -> None:
        self.model.reload()
        self.sig_status_message.emit(_("Model added: {name}").format(name=name))
        self.sig_changed.emit()

    def _show_details(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._plan_for_current()
        row = self.model.rows[current.row()] if current.isValid() else None
        self.edit_endpoint_button.setEnabled(row is not None and row["kind"] == "endpoint")
        self.probe_button.set_model(row)
        if not current.isValid():
            self.details.clear()
            self.try_box.set_model(None)
            return
        row = self.model.rows[current.row()]
        self.try_box.set_model(row)
        keys = (
            "name",
            "kind",
            "path",
            "base_urls",
            "api_model",
            "sha256",
            "architecture",
            "quantization",
            "parameters",
            "context_length",
            "has_chat_template",
            "keyring_service",
            "load_params",
            "added_at",
        )
        self.details.setPlainText(
            "\n".join(f"{k}: {row[k]}" for k in keys if row.get(k) not in (None, "", "[]", "{}"))
        )

    # -- drag and drop ---------------------------------------------------------------------
    @staticmethod
    def _gguf_paths(event) -> list[str]:
        mime = event.mimeData()
        if not mime.hasUrls():
            return []
        return [
            u.toLocalFile()
            for u in mime.urls()
            if u.isLocalFile() and u.toLocalFile().lower().endswith(".gguf")
        ]

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if self._gguf_paths(event):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = self._gguf_paths(event)
        for path in paths:
            self.add_gguf(path)
        if paths:
            event.acceptProposedAction()


def main(argv: list[str] | None = None) -> int:
    return run_panel(
        "python -m widgets.llm.models_panel",
        _("Models"),
        lambda workspace, bridge, args: ModelsPanel(workspace, bridge),
        size=(1100, 600),
        argv=argv,
    )


if __name__ == "__main__":
    sys.exit(main())
