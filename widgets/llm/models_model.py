"""ModelsTableModel: the workspace's models as the Models panel's table (name, kind, size, …)."""

from __future__ import annotations

import json

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from engine.i18n import _, digits
from engine.llm.api import DEFAULT_STRUCTURED_OUTPUT, models_default_first
from engine.workspace.api import Workspace
from widgets.common.labels import label
from widgets.llm.model_finder import human_size

COLUMNS = [
    ("name", "Name"),
    ("kind", "Kind"),
    ("architecture", "Architecture"),
    ("quantization", "Quantization"),
    ("size_bytes", "Size"),
    ("context_length", "Context"),
    ("has_chat_template", "Chat template"),
    ("sha256", "sha256"),
    ("is_default", "Default"),
    ("structured_output", "JSON output"),
]


def structured_output(row: dict) -> tuple[str, str]:
    """How the model takes a JSON schema, and the endpoint probe's tries (a tooltip)."""
    if row["kind"] != "endpoint":
        return "grammar", _("A local model constrains its reply with a grammar")
    try:
        saved = json.loads(row.get("load_params") or "{}")
    except ValueError:
        saved = {}
    mode = saved.get("structured_output")
    probe = saved.get("structured_output_probe") or {}
    tried = ", ".join(f"{m}: {how}" for m, how in probe.get("tried", []))
    if not mode:
        return _("not probed yet"), _(
            "Found by the first step that asks it for JSON; {mode} is sent until then"
        ).format(mode=DEFAULT_STRUCTURED_OUTPUT)
    return mode, tried


class ModelsTableModel(QAbstractTableModel):
    """A workspace has a handful of models: all rows are read at once."""

    def __init__(self, workspace: Workspace, parent=None):
        super().__init__(parent)
        self.ws = workspace
        self.rows: list[dict] = []  # ModelRow, read by column name
        self.reload()

    def reload(self) -> None:
        self.beginResetModel()
        self.rows = [dict(m) for m in models_default_first(self.ws)]
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return _(COLUMNS[section][1])
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row, key = self.rows[index.row()], COLUMNS[index.column()][0]
        value = row.get(key)
        if role == Qt.ItemDataRole.DisplayRole:
            if key == "size_bytes":
                return digits(human_size(value))
            if key == "kind":
                return label("model_kind", value)
            if key in ("has_chat_template", "is_default"):
                return _("yes") if value else ("" if key == "is_default" else _("no"))
            if key == "sha256":
                return (value or "")[:12]
            if key == "structured_output":
                return structured_output(row)[0]
            if key == "architecture" and row["kind"] == "endpoint":
                return row.get("api_model") or ""
            return "" if value is None else str(value)
        if role == Qt.ItemDataRole.ToolTipRole:
            if key == "structured_output":
                return structured_output(row)[1] or None
            return row.get("path") or row.get("base_urls") or None
        return None
