"""RubricEditor: edit a judging rubric (criteria, weights, statements, Likert and confidence
anchors, thresholds) with validation by :func:`engine.judging.rubric.rubric_from_dict` on
every change. A valid rubric is identified by its content hash (``name@hash``); criterion
keys are fixed, since they are the judgments table's score columns.
"""

from __future__ import annotations

import copy

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.i18n import _, digits
from engine.judging.api import Rubric, rubric_from_dict
from widgets.common.hints import for_gui
from widgets.judging.rubric_display import judge_language_note, rubric_texts, shown, weight_text

CRITERION_COLUMNS = ("key", "name", "weight", "statement")


JUDGED = Qt.ItemDataRole.UserRole  # a translated cell keeps the text the judge reads


def _text(item: QTableWidgetItem | None) -> str:
    """What the judge reads of a cell: its text, or, while a translated cell is as shown, the
    rubric's own text; '' for a cell that has no item."""
    if item is None:
        return ""
    judged, translation = item.data(JUDGED), item.data(JUDGED + 1)
    return judged if judged is not None and item.text() == translation else item.text()


def _cell(text: str, shown_text: str) -> QTableWidgetItem:
    item = QTableWidgetItem(shown_text)
    if shown_text != text:
        item.setData(JUDGED, text)
        item.setData(JUDGED + 1, shown_text)
    return item


def _ascii_number(text: str) -> str:
    """ "২.৫" as "2.5": the rubric file keeps ASCII digits whatever the screen shows."""
    return "".join(str(int(ch)) if ch.isdecimal() else ch for ch in text)


