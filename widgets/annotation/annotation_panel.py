"""AnnotationPanel: an annotator works through their own queue, blind to everyone else.

The same panel serves the lab (a :class:`~engine.annotation.sources.WorkspaceQueue`) and a
field laptop with only a review package (a :class:`~engine.annotation.sources.PackageQueue`):
choose the annotator, read the item (the machine draft or the judge's score is hidden when
the batch is blind), then accept, edit, flag or reject, with a score on the batch's scale
and a comment. The seconds spent on the item are recorded with the decision. Other
annotators' decisions are never shown here; they meet only in the adjudication view.

``python -m widgets.annotation.annotation_panel [WORKSPACE | --package FILE]`` opens it alone.
"""

from __future__ import annotations

import logging
import sys

from PySide6.QtCore import QElapsedTimer, QSize, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from engine.annotation.api import PackageQueue, WorkspaceQueue, parse_scale
from engine.errors import UserError
from engine.i18n import _, digits
from engine.text.text_rules import visible
from widgets.annotation.setup import AnnotationSetup, SetupPrompt
from widgets.annotation.setup_dialogs import kind_label
from widgets.common.avro_typing import AvroTyping
from widgets.common.dialect_names import dialect_name
from widgets.common.fonts import bengali_font
from widgets.common.hints import for_gui
from widgets.common.standalone import run_panel
from widgets.common.workspace_watcher import Change

log = logging.getLogger(__name__)

ORIGIN = "annotation"  # the change notices of this panel's own decisions


def decision_label(decision: str) -> str:
    return {
        "accept": _("✓ accepted"),
        "edit": _("✎ edited"),
        "flag": _("⚑ flagged"),
        "reject": _("✗ rejected"),
    }.get(decision, decision)


def _snippet(text: str, width: int = 48) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def item_label(item: dict, dialects: dict[str, dict]) -> str:
    """A queue row: decided or not, the item, its kind and dialect (named from
    ``dialects``), the decision made, and the beginning of its text (the question when the
    machine draft is hidden)."""
    content = item["content"]
    text = content.get("answer") if item["kind"] == "judgment" else content.get("text")
    if not text or content.get("hidden"):
        text = content.get("question", "")
    mine = item["mine"]
    mark = "✓" if mine else "•"
    decided = f" · {decision_label(mine['decision'])}" if mine else ""
    if mine and mine["score"] is not None:
        decided += f" ({digits(format(mine['score'], 'g'))})"
    dialect = dialect_name(dialects, item["dialect"])
    head = f"{mark} #{digits(item['item_id'])} {dialect}{decided} · {kind_label(item['kind'])}"
    return f"{head}\n{_snippet(text, 40)}"


