"""AdjudicationPanel: items where annotators disagree or that were flagged, side by side.

The list holds the adjudication queue (:func:`engine.annotation.api.adjudication_queue`) with
its reasons; the detail shows every annotator's decision (superseded ones too, greyed) with a
diff of each edit against the current text by grapheme cluster (a conjunct is never split),
then the adjudicator's own decision: accept the current text, save an edited text, or reject, plus a score for judged
answers. The adjudicator's decision becomes gold; every annotator decision stays in history.

``python -m widgets.annotation.adjudication_panel [WORKSPACE]`` opens it alone.
"""

from __future__ import annotations

import html
import logging
import sys

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from engine.annotation import api as annotation
from engine.errors import UserError
from engine.i18n import _, digits
from engine.text.text_rules import visible
from engine.workspace.api import Workspace
from widgets.annotation.annotation_panel import decision_label
from widgets.annotation.setup import AnnotationSetup, SetupPrompt
from widgets.common.dialect_names import dialect_name
from widgets.common.fonts import bengali_font
from widgets.common.hints import for_gui
from widgets.common.standalone import run_panel

log = logging.getLogger(__name__)

_DIFF_STYLE = {
    "insert": "background:#c8f0c8;",
    "delete": "background:#f5c6c6;text-decoration:line-through;",
}


def reasons_label(reasons: list[str]) -> str:
    """The engine's reasons for adjudication, in the interface language."""
    names = {
        "flagged": _("flagged"),
        "item changed after the decision": _("item changed after the decision"),
        "decisions differ": _("decisions differ"),
        "edits differ": _("edits differ"),
        "scores differ": _("scores differ"),
    }
    return ", ".join(names.get(r, r) for r in reasons)


def diff_html(segments: list[tuple[str, str, str]]) -> str:
    """Grapheme-cluster diff segments as HTML: deletions struck red, insertions green."""
    out = []
    for op, old, new in segments:
        if op == "equal":
            out.append(html.escape(new))
            continue
        if old:
            out.append(f'<span style="{_DIFF_STYLE["delete"]}">{html.escape(old)}</span>')
        if new:
            out.append(f'<span style="{_DIFF_STYLE["insert"]}">{html.escape(new)}</span>')
    return "".join(out)


