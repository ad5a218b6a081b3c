"""The detail pane of the answers panel: standard and dialect question and answer side by
side with word differences highlighted, the script checks, the judge's verdict, and the
human-override form (the machine judgment is kept; every override stays in the history).
"""

from __future__ import annotations

import difflib
import html
import re

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from engine.i18n import _, digits
from engine.judging.api import Rubric
from engine.text.text_rules import visible
from widgets.common.columns import fit_columns_to_headers
from widgets.common.fonts import bengali_font
from widgets.judging.rubric_display import rubric_texts, shown, weight_text

REMOVED = "#fbd3d3"  # only in the standard text
ADDED = "#fff0b3"  # only in the dialect text
_TOKENS = re.compile(r"\S+|\s+")


def word_diff_html(standard: str, dialect: str) -> tuple[str, str]:
    """Both texts as HTML, words missing from the other one highlighted (difflib on words)."""
    a, b = _TOKENS.findall(standard or ""), _TOKENS.findall(dialect or "")
    words_a = [t for t in a if not t.isspace()]
    words_b = [t for t in b if not t.isspace()]
    matcher = difflib.SequenceMatcher(None, words_a, words_b, autojunk=False)
    keep_a: set[int] = set()
    keep_b: set[int] = set()
    for block in matcher.get_matching_blocks():
        keep_a.update(range(block.a, block.a + block.size))
        keep_b.update(range(block.b, block.b + block.size))
    return _render(a, keep_a, REMOVED), _render(b, keep_b, ADDED)


def _render(tokens: list[str], kept: set[int], colour: str) -> str:
    out, word = [], 0
    for token in tokens:
        if token.isspace():
            out.append(" ")
            continue
        text = html.escape(token)
        out.append(text if word in kept else f'<span style="background:{colour}">{text}</span>')
        word += 1
    return "".join(out)


def _check_text(check) -> str:
    if check is None:
        return "—"
    verdict = {
        "ok": _("passes"),
        "script": _("fails the script check"),
        "refusal": _("is a refusal"),
    }.get(check.gate, check.gate)
    share = _("{p:.0%} Bengali letters").format(p=check.bengali_share)
    flag = " · " + _("script indeterminable: human review") if check.indeterminable else ""
    return f"{verdict} ({share}){flag}" + (f" — {check.reason}" if check.reason else "")