class AnnotationPanel(QWidget):
    sig_decided = Signal(int)  # annotation item id
    sig_status_message = Signal(str)

    def __init__(
        self,
        source: PackageQueue | WorkspaceQueue,
        annotator: str = "",
        parent: QWidget | None = None,
        *,
        setup: AnnotationSetup | None = None,
    ):
        super().__init__(parent)
        self.source = source
        self.dialects = source.dialect_names()
        self.setup = setup
        self.items: list[dict] = []
        self.current: dict | None = None
        self._clock = QElapsedTimer()
        # (annotator, item id) shown, its stored state and the inputs as shown: what was typed
        # since is kept by a re-read
        self._shown_for: tuple[str, int] | None = None
        self._stored: tuple = ()
        self._shown_inputs: tuple[str, str, float] | None = None

        self.annotator = QComboBox()
        self.annotator.addItems(source.annotators())
        if annotator and self.annotator.findText(annotator) >= 0:
            self.annotator.setCurrentText(annotator)
        self.annotator.currentTextChanged.connect(lambda _name: self.reload())
        self.progress = QProgressBar()
        self.progress.setFormat(_("%v of %m decided"))
        self.blind_label = QLabel()
        top = QHBoxLayout()
        top.addWidget(QLabel(_("Annotator:")))
        top.addWidget(self.annotator)
        top.addWidget(self.progress, 1)
        top.addWidget(self.blind_label)
        self.prompt: SetupPrompt | None = None
        if setup is not None:  # a workspace (a package brings its own queue)
            self.prompt = SetupPrompt(setup, "assigned")
            self.annotators_button = QPushButton(_("A&nnotators…"))
            self.annotators_button.clicked.connect(
                lambda _checked=False: setup.edit_annotators(self.window())
            )
            self.assign_button = QPushButton(_("A&ssign items…"))
            self.assign_button.clicked.connect(
                lambda _checked=False: setup.assign_items(self.window())
            )
            top.addWidget(self.annotators_button)
            top.addWidget(self.assign_button)
            setup.sig_changed.connect(self.reload_annotators)

        self.list = QListWidget()
        self.list.setFont(bengali_font(11))
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # two lines a row (the item, then its text); Qt's own row height fits one line of
        # Bengali only and elides the second away
        self._row_size = QSize(1, 2 * self.list.fontMetrics().lineSpacing() + 10)
        self.list.currentRowChanged.connect(self._show_row)

        self.question = QLabel()
        self.question.setWordWrap(True)
        self.question.setFont(bengali_font(13))
        self.question.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.shown = QLabel()
        self.shown.setWordWrap(True)
        self.shown.setFont(bengali_font(13))
        self.shown.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text = QPlainTextEdit()
        self.text.setFont(bengali_font(13))
        self.text.setPlaceholderText(_("Your corrected text (for an edit)"))
        self.avro = AvroTyping(self.text)
        self.avro_toggle = QCheckBox(_("Avro phonetic typing"))
        self.avro_toggle.setToolTip(
            _("Type Latin letters (ami bhalo achi): Bengali appears in place")
        )
        self.avro_toggle.toggled.connect(self.avro.set_enabled)
        self.score = QDoubleSpinBox()
        self.score.setDecimals(1)
        self.score.setSpecialValueText(_("no score"))
        self.scale_label = QLabel()
        score_row = QHBoxLayout()
        score_row.addWidget(self.score)
        score_row.addWidget(self.scale_label, 1)
        self.comment = QLineEdit()
        self.comment.setPlaceholderText(_("Comment (optional)"))
        self.mine = QLabel()
        # says that the item or the annotator's stored decision moved under unsaved input
        self.stored_note = QLabel()
        self.stored_note.setWordWrap(True)
        self.stored_note.setStyleSheet("color: #b35900")
        self.stored_note.hide()
        form = QFormLayout()
        form.addRow(_("Question:"), self.question)
        form.addRow(_("To review:"), self.shown)
        form.addRow(_("Your text:"), self.text)
        form.addRow("", self.avro_toggle)
        form.addRow(_("Score:"), score_row)
        form.addRow(_("Comment:"), self.comment)
        form.addRow(_("Your decision:"), self.mine)
        form.addRow("", self.stored_note)

        self.buttons: dict[str, QPushButton] = {}
        buttons = QHBoxLayout()
        for key, text, shortcut in (
            ("accept", _("&Accept"), "Ctrl+Return"),
            ("edit", _("Save &edit"), "Ctrl+E"),
            ("flag", _("&Flag"), "Ctrl+G"),
            ("reject", _("&Reject"), "Ctrl+R"),
        ):
            button = QPushButton(text)
            button.setShortcut(shortcut)
            button.clicked.connect(lambda _c=False, k=key: self.decide(k))
            buttons.addWidget(button)
            self.buttons[key] = button
        # decisions save on every click: this says so where the click was
        self.saved_note = QLabel()
        self.saved_note.setStyleSheet("color: #2d6a2d")
        buttons.addWidget(self.saved_note, 1)
        detail = self.detail = QWidget()
        right = QVBoxLayout(detail)
        right.addLayout(form)
        right.addLayout(buttons)
        right.addStretch(1)

        splitter = QSplitter()
        splitter.addWidget(self.list)
        splitter.addWidget(detail)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes([340, 900])
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        if self.prompt is not None:
            layout.addWidget(self.prompt)
        layout.addWidget(splitter, 1)
        self.reload()

    def add_window_shortcuts(self) -> None:
        """F12 and Ctrl+M switch Avro typing anywhere in this panel when it is a window of
        its own (a review package); in the main window its actions own those keys."""
        for key in ("F12", "Ctrl+M"):
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
            shortcut.activated.connect(self.avro_toggle.toggle)

    def reload_annotators(self) -> None:
        """Annotators were added or items assigned (here, in a dialog or from the CLI): offer
        every annotator, keep the one chosen."""
        chosen = self.annotator.currentText()
        self.annotator.blockSignals(True)
        self.annotator.clear()
        self.annotator.addItems(self.source.annotators())
        if self.annotator.findText(chosen) >= 0:
            self.annotator.setCurrentText(chosen)
        self.annotator.blockSignals(False)
        self.reload()

    # -- reading ---------------------------------------------------------------------------
    def unsaved(self) -> bool:
        """The annotator typed a text, a comment or a score for the item shown and has not
        decided it yet."""
        return self._shown_inputs is not None and self._inputs() != self._shown_inputs

    def _inputs(self) -> tuple[str, str, float]:
        return self.text.toPlainText(), self.comment.text(), self.score.value()

    def on_change(self, change: Change) -> None:
        """Assignments or decisions were written elsewhere (a merged package, adjudication,
        the CLI): re-read the queue, keeping the item shown and what was typed there. This
        panel's own decisions are shown in place already (:meth:`decide`)."""
        if change.origin == ORIGIN and change.topics <= {"decisions"}:
            return
        self.reload()

    def reload(self, select_item: int | None = None) -> None:
        """Re-read the queue and show ``select_item`` (by default the item shown, when the
        annotator is the same); an item shown again keeps the text, comment and score typed
        for it and not yet decided."""
        name = self.annotator.currentText()
        shown = self._shown_for[1] if self._shown_for and self._shown_for[0] == name else None
        if select_item is None:
            select_item = shown
        keep = shown is not None and shown == select_item and self.unsaved()
        try:
            self.items = self.source.queue(name) if name else []
        except UserError as exc:
            self.sig_status_message.emit(for_gui(str(exc)))
            self.items = []
        self.list.blockSignals(True)
        self.list.clear()
        for item in self.items:
            entry = QListWidgetItem(item_label(item, self.dialects))
            entry.setToolTip(item_label(item, self.dialects))
            entry.setSizeHint(self._row_size)
            entry.setData(Qt.ItemDataRole.UserRole, item["item_id"])
            self.list.addItem(entry)
        self.list.blockSignals(False)
        decided = sum(1 for i in self.items if i["mine"])
        self.progress.setRange(0, max(1, len(self.items)))
        self.progress.setValue(decided)
        self.progress.setTextVisible(bool(self.items))  # not "0 of 1" with nothing assigned
        blind = any(i["blind_draft"] for i in self.items)
        self.blind_label.setText(_("Blind review") if blind else "")
        if self.prompt is not None:
            # the empty state's button replaces the top bar's while it shows
            setup_needed = bool(self.prompt.refresh())
            self.annotators_button.setVisible(not setup_needed)
            self.assign_button.setVisible(not setup_needed)
        ids = [i["item_id"] for i in self.items]
        row = ids.index(select_item) if select_item in ids else 0
        if self.items:
            self.list.blockSignals(True)
            self.list.setCurrentRow(row)
            self.list.blockSignals(False)
            self._show_row(row, keep=keep and ids[row] == select_item)
        else:
            self.current = self._shown_for = self._shown_inputs = None
            self._enable(False)
        self.detail.setEnabled(bool(self.items))

    def _enable(self, on: bool) -> None:
        for button in self.buttons.values():
            button.setEnabled(on)

    def _show_row(self, row: int, keep: bool = False) -> None:
        """Show the item at ``row``; ``keep``: it is shown already, and what was typed for it
        stays (a re-read), with a note when its stored state moved meanwhile."""
        if not 0 <= row < len(self.items):
            return
        item = self.current = self.items[row]
        content = item["content"]
        mine = item["mine"]
        stored = (content.get("text"), content.get("answer"), content.get("judge_score"), mine)
        moved = keep and stored != self._stored
        self._stored = stored
        self.question.setText(content.get("question", ""))
        if item["kind"] == "variant":
            shown = content.get("hidden") and _("(machine draft hidden: blind review)")
            # nothing shown to accept: blind review takes an edit, a flag or a rejection
            self.buttons["accept"].setVisible(not content.get("hidden"))
            self.shown.setText(shown or visible(content.get("text", "")))
        else:
            judge = content.get("judge_score")
            extra = "" if judge is None else "\n" + _("Judge: {score}").format(score=judge)
            self.shown.setText(visible(content.get("answer", "")) + extra)
            self.buttons["accept"].setVisible(True)
        low, high = parse_scale(item["score_scale"])
        self.scale_label.setText(_("scale {scale}").format(scale=digits(str(item["score_scale"]))))
        self.mine.setText(
            _("not decided yet")
            if not mine
            else decision_label(mine["decision"])
            + ("" if mine["score"] is None else f" ({digits(format(mine['score'], 'g'))})")
        )
        self._enable(True)
        if keep:
            if moved:
                self.stored_note.setText(
                    _(
                        "This item or your stored decision changed meanwhile; what you typed "
                        "is kept, and deciding replaces it."
                    )
                )
                self.stored_note.show()
            return
        self.stored_note.hide()
        if item["kind"] == "variant":
            self.text.setPlainText("" if content.get("hidden") else content.get("text", ""))
        else:
            self.text.setPlainText("")
        self.score.setRange(low - 1, high)  # the value below the range means "no score"
        # a revisited item shows what was saved, ready to change
        saved = mine["score"] if mine and mine["score"] is not None else low - 1
        self.score.setValue(saved)
        self.comment.setText((mine["comment"] or "") if mine else "")
        if mine and mine["text"]:
            self.text.setPlainText(mine["text"])
        self._shown_for = (self.annotator.currentText(), item["item_id"])
        self._shown_inputs = self._inputs()
        self._clock.start()

    # -- deciding --------------------------------------------------------------------------
    def decide(self, decision: str) -> bool:
        item = self.current
        if item is None:
            return False
        low, _high = parse_scale(item["score_scale"])
        score = self.score.value()
        try:
            row = self.source.record(
                item["item_id"],
                self.annotator.currentText(),
                decision,
                text=self.text.toPlainText() if decision == "edit" else None,
                score=None if score < low else score,
                comment=self.comment.text(),
                seconds=self._clock.elapsed() / 1000 if self._clock.isValid() else None,
            )
        except UserError as exc:
            self.sig_status_message.emit(for_gui(str(exc)))
            return False
        self.sig_decided.emit(item["item_id"])
        saved = _("Item {item}: {decision} saved").format(item=item["item_id"], decision=decision)
        self.saved_note.setText(saved)
        self.sig_status_message.emit(saved)
        # update this row in place (no re-read: a queue can hold thousands of items)
        item["mine"] = {k: row[k] for k in ("decision", "text", "score", "comment", "seconds")}
        index = self.items.index(item)
        self.list.item(index).setText(item_label(item, self.dialects))
        self.list.item(index).setToolTip(item_label(item, self.dialects))
        self.progress.setValue(sum(1 for i in self.items if i["mine"]))
        order = self.items[index + 1 :] + self.items[: index + 1]
        nxt = next((i for i in order if not i["mine"]), item)
        self.list.setCurrentRow(self.items.index(nxt))
        if nxt is item:
            self._show_row(index)
        return True


def main(argv: list[str] | None = None) -> int:
    def add_arguments(parser):
        parser.add_argument("--package", help="a review package to work on (no workspace)")
        parser.add_argument("--annotator", default="")

    def build(workspace, bridge, args):
        if args.package:
            return AnnotationPanel(PackageQueue(args.package))
        return AnnotationPanel(WorkspaceQueue(workspace), args.annotator)

    return run_panel(
        "python -m widgets.annotation.annotation_panel",
        _("Annotation"),
        build,
        sample="annotation",
        size=(1100, 700),
        add_arguments=add_arguments,
        argv=argv,
    )


if __name__ == "__main__":
    sys.exit(main())