class RubricEditor(QWidget):
    sig_changed = Signal(object, str)  # Rubric or None, error message ('' when valid)

    def __init__(self, data: dict, parent: QWidget | None = None):
        super().__init__(parent)
        self._loading = False
        self.rubric: Rubric | None = None
        self.error = ""
        self.name = QLineEdit()
        self.description = QLineEdit()
        self.criteria = QTableWidget(0, len(CRITERION_COLUMNS))
        self.criteria.setHorizontalHeaderLabels([_("Key"), _("Name"), _("Weight"), _("Statement")])
        self.criteria.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.criteria.verticalHeader().setVisible(False)
        self.likert = self._anchor_table()
        self.confidence = self._anchor_table()
        self.danger = QDoubleSpinBox()
        self.danger.setDecimals(1)
        self.danger.setSingleStep(0.5)
        self.danger.setRange(0.0, 100.0)
        self.review = QSpinBox()
        self.review.setRange(0, 5)
        self.max_chars = QSpinBox()
        self.max_chars.setRange(1, 10000)
        self.judge_language = QLabel()
        self.judge_language.setWordWrap(True)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        form = QFormLayout()
        form.addRow(_("Name"), self.name)
        form.addRow(_("Description"), self.description)
        form.addRow(_("Danger threshold (CBS)"), self.danger)
        form.addRow(_("Human review at confidence ≤"), self.review)
        form.addRow(_("Reasoning, at most (characters)"), self.max_chars)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel(_("Criteria (final = Σ weight × Likert / 5)")))
        layout.addWidget(self.criteria, 2)
        layout.addWidget(QLabel(_("Likert anchors (0–5)")))
        layout.addWidget(self.likert, 1)
        layout.addWidget(QLabel(_("Confidence anchors (1–5)")))
        layout.addWidget(self.confidence, 1)
        layout.addWidget(self.judge_language)
        layout.addWidget(self.status)

        for edit in (self.name, self.description):
            edit.textChanged.connect(self._validate)
        for spin in (self.danger, self.review, self.max_chars):
            spin.valueChanged.connect(self._validate)
        for table in (self.criteria, self.likert, self.confidence):
            table.itemChanged.connect(self._validate)
        self.set_data(data)

    @staticmethod
    def _anchor_table() -> QTableWidget:
        table = QTableWidget(0, 1)
        table.setHorizontalHeaderLabels([_("Anchor")])
        table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        return table

    def set_data(self, data: dict) -> None:
        self._loading = True
        self._base = copy.deepcopy(data)
        self.name.setText(str(data.get("name", "")))

        self.danger.setValue(float(data.get("danger_threshold", 4.0)))
        self.review.setValue(int(data.get("review_confidence_threshold", 3)))
        self.max_chars.setValue(int(data.get("reasoning_max_chars", 800)))
        try:
            texts = rubric_texts(rubric_from_dict(data).content_hash)
        except ValueError:
            texts = {}
        description = str(data.get("description", ""))
        self._description = (description, shown(texts, description))  # judged, shown
        self.description.setText(self._description[1])
        self.description.setCursorPosition(0)
        self.judge_language.setText(judge_language_note(texts))
        self.judge_language.setVisible(bool(texts))
        criteria = data.get("criteria", [])
        self.criteria.setRowCount(len(criteria))
        for row, c in enumerate(criteria):
            for col, field in enumerate(CRITERION_COLUMNS):
                text = str(c.get(field, ""))
                if field == "weight" and isinstance(c.get(field), (int, float)):
                    item = _cell(text, weight_text(c[field]))
                else:
                    item = _cell(text, shown(texts, text))
                if field == "key":
                    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                    item.setToolTip(_("Keys are the judgments table's score columns"))
                self.criteria.setItem(row, col, item)
        for table, scale in (
            (self.likert, data.get("likert", {})),
            (self.confidence, data.get("confidence", {})),
        ):
            keys = sorted(scale, key=int)
            table.setRowCount(len(keys))
            table.setVerticalHeaderLabels([digits(key) for key in keys])
            for row, key in enumerate(keys):
                table.setItem(row, 0, _cell(str(scale[key]), shown(texts, str(scale[key]))))
        self.criteria.resizeColumnsToContents()
        self.criteria.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.criteria.setWordWrap(True)
        self.criteria.resizeRowsToContents()
        self._loading = False
        self._validate()

    def to_dict(self) -> dict:
        data = copy.deepcopy(self._base)
        data.update(
            name=self.name.text(),
            description=self._judged_description(),
            danger_threshold=self.danger.value(),
            review_confidence_threshold=self.review.value(),
            reasoning_max_chars=self.max_chars.value(),
        )
        criteria = []
        for row in range(self.criteria.rowCount()):
            cells: dict[str, str | float] = {
                f: _text(self.criteria.item(row, col)) for col, f in enumerate(CRITERION_COLUMNS)
            }
            try:
                cells["weight"] = float(_ascii_number(str(cells["weight"])))
            except ValueError:
                pass  # validation names it
            criteria.append(cells)
        data["criteria"] = criteria
        for field, table in (("likert", self.likert), ("confidence", self.confidence)):
            data[field] = {
                _ascii_number(_text(table.verticalHeaderItem(row))): _text(table.item(row, 0))
                for row in range(table.rowCount())
            }
        return data

    def _judged_description(self) -> str:
        """The description the judge reads: the rubric's own while the shown translation
        stands, else what was typed."""
        judged, translation = self._description
        text = self.description.text()
        return judged if text == translation else text

    def set_weight(self, key: str, weight: str) -> None:
        for row in range(self.criteria.rowCount()):
            cell = self.criteria.item(row, 2)
            if _text(self.criteria.item(row, 0)) == key and cell is not None:
                cell.setText(digits(weight))

    def _validate(self, *_args) -> None:
        if self._loading:
            return
        try:
            self.rubric, self.error = rubric_from_dict(self.to_dict()), ""
        except ValueError as exc:
            self.rubric, self.error = None, for_gui(str(exc))
        if self.rubric is not None:
            self.status.setStyleSheet("color: #1b5e20")
            self.status.setText(
                _("Valid · version {v} · final score 0–{m:g}").format(
                    v=self.rubric.version, m=self.rubric.max_score
                )
            )
        else:
            self.status.setStyleSheet("color: #b71c1c")
            self.status.setText(_("Invalid: {error}").format(error=self.error))
        self.sig_changed.emit(self.rubric, self.error)
