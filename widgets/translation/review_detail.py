"""The review detail pane: what the reviewer needs to judge one variant, and the gold editor."""

from __future__ import annotations

import html
import logging

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QTextCursor
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from engine.i18n import _, current_language, digits
from engine.text.text_rules import visible
from widgets.common import labels
from widgets.common.avro_typing import AvroTyping, avro_parse
from widgets.common.fonts import bengali_font
from widgets.common.labels import dialect_of
from widgets.translation.review_model import status_icon, status_label

log = logging.getLogger(__name__)

QUESTION_TYPES = {1: "definitional", 2: "contrasting", 3: "factual", 4: "functional"}
EXEMPLAR_COLUMNS = ("rank", "standard_text", "dialect_text", "dense_score", "sparse_score", "final")


def avro_to_bengali(latin: str) -> str:
    """Avro phonetic: Latin keystrokes to Bengali (``ami`` → ``আমি``)."""
    return avro_parse(latin)


def history_word(word: str | None) -> str:
    """A status or a review action of a variant's history, in the interface language."""
    if not word:
        return ""
    actions = {"accept": _("accept"), "edit": _("edit"), "flag": _("flag"), "reject": _("reject")}
    return actions.get(word, status_label(word))


def _number(value) -> str:
    return f"{value:.3f}" if isinstance(value, float) else ("" if value is None else str(value))


def exemplar_tooltip(exemplar: dict) -> str:
    """Every score the retriever recorded for one exemplar, one per line."""
    keys = (
        "via",
        "dense_score",
        "dense_norm",
        "sparse_score",
        "sparse_norm",
        "hybrid",
        "char_similarity",
        "char_component",
        "dialect_bonus",
        "region_bonus",
        "district_bonus",
        "final",
        "supported",
        "district",
        "pair_id",
    )
    lines = []
    for key in keys:
        if key in exemplar:
            value = exemplar[key]
            value = ", ".join(value) if isinstance(value, list) else _number(value)
            lines.append(f"{key}: {value}")
    return "\n".join(lines)


def retrieval_summary(retrieval: dict) -> str:
    """One paragraph: weights, query shape, pool, and whether the deep fallback fired."""
    if not retrieval:
        return _("No retrieval record (imported or typed variant).")
    parts = []
    weights = retrieval.get("weights") or {}
    if weights:
        parts.append(
            _("weights dense {dense} / sparse {sparse}").format(
                dense=_number(weights.get("dense")), sparse=_number(weights.get("sparse"))
            )
        )
    if retrieval.get("short"):
        parts.append(_("short query"))
    if "pool_size" in retrieval:
        parts.append(_("pool {n}").format(n=retrieval["pool_size"]))
    if retrieval.get("fallback_fired"):
        tokens = retrieval.get("fallback_tokens") or {}
        used = "; ".join(
            f"{k} → {', '.join(v) if isinstance(v, list) else v}" for k, v in tokens.items()
        )
        parts.append(_("deep-search fallback fired") + (f" ({used})" if used else ""))
    else:
        parts.append(_("no fallback"))
    if retrieval.get("no_dialect_pairs"):  # marked by the translation (engine.translation)
        parts.insert(
            0,
            _(
                "Warning: no {dialect} pairs in the corpus, so the exemplars are other dialects'"
            ).format(dialect=retrieval.get("target_dialect", "")),
        )
    return " · ".join(parts)


