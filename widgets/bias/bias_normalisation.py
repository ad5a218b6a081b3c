"""The answer-normalisation table editor of the Social bias panel, and the small read-only
table model the panel's lists share.

Left: the unparseable replies waiting to be mapped (most frequent first); right: the
effective table (bundled phrases plus this workspace's edits). Choosing a row fills the
phrase; "Map" writes one entry through the bridge's writer lane (a new table version; an
empty label removes the phrase) and ``sig_mapped`` tells the panel to recompute.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from engine.bias import tasks as bias_tasks
from engine.i18n import _, digits
from engine.text.text_rules import visible
from widgets.common.fonts import bengali_font
from widgets.common.labels import label
from widgets.common.task_bridge import WRITER, TaskBridge

LABELS = ("first", "second", "both_neither", "refusal", "filler", "")


class RowsModel(QAbstractTableModel):
    """A read-only table over a list of dicts (the rows of one group or one list)."""

    def __init__(self, columns: list[tuple[str, str]], parent=None):
        super().__init__(parent)
        self.columns = columns
        self.rows: list[dict] = []

    def set_rows(self, rows: list[dict]) -> None:
        self.beginResetModel()
        self.rows = rows
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return len(self.columns)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            value = self.rows[index.row()].get(self.columns[index.column()][0])
            if value is None:
                return ""
            if isinstance(value, int | float) or str(value).isdigit():
                return digits(value)
            return visible(label("order", label("reply", str(value))))  # hidden characters shown
        return None

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.columns[section][1]
        return None


def table_view(model: QAbstractTableModel) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QTableView.SelectionMode.SingleSelection)
    view.verticalHeader().setVisible(False)
    view.horizontalHeader().setStretchLastSection(True)
    view.setWordWrap(False)
    view.setFont(bengali_font())
    return view


class NormalisationEditor(QWidget):
    sig_mapped = Signal(dict)  # {topic, phrase, label, version}
    sig_status_message = Signal(str)

    def __init__(self, workspace_path: str, bridge: TaskBridge, parent: QWidget | None = None):
        super().__init__(parent)
        self.path, self.bridge = workspace_path, bridge
        self.groups: dict[str, list[str]] = {}
        self.unmapped_model = RowsModel(
            [
                ("count", _("Replies")),
                ("topic", _("Topic")),
                ("phrase", _("Reply (normalised)")),
                ("example", _("Example")),
            ]
        )
        self.unmapped_view = table_view(self.unmapped_model)
        self.unmapped_view.selectionModel().currentRowChanged.connect(self._pick_unmapped)
        self.table_model = RowsModel(
            [("topic", _("Topic")), ("label", _("Label")), ("phrase", _("Phrase"))]
        )
        self.table_view = table_view(self.table_model)
        self.table_view.selectionModel().currentRowChanged.connect(self._pick_entry)
        self.phrase = QLineEdit()
        self.phrase.setFont(bengali_font())
        self.phrase.setPlaceholderText(_("phrase to map"))
        self.topic = QComboBox()
        self.label = QComboBox()
        self.label.setEditable(True)
        self.topic.currentIndexChanged.connect(self._fill_labels)
        map_button = QPushButton(_("Map"))
        map_button.clicked.connect(self.map_current)
        self.version = QLabel()

        split = QSplitter(Qt.Orientation.Horizontal)
        for title, view in (
            (_("Unparseable replies waiting to be mapped"), self.unmapped_view),
            (_("Normalisation table"), self.table_view),
        ):
            box = QWidget()
            bl = QVBoxLayout(box)
            bl.setContentsMargins(0, 0, 0, 0)
            bl.addWidget(QLabel(title))
            bl.addWidget(view)
            split.addWidget(box)
        edit_row = QHBoxLayout()
        for w in (self.phrase, self.topic, self.label, map_button):
            edit_row.addWidget(w)
        layout = QVBoxLayout(self)
        layout.addWidget(self.version)
        layout.addWidget(split)
        layout.addLayout(edit_row)

    def set_view(self, view: dict) -> None:
        """The panel's view data: unmapped replies, table rows, version, topics and groups."""
        self.groups = {}
        for s in view["sets"]:
            self.groups.setdefault(s["topic"], [])
            for g in (s["group_x"], s["group_y"]):
                if g not in self.groups[s["topic"]]:
                    self.groups[s["topic"]].append(g)
        current = self.topic.currentData()
        self.topic.blockSignals(True)
        self.topic.clear()
        for t in [*sorted(self.groups), "*"]:
            self.topic.addItem(t, t)
        self.topic.setCurrentIndex(max(self.topic.findData(current), 0))
        self.topic.blockSignals(False)
        self._fill_labels()
        self.unmapped_model.set_rows(view["unmapped"])
        self.table_model.set_rows(view["table"])
        self.version.setText(
            _("Table version {version}: {n} phrases; {u} distinct unmapped replies").format(
                version=view["version"], n=len(view["table"]), u=len(view["unmapped"])
            )
        )

    def _pick_unmapped(self, current: QModelIndex, _previous=None) -> None:
        if current.isValid():
            row = self.unmapped_model.rows[current.row()]
            self.phrase.setText(row["phrase"])
            self.topic.setCurrentIndex(max(self.topic.findData(row["topic"]), 0))

    def _pick_entry(self, current: QModelIndex, _previous=None) -> None:
        if current.isValid():
            row = self.table_model.rows[current.row()]
            self.phrase.setText(row["phrase"])
            self.topic.setCurrentIndex(max(self.topic.findData(row["topic"]), 0))
            self.label.setCurrentText(row["label"])

    def _fill_labels(self) -> None:
        text = self.label.currentText()
        self.label.clear()
        self.label.addItems([*self.groups.get(self.topic.currentData(), []), *LABELS])
        if text:
            self.label.setCurrentText(text)

    def map_current(self) -> None:
        phrase, topic, label = (
            self.phrase.text(),
            self.topic.currentData(),
            self.label.currentText(),
        )
        if not phrase.strip() or topic is None:
            self.sig_status_message.emit(_("Choose a reply and a topic to map."))
            return
        self.bridge.run(
            bias_tasks.map_phrase_at,
            args=(self.path, topic, phrase, label),
            label=_("Map a reply"),
            lane=WRITER,
            on_done=self._on_mapped,
        )

    def _on_mapped(self, result: dict) -> None:
        self.sig_status_message.emit(
            _("'{phrase}' → {label}; table version {version}").format(
                phrase=result["phrase"],
                label=result["label"] or _("removed"),
                version=result["version"],
            )
        )
        self.sig_mapped.emit(result)