class AdjudicationPanel(QWidget):
    sig_changed = Signal()
    sig_status_message = Signal(str)

    def __init__(
        self,
        ws: Workspace,
        adjudicator: str = "",
        parent: QWidget | None = None,
        *,
        setup: AnnotationSetup | None = None,
    ):
        super().__init__(parent)
        self.ws = ws
        self.prompt = SetupPrompt(setup or AnnotationSetup(ws, self), "decided")
        self.entries: list[dict] = []
        self.detail: dict | None = None
        self._dirty = False
        # the item's gold text as stored and the inputs as shown: what was typed since is kept
        # by a re-read
        self._stored_text = ""
        self._shown_inputs: tuple[str, str, float] | None = None

        self.count = QLabel()
        self.adjudicator = QLineEdit(adjudicator)
        self.adjudicator.setPlaceholderText(_("Adjudicator's name"))
        self.agreed_button = QPushButton(_("Make all &unanimous items gold"))
        self.agreed_button.clicked.connect(self.accept_agreed)
        refresh = QPushButton(_("Re&fresh"))
        refresh.clicked.connect(lambda: self.reload())
        top = QHBoxLayout()
        top.addWidget(self.count, 1)
        top.addWidget(QLabel(_("Adjudicator:")))
        top.addWidget(self.adjudicator)
        top.addWidget(self.agreed_button)
        top.addWidget(refresh)

        self.list = QListWidget()
        self.list.currentRowChanged.connect(self._show_row)
        self.view = QTextBrowser()
        self.view.setFont(bengali_font(12))
        self.text = QPlainTextEdit()
        self.text.setFont(bengali_font(13))
        self.text.setMaximumHeight(90)
        self.score = QDoubleSpinBox()
        self.score.setDecimals(1)
        self.score.setSpecialValueText(_("no score"))
        self.comment = QLineEdit()
        self.comment.setPlaceholderText(_("Why (kept in the history)"))
        # says that the item moved under unsaved input (which is kept)
        self.stored_note = QLabel()
        self.stored_note.setWordWrap(True)
        self.stored_note.setStyleSheet("color: #b35900")
        self.stored_note.hide()
        self.buttons: dict[str, QPushButton] = {}
        row = QHBoxLayout()
        row.addWidget(QLabel(_("Score:")))
        row.addWidget(self.score)
        row.addWidget(self.comment, 1)
        for key, text in (
            ("accept", _("&Accept current text")),
            ("edit", _("Save text as &gold")),
            ("reject", _("&Reject")),
        ):
            button = QPushButton(text)
            button.clicked.connect(lambda _c=False, k=key: self.decide(k))
            row.addWidget(button)
            self.buttons[key] = button
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.addWidget(self.view, 1)
        rl.addWidget(QLabel(_("Gold text:")))
        rl.addWidget(self.text)
        rl.addWidget(self.stored_note)
        rl.addLayout(row)
        splitter = QSplitter()
        splitter.addWidget(self.list)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.prompt)
        layout.addWidget(splitter, 1)
        self.reload()

    def mark_dirty(self) -> None:
        """New decisions arrived: re-read now if shown, else when next shown (the queue
        is slow to compute on a large study)."""
        self._dirty = True
        if self.isVisible():
            self.reload()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if self._dirty:
            self.reload()
        super().showEvent(event)

    def unsaved(self) -> bool:
        """The adjudicator typed a gold text, a score or a comment for the item shown and has
        not decided it."""
        return self._shown_inputs is not None and self._inputs() != self._shown_inputs

    def _inputs(self) -> tuple[str, str, float]:
        return self.text.toPlainText(), self.comment.text(), self.score.value()

    def reload(self, keep: int | None = None) -> None:
        """Re-read the queue and show ``keep`` (by default the item shown). The item shown
        keeps the gold text, score and comment typed for it and not yet decided, even when it
        left the queue meanwhile (decided elsewhere) — until the adjudicator moves on."""
        self._dirty = False
        shown = self.detail["id"] if self.detail is not None else None
        if keep is None:
            keep = shown
        unsaved = shown is not None and keep == shown and self.unsaved()
        self.prompt.refresh()
        self.entries = annotation.adjudication_queue(self.ws)
        self.list.blockSignals(True)
        self.list.clear()
        dialects = self.ws.dialect_names()
        for e in self.entries:
            dialect = dialect_name(dialects, e["dialect"])
            entry = QListWidgetItem(
                f"#{digits(e['item_id'])}  {dialect} — {reasons_label(e['reasons'])}"
            )
            entry.setData(Qt.ItemDataRole.UserRole, e["item_id"])
            self.list.addItem(entry)
        self.list.blockSignals(False)
        self.count.setText(_("{n} item(s) to adjudicate").format(n=digits(len(self.entries))))
        ids = [e["item_id"] for e in self.entries]
        if unsaved and keep not in ids:
            self._note(
                _(
                    "This item was decided meanwhile; what you typed is kept, and deciding "
                    "replaces that decision."
                )
            )
        elif self.entries:
            row = ids.index(keep) if keep in ids else 0
            self.list.blockSignals(True)
            self.list.setCurrentRow(row)
            self.list.blockSignals(False)
            self._show_row(row, keep=unsaved and ids[row] == keep)
        else:
            self.detail, self._shown_inputs = None, None
            self.stored_note.hide()
            self.view.setHtml("<p>" + html.escape(_("Nothing to adjudicate.")) + "</p>")
            for b in self.buttons.values():
                b.setEnabled(False)

    def _note(self, text: str) -> None:
        self.stored_note.setText(text)
        self.stored_note.show()

    def _show_row(self, row: int, keep: bool = False) -> None:
        """Show the item at ``row``; ``keep``: it is shown already and what was typed for it
        stays (a re-read), with a note when its gold text as stored moved meanwhile."""
        if not 0 <= row < len(self.entries):
            return
        d = self.detail = annotation.item_detail(self.ws, self.entries[row]["item_id"])
        latest = {x["uid"] for x in self.entries[row]["decisions"]}
        content = d["content"]
        body = content.get("text") or content.get("answer") or ""
        parts = [
            f"<p><b>{html.escape(_('Question'))}:</b> {html.escape(content.get('question', ''))}</p>",
            f"<p><b>{html.escape(_('Current text'))}:</b> {html.escape(visible(body))}</p>",
            "<table border='1' cellspacing='0' cellpadding='4' width='100%'><tr>"
            + "".join(
                f"<th>{html.escape(h)}</th>"
                for h in (_("Annotator"), _("Decision"), _("Score"), _("Edit (diff)"), _("Comment"))
            )
            + "</tr>",
        ]
        for x in d["decisions"]:
            grey = "" if x["uid"] in latest else " style='color:#888'"
            stale = " ⚠" if x["stale"] else ""
            score = "" if x["score"] is None else digits(format(x["score"], "g"))
            parts.append(
                f"<tr{grey}><td>{html.escape(x['annotator'])}</td>"
                f"<td>{html.escape(decision_label(x['decision']))}{stale}</td>"
                f"<td>{score}</td>"
                f"<td>{diff_html(x['diff']) if x['diff'] else ''}</td>"
                f"<td>{html.escape(x['comment'])}</td></tr>"
            )
        parts.append("</table>")
        parts.append("<p>" + html.escape(reasons_label(self.entries[row]["reasons"])) + "</p>")
        self.view.setHtml("".join(parts))
        edits = [x["text"] for x in d["decisions"] if x["text"] and x["uid"] in latest]
        stored = edits[0] if edits else body
        moved, self._stored_text = stored != self._stored_text, stored
        for b in self.buttons.values():
            b.setEnabled(True)
        if keep:
            if moved:
                self._note(
                    _(
                        "The item's text changed meanwhile; what you typed is kept, and "
                        "deciding replaces it."
                    )
                )
            return
        self.stored_note.hide()
        self.text.setPlainText(stored)
        low, high = annotation.parse_scale(d["score_scale"])
        self.score.setRange(low - 1, high)
        self.score.setValue(low - 1)
        self._shown_inputs = self._inputs()

    def decide(self, decision: str) -> bool:
        if self.detail is None:
            return False
        low, _high = annotation.parse_scale(self.detail["score_scale"])
        score = self.score.value()
        item_id = self.detail["id"]
        try:
            annotation.adjudicate(
                self.ws,
                item_id,
                self.adjudicator.text(),
                decision,
                text=self.text.toPlainText() if decision == "edit" else None,
                score=None if score < low else score,
                comment=self.comment.text(),
            )
        except UserError as exc:
            self.sig_status_message.emit(for_gui(str(exc)))
            return False
        self.comment.clear()
        self._shown_inputs = None  # decided: nothing typed is left to keep
        outcome = (
            _("Item {item} rejected: it is not gold")
            if decision == "reject"
            else _("Item {item} is gold")
        )
        self.sig_status_message.emit(outcome.format(item=item_id))
        self.sig_changed.emit()
        self.reload()
        return True

    def accept_agreed(self) -> int:
        try:
            n = annotation.accept_agreed(self.ws, self.adjudicator.text())
        except UserError as exc:
            self.sig_status_message.emit(for_gui(str(exc)))
            return 0
        self.sig_status_message.emit(_("{n} unanimous item(s) made gold").format(n=n))
        self.sig_changed.emit()
        self.reload()
        return n


def main(argv: list[str] | None = None) -> int:
    return run_panel(
        "python -m widgets.annotation.adjudication_panel",
        _("Adjudication"),
        lambda workspace, bridge, args: AdjudicationPanel(workspace),
        sample="annotation",
        size=(1200, 720),
        argv=argv,
    )


if __name__ == "__main__":
    sys.exit(main())