class ReviewDetail(QWidget):
    """Shows one variant; the panel's actions (accept, save, flag, reject) act on it.

    :meth:`show_variant` shows a variant afresh (another cell, or after the panel's own save);
    :meth:`refresh_variant` re-reads the one shown and keeps what the reviewer typed and has
    not saved: the gold text with its cursor and undo steps, and the comment."""

    sig_avro_mode_changed = Signal(bool)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        big = bengali_font()
        big.setPointSizeF(big.pointSizeF() * 1.35)
        self.header = QLabel()
        self.header.setTextFormat(Qt.TextFormat.RichText)
        self.question = QLabel()
        self.question.setFont(big)
        self.question.setWordWrap(True)
        self.question.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.gloss = QLabel()
        self.gloss.setWordWrap(True)
        self.gloss.setStyleSheet("color: #555; font-style: italic;")
        self.machine = QLabel()
        self.machine.setFont(big)
        self.machine.setWordWrap(True)
        self.machine.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.retrieval = QLabel()
        self.retrieval.setWordWrap(True)
        self.exemplars = QTableWidget(0, len(EXEMPLAR_COLUMNS))
        self.exemplars.setHorizontalHeaderLabels(
            [_("#"), _("Standard"), _("Dialect"), _("Dense"), _("Sparse"), _("Final")]
        )
        self.exemplars.verticalHeader().hide()
        self.exemplars.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.exemplars.setFont(bengali_font())
        header = self.exemplars.horizontalHeader()
        for column in range(len(EXEMPLAR_COLUMNS)):
            mode = (
                QHeaderView.ResizeMode.Stretch
                if column in (1, 2)
                else QHeaderView.ResizeMode.ResizeToContents
            )
            header.setSectionResizeMode(column, mode)
        self.exemplars.setMinimumHeight(120)

        self.editor = QPlainTextEdit()
        self.editor.setFont(big)
        self.editor.setPlaceholderText(_("The gold dialect translation"))
        self.editor.setTabChangesFocus(True)
        self.editor.setFixedHeight(90)
        # says that the stored text moved under an unsaved edit (which is kept)
        self.stored_note = QLabel()
        self.stored_note.setWordWrap(True)
        self.stored_note.setStyleSheet("color: #b35900")
        self.avro_toggle = QCheckBox(_("Avro phonetic typing (F12)"))
        self.avro_toggle.setToolTip(
            _(
                "Type Latin letters in the gold field and each word turns into Bengali as you "
                "type (ami bangla → আমি বাংলা); Ctrl+Z undoes a word. F12 or Ctrl+Alt+B in the "
                "field switches it. The side field inserts a whole phrase at the cursor."
            )
        )
        # in place, as the Avro keyboard does; the side field stays for whole phrases
        self.avro_typing = AvroTyping(self.editor)
        self.avro_toggle.toggled.connect(self.avro_typing.set_enabled)
        self.avro_typing.sig_enabled_changed.connect(self.avro_toggle.setChecked)
        self.phonetic = QLineEdit()
        self.phonetic.setPlaceholderText(_("Latin keystrokes, Enter inserts: ami bhalo achi"))
        self.phonetic_preview = QLabel()
        self.phonetic_preview.setFont(bengali_font())
        self.phonetic.textChanged.connect(self._update_preview)
        self.phonetic.returnPressed.connect(self.insert_phonetic)
        self.avro_toggle.toggled.connect(self._set_avro_visible)
        self.avro_toggle.toggled.connect(self.sig_avro_mode_changed)
        self.comment = QLineEdit()
        self.comment.setPlaceholderText(_("Comment (required to flag: what is wrong?)"))
        self.history = QPlainTextEdit()
        self.history.setReadOnly(True)
        self.history.setFont(bengali_font())
        self.history.setMaximumHeight(110)
        self.buttons = QGridLayout()

        source = QFormLayout()
        source.addRow(_("Standard question"), self.question)
        source.addRow(_("English gloss"), self.gloss)
        source.addRow(_("Machine translation"), self.machine)
        retrieved = QGroupBox(_("Retrieved exemplars"))
        retrieved_layout = QVBoxLayout(retrieved)
        retrieved_layout.addWidget(self.retrieval)
        retrieved_layout.addWidget(self.exemplars)
        gold = QGroupBox(_("Gold translation"))
        gold_layout = QVBoxLayout(gold)
        gold_layout.addWidget(self.editor)
        gold_layout.addWidget(self.stored_note)
        avro_row = QHBoxLayout()
        avro_row.addWidget(self.avro_toggle)
        avro_row.addWidget(self.phonetic, 1)
        avro_row.addWidget(self.phonetic_preview, 1)
        gold_layout.addLayout(avro_row)
        gold_layout.addWidget(self.comment)

        body = QWidget()
        layout = QVBoxLayout(body)
        layout.addWidget(self.header)
        layout.addLayout(source)
        layout.addWidget(retrieved)
        layout.addWidget(gold)
        layout.addWidget(QLabel(_("History")))
        layout.addWidget(self.history)
        layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        # the body fits the pane's width (wrapped labels, buttons two a row): never sideways
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll, 1)
        # the actions stay below the scrolled part: on a 1366×768 laptop they sat under it
        outer.addLayout(self.buttons)
        self._set_avro_visible(False)
        self.variant_id: int | None = None
        self.shown_text = self.shown_comment = ""
        self.show_variant(None)

    def add_action_buttons(self, actions: list[QAction]) -> None:
        # two a row: four in one row made the pane scroll sideways at 1366 px in Bengali
        for index, action in enumerate(actions):
            button = QToolButton()
            button.setDefaultAction(action)
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            self.buttons.addWidget(button, index // 2, index % 2)

    def set_avro_mode(self, enabled: bool) -> None:
        self.avro_toggle.setChecked(enabled)

    def _set_avro_visible(self, enabled: bool) -> None:
        self.phonetic.setVisible(enabled)
        self.phonetic_preview.setVisible(enabled)
        if enabled:
            self.editor.setFocus()

    def _update_preview(self, text: str) -> None:
        self.phonetic_preview.setText(avro_to_bengali(text) if text.strip() else "")

    def insert_phonetic(self) -> None:
        text = self.phonetic.text()
        if not text.strip():
            return
        cursor = self.editor.textCursor()
        cursor.insertText(avro_to_bengali(text))
        self.editor.setTextCursor(cursor)
        self.phonetic.clear()

    def edited_text(self) -> str:
        return self.editor.toPlainText()

    def unsaved(self) -> bool:
        """The reviewer typed in the gold text or the comment and has not saved it."""
        return self.variant_id is not None and (
            self.editor.toPlainText() != self.shown_text
            or self.comment.text() != self.shown_comment
        )

    def refresh_variant(self, detail: dict) -> None:
        """Show the shown variant's stored state again (written elsewhere), keeping an unsaved
        gold text and comment as typed; a stored text that moved under the typed one is noted."""
        if detail["id"] != self.variant_id:
            self.show_variant(detail)
            return
        typed = self.editor.toPlainText() != self.shown_text
        commented = self.comment.text() != self.shown_comment
        moved = typed and detail["text"] != self.shown_text
        self._show_stored(detail, text=not typed, comment=not commented)
        if moved:
            self.stored_note.setText(
                _(
                    "The stored text changed while you were editing (see History); your text "
                    "is kept, and saving replaces it."
                )
            )
            self.stored_note.show()
        elif not typed:
            self.stored_note.hide()

    def show_variant(self, detail: dict | None) -> None:
        self.stored_note.hide()
        self._show_stored(detail, text=True, comment=True)

    def _show_stored(self, detail: dict | None, *, text: bool, comment: bool) -> None:
        """Fill the pane from ``detail``; ``text``, ``comment``: the gold editor, the comment
        field too (else they keep what was typed)."""
        enabled = detail is not None
        for widget in (self.editor, self.comment, self.phonetic, self.avro_toggle):
            widget.setEnabled(enabled)
        self.variant_id = detail["id"] if detail is not None else None
        self.shown_text = self.shown_comment = ""
        if detail is None:
            self.header.setText(_("Select a cell to review its translation."))
            for label in (self.question, self.gloss, self.machine, self.retrieval):
                label.clear()
            self.editor.clear()
            self.comment.clear()
            self.history.clear()
            self.exemplars.setRowCount(0)
            return
        type_code = detail.get("question_type")
        qtype = QUESTION_TYPES.get(type_code, "") if type_code is not None else ""
        qtype = _(qtype) if qtype else ""  # the names are in the catalogue (answers panel)
        plain = [
            detail.get("ext_id") or f"#{digits(detail['question_id'])}",
            labels.label("domain", detail.get("domain")),
            qtype,
            dialect_of(
                {
                    "code": detail.get("dialect", ""),
                    "name_en": detail["dialect_name_en"],
                    "name_bn": detail["dialect_name_bn"],
                },
                code=False,
            )
            if current_language() == "bn"
            else f"{detail['dialect_name_en']} ({detail['dialect_name_bn']})",
        ]
        parts = [html.escape(p) for p in plain if p]
        parts += [
            f"<b>{html.escape(status_label(detail['status']))}</b>",
            html.escape(labels.label("provenance", detail["provenance"])),
        ]
        self.header.setText(" · ".join(parts))
        self.setWindowIcon(status_icon(detail["status"]))
        self.question.setText(detail["question_text"])
        self.gloss.setText(detail.get("gloss_en") or _("(no gloss)"))
        machine = detail.get("machine_text")
        self.machine.setText(
            visible(machine) if machine else _("(none: imported or typed by a person)")
        )
        self.retrieval.setText(retrieval_summary(detail.get("retrieval") or {}))
        self._fill_exemplars(detail.get("exemplars") or [])
        self.shown_text, self.shown_comment = detail["text"], detail.get("comment") or ""
        if text:
            self.editor.setPlainText(detail["text"])
            self.editor.moveCursor(QTextCursor.MoveOperation.End)
        if comment:
            self.comment.setText(self.shown_comment)
        self.history.setPlainText(
            "\n".join(
                f"{digits(h['at'])}  {h['actor']}  {history_word(h['action'])}: "
                f"{history_word(h['old_status']) or '—'} → {history_word(h['new_status'])}"
                + (f"  “{h['new_text']}”" if h["old_text"] != h["new_text"] else "")
                + (f"  — {h['comment']}" if h["comment"] else "")
                for h in detail.get("history") or []
            )
            or _("No edits yet.")
        )

    def _fill_exemplars(self, exemplars: list[dict]) -> None:
        self.exemplars.setVisible(bool(exemplars))
        self.exemplars.setRowCount(len(exemplars))
        for row, exemplar in enumerate(exemplars):
            tip = exemplar_tooltip(exemplar)
            for column, key in enumerate(EXEMPLAR_COLUMNS):
                item = QTableWidgetItem(_number(exemplar.get(key)))
                item.setToolTip(tip)
                if column not in (1, 2):
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.exemplars.setItem(row, column, item)