class AnswersDetail(QWidget):
    sig_override = Signal(int, str, str, dict)  # judgment id, annotator, reason, scores

    def __init__(self, rubric: Rubric, parent: QWidget | None = None):
        super().__init__(parent)
        self.rubric = rubric
        self.judgment_id: int | None = None
        self.header = QLabel()
        self.header.setWordWrap(True)
        self.header.setTextFormat(Qt.TextFormat.PlainText)
        self.questions = [QTextBrowser(), QTextBrowser()]
        self.answers = [QTextBrowser(), QTextBrowser()]
        self.checks = [QLabel(), QLabel()]
        self.titles = [QLabel(), QLabel()]
        grid = QGridLayout()
        for col in range(2):
            self.titles[col].setStyleSheet("font-weight: bold")
            for box in (self.questions[col], self.answers[col]):
                box.setFont(bengali_font(11))
                box.setOpenLinks(False)
            self.questions[col].setMaximumHeight(70)
            self.checks[col].setWordWrap(True)
            grid.addWidget(self.titles[col], 0, col)
            grid.addWidget(self.questions[col], 1, col)
            grid.addWidget(self.answers[col], 2, col)
            grid.addWidget(self.checks[col], 3, col)
        grid.setRowStretch(2, 1)

        self.verdict = QLabel()
        self.verdict.setWordWrap(True)
        self.reasoning = QLabel()
        self.reasoning.setWordWrap(True)
        self.reasoning.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.scores = QTableWidget(len(rubric.criteria), 4)
        self.scores.setHorizontalHeaderLabels([_("Criterion"), _("Weight"), _("Judge"), _("Human")])
        self.scores.verticalHeader().setVisible(False)
        self.scores.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.spins: dict[str, QSpinBox] = {}
        texts = rubric_texts(rubric.content_hash)  # the bundled rubric, translated
        for row, c in enumerate(rubric.criteria):
            name = QTableWidgetItem(shown(texts, c.name))
            name.setToolTip(shown(texts, c.statement))
            self.scores.setItem(row, 0, name)
            self.scores.setItem(row, 1, QTableWidgetItem(weight_text(c.weight)))
            spin = QSpinBox()
            spin.setRange(0, 5)
            spin.setToolTip(
                "\n".join(f"{digits(str(v))} = {shown(texts, a)}" for v, a in rubric.likert)
            )
            self.spins[c.key] = spin
            self.scores.setCellWidget(row, 3, spin)
        # the criterion takes what the numbers leave: all four columns show beside the override
        fit_columns_to_headers(self.scores, stretch=0)
        if self.spins:  # the Human column holds spin boxes: as wide as one
            spin_width = next(iter(self.spins.values())).sizeHint().width() + 4
            header = self.scores.horizontalHeader()
            header.resizeSection(3, max(header.sectionSize(3), spin_width))
        self.scores.setFixedHeight(self.scores.sizeHint().height())
        judge_box = QGroupBox(_("Judge"))
        judge_layout = QVBoxLayout(judge_box)
        judge_layout.addWidget(self.verdict)
        judge_layout.addWidget(self.reasoning)
        judge_layout.addWidget(self.scores)

        self.annotator = QLineEdit()
        self.annotator.setPlaceholderText(_("your name"))
        self.reason = QLineEdit()
        self.reason.setPlaceholderText(_("why the judge's score is wrong"))
        self.human_final = QLabel()
        self.save_button = QPushButton(_("Save override"))
        self.save_button.clicked.connect(self._submit)
        for spin in self.spins.values():
            spin.valueChanged.connect(self._update_human_final)
        self.history = QLabel()
        self.history.setWordWrap(True)
        form = QFormLayout()
        form.addRow(_("Annotator"), self.annotator)
        form.addRow(_("Reason"), self.reason)
        buttons = QHBoxLayout()
        buttons.addWidget(self.human_final, 1)
        buttons.addWidget(self.save_button)
        form.addRow(buttons)
        form.addRow(self.history)
        self.override_box = QGroupBox(_("Human override (the judge's scores are kept)"))
        self.override_box.setLayout(form)

        layout = QVBoxLayout(self)
        layout.addWidget(self.header)
        layout.addLayout(grid, 3)
        side = QHBoxLayout()
        side.addWidget(judge_box, 3)
        side.addWidget(self.override_box, 2)
        layout.addLayout(side, 2)
        self.show_detail(None)

    def show_detail(self, detail: dict | None) -> None:
        self.judgment_id = detail["id"] if detail else None
        self.setEnabled(detail is not None)
        if detail is None:
            self.header.setText(_("Select an answer."))
            for box in (*self.questions, *self.answers):
                box.clear()
            return
        self.header.setText(
            f"{detail['model']} · {detail['dialect_en']} ({detail['dialect_bn']}) · "
            f"{detail['ext_id'] or ''} · {detail['domain'] or '—'} · "
            + _("type {t}").format(t=detail["question_type"] or "—")
        )
        self.titles[0].setText(_("Standard Bengali"))
        self.titles[1].setText(f"{detail['dialect_en']} · {detail['dialect_bn']}")
        # model texts (drafted questions, answers, reasoning) with hidden characters shown
        std_q, dia_q = word_diff_html(
            visible(detail["standard_question"] or ""), visible(detail["dialect_question"] or "")
        )
        self.questions[0].setHtml(std_q)
        self.questions[1].setHtml(dia_q)
        std_html, dia_html = word_diff_html(
            visible(detail["standard_answer"] or ""), visible(detail["dialect_answer"] or "")
        )
        self.answers[0].setHtml(std_html)
        self.answers[1].setHtml(dia_html)
        self.checks[0].setText(
            _("Script check: standard answer {r}").format(r=_check_text(detail["standard_check"]))
        )
        self.checks[1].setText(
            _("Script check: dialect answer {r}").format(r=_check_text(detail["dialect_check"]))
        )
        self.override_box.setEnabled(self.judgment_id is not None)
        if self.judgment_id is None:  # generated, not judged by this judge yet
            self.verdict.setText(_("Not judged yet: a judge run scores this answer."))
            self.reasoning.clear()
            for row in range(len(self.rubric.criteria)):
                self.scores.setItem(row, 2, QTableWidgetItem("—"))
            self.history.clear()
            return
        confidence = detail["confidence"] if detail["confidence"] is not None else "—"
        human = (
            _(" · human {h:.1f}").format(h=detail["human_final"])
            if detail["human_final"] is not None
            else ""
        )
        self.verdict.setText(
            _("{judge}: score {final} / {max:g} · confidence {c} · gate {g}").format(
                judge=detail["judge_model"] or "?",
                final=_score(detail["final"]),
                max=self.rubric.max_score,
                c=confidence,
                g=detail["gate"],
            )
            + human
        )
        self.reasoning.setText(visible(detail["reasoning"] or ""))
        latest = detail["history"][-1]["details"].get("scores") if detail["history"] else None
        for row, c in enumerate(self.rubric.criteria):
            value = detail.get(c.key)
            self.scores.setItem(
                row, 2, QTableWidgetItem("—" if value is None else digits(str(value)))
            )
            self.spins[c.key].setValue((latest or {}).get(c.key, value or 0))
        self.history.setText(
            "\n".join(
                _("{at}: {who} set {score:.1f} — {why}").format(
                    at=h["created_at"], who=h["annotator"], score=h["score"], why=h["reason"]
                )
                for h in detail["history"]
            )
            or _("No human override yet.")
        )
        self._update_human_final()

    def human_scores(self) -> dict[str, int]:
        return {key: spin.value() for key, spin in self.spins.items()}

    def _update_human_final(self) -> None:
        self.human_final.setText(
            _("human score {s:.1f}").format(s=self.rubric.final_score(self.human_scores()))
        )

    def _submit(self) -> None:
        if self.judgment_id is not None:
            self.sig_override.emit(
                self.judgment_id, self.annotator.text(), self.reason.text(), self.human_scores()
            )


def _score(value) -> str:
    return "—" if value is None else f"{value:.1f}"
