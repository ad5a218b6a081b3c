"""One task run in detail, beside its items: the scores per dialect and, for a
classification task, the confusion matrix with the labels' names — the figures of
``upabhasha task-stats`` (the same ``task_stats`` report), and what its intervals mean."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from engine.i18n import N_, _, current_language, digits
from engine.understanding.api import TaskStatsSettings, macro_note
from widgets.common.dialect_names import dialect_name
from widgets.understanding.result_rows import number_text

# per-dialect figures, in this order, when the run has them (titles through _())
DIALECT_FIGURES = (
    ("n", N_("n")),
    ("accuracy", N_("accuracy")),
    ("macro_precision", N_("macro-P")),
    ("macro_recall", N_("macro-R")),
    ("macro_f1", "macro-F1"),
    ("chrf++", "chrF++"),
    ("bleu", "BLEU"),
)
# the row and column of answers that named no label (engine.understanding.metrics)
UNPARSEABLE_LABEL = "<unparseable>"


def result_table() -> QTableWidget:
    """A read-only table of results, selected by rows (the Tasks panel's tables)."""
    table = QTableWidget(0, 0)
    table.verticalHeader().setVisible(False)
    table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    table.horizontalHeader().setStretchLastSection(True)
    return table


# why a macro score has no value (engine.understanding.metrics), in the interface language
_UNDEFINED_WHY = {
    "macro_precision": N_("No item was predicted as any label: precision is 0 of 0."),
    "macro_recall": N_("No item has any of the labels as its gold label: recall is 0 of 0."),
    "macro_f1": N_("No item has any of the labels, gold or predicted."),
}


def _figure_item(entry: dict, key: str) -> QTableWidgetItem:
    """A cell of one figure: a score that has no value (a label never predicted or never
    gold) says "undefined" and, on hover, why; never a number."""
    if key == "n" and key in entry:
        return QTableWidgetItem(digits(str(entry[key])))
    if key in entry and entry[key] is None:
        item = QTableWidgetItem(_("undefined"))
        item.setToolTip(_(_UNDEFINED_WHY.get(key, _UNDEFINED_WHY["macro_f1"])))
        return item
    return QTableWidgetItem(digits(number_text(entry.get(key), 3)))


class RunBreakdown(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.note = QLabel(_("Select one run in the results to see it per dialect."))
        self.note.setWordWrap(True)
        self.dialect_names: dict[str, dict] = {}  # the workspace's (the panel sets them)
        self.per_dialect = result_table()
        self.confusion_title = QLabel(_("Confusion matrix (rows: gold label; columns: answer)"))
        self.confusion = result_table()
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.per_dialect, 1)
        layout.addWidget(self.confusion_title)
        layout.addWidget(self.confusion, 1)
        self.show_run(None)

    def show_run(self, run: dict | None, settings: dict | None = None) -> None:
        """``settings``: the report's, its intervals' (the note says them)."""
        per_dialect = (run or {}).get("per_dialect") or {}
        keys = [
            (k, title) for k, title in DIALECT_FIGURES if any(k in e for e in per_dialect.values())
        ]
        self.per_dialect.clear()
        self.per_dialect.setColumnCount(1 + len(keys))
        self.per_dialect.setHorizontalHeaderLabels([_("Dialect"), *(_(t) for _k, t in keys)])
        self.per_dialect.setRowCount(len(per_dialect))
        for row, (dialect, entry) in enumerate(per_dialect.items()):
            self.per_dialect.setItem(row, 0, QTableWidgetItem(self._dialect(dialect)))
            for col, (k, _t) in enumerate(keys, start=1):
                self.per_dialect.setItem(row, col, _figure_item(entry, k))
        self.per_dialect.resizeColumnsToContents()
        if run is not None:
            text = _("Run {run}: scores per dialect on the scale {scale}; {macro}.").format(
                run=run["run_id"],
                scale=digits(str(run["macro"]["scale"])),
                macro=macro_note(run["macro"]["macro_over"]),
            )
            if run.get("chrf_macro_ci") and settings is not None:
                text += " " + _("The results grid's interval: {ci}.").format(
                    ci=TaskStatsSettings(**settings).interval_note()
                )
            self.note.setText(text)
        confusion = ((run or {}).get("overall") or {}).get("confusion")
        self.confusion_title.setVisible(confusion is not None)
        self.confusion.setVisible(confusion is not None)
        if confusion is not None:
            self._show_confusion(confusion, run.get("label_names") or {})  # type: ignore[union-attr]

    def _dialect(self, code: str) -> str:
        """A dialect (or a label that is one): its code in English, as ``task-stats`` prints
        it; its name in another language."""
        if current_language() == "en":
            return code
        return dialect_name(self.dialect_names, code)

    def _show_confusion(self, confusion: dict, names: dict[str, str]) -> None:
        shown = {UNPARSEABLE_LABEL: _("(no label in the answer)"), **names}
        labels = [shown.get(label) or self._dialect(label) for label in confusion["labels"]]
        matrix = confusion["matrix"]
        self.confusion.clear()
        self.confusion.setColumnCount(1 + len(labels))
        self.confusion.setHorizontalHeaderLabels(["", *labels])
        self.confusion.setRowCount(len(matrix))
        for row, counts in enumerate(matrix):
            self.confusion.setItem(row, 0, QTableWidgetItem(labels[row]))
            for col, count in enumerate(counts):
                self.confusion.setItem(row, col + 1, QTableWidgetItem(digits(str(count))))
        self.confusion.resizeColumnsToContents()


def detail_tabs(items: QWidget, breakdown: RunBreakdown) -> QTabWidget:
    """The selected run's items and its breakdown, one tab each."""
    tabs = QTabWidget()
    tabs.setDocumentMode(True)  # no frame: the items' columns keep the width they had
    tabs.addTab(items, _("Items"))
    tabs.addTab(breakdown, _("Per dialect and confusion matrix"))
    return tabs
