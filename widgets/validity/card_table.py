"""The validity cards as a table: one row per judge × dialect × check, each figure with its
interval, n, band and whether it passed (in words and in colour), and below it each
dialect's sentence to take away.

Every figure is the stored card's (engine.validity.api.ValidityCard, read by the stage's
one query, ``validity_cards``): nothing is computed here but the wording. Numbers are shown
in the interface's digits.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from engine.i18n import N_, _, digits
from engine.validity.api import (
    FAIL,
    PASS,
    SENSITIVITY,
    CheckFigure,
    Interval,
    ValidityCard,
)
from widgets.common.columns import fit_columns_to_headers
from widgets.common.labels import label

# what each family's pooled rate measures, as its row names it
FAMILY_FIGURES = {
    "position": N_("flip rate (answers' order swapped)"),
    "retest": N_("retest agreement"),
    "invariance": N_("invariance (must not move)"),
    "sensitivity": N_("discrimination (must lower)"),
}
# pass in green, fail in red, unmeasured in grey: the word says it too
STATUS_COLOURS = {PASS: "#1b7a3a", FAIL: "#b3261e"}
UNMEASURED_COLOUR = "#6b6b6b"
COLUMNS = 11
RESULT_COLUMN = 6


def percent(value: float | None) -> str:
    """A share as a whole percentage, "—" when it was not measured."""
    return "—" if value is None else digits(f"{100 * value:.0f} %")


def rate_text(rate: Interval) -> str:
    """ "12 % [5 %, 20 %]" (no interval: the value alone)."""
    if rate.value is None:
        return "—"
    if rate.low is None or rate.high is None:
        return percent(rate.value)
    return f"{percent(rate.value)} [{percent(rate.low)}, {percent(rate.high)}]"


def _two(value: float) -> str:
    """Two decimals, a bound just below zero shown as 0.00 rather than -0.00."""
    text = f"{value:.2f}"
    return "0.00" if text == "-0.00" else text


def coefficient_text(est: Interval) -> str:
    """κ or α with its interval, two decimals."""
    if est.value is None:
        return "—"
    text = _two(est.value)
    if est.low is not None and est.high is not None:
        text += f" [{_two(est.low)}, {_two(est.high)}]"
    return digits(text)


def shift_text(shift: Interval) -> str:
    return "—" if shift.value is None else digits(f"{shift.value:+.2f}")


def band_text(card: ValidityCard, figure: CheckFigure) -> str:
    """The family's band as it bounds the rate: "≤ 5 %" or "≥ 95 %" (check rows: none)."""
    if figure.band is None:
        return ""
    _band, upper = card.bands.bound(figure.family)
    return ("≤ " if upper else "≥ ") + percent(figure.band)


def status_text(status: str) -> str:
    return label("validity_status", status) if status else ""


def figure_name(figure: CheckFigure, pooled: bool) -> str:
    """A family's pooled row by what it measures; a check's row by the check, indented."""
    if pooled:
        return _(FAMILY_FIGURES.get(figure.family, figure.family))
    return "    " + label("validity_check", figure.check)


def figure_cells(card: ValidityCard, figure: CheckFigure, pooled: bool) -> list[str]:
    """The cells after judge and dialect: check, rate [CI], n, band, result, exact, κ, α,
    mean shift (sensitivity has no agreement: its verdicts must differ)."""
    agree = figure.family != SENSITIVITY
    return [
        figure_name(figure, pooled),
        rate_text(figure.rate),
        digits(figure.n),
        band_text(card, figure) if pooled else "",
        status_text(figure.status) if pooled else "",
        percent(figure.exact) if agree else "",
        coefficient_text(figure.kappa) if agree else "",
        coefficient_text(figure.alpha) if agree else "",
        shift_text(figure.mean_shift),
    ]


def figure_note(figure: CheckFigure) -> str:
    """What a row's n leaves out: changes the prompt's normalisation undid (not asked) and
    replies that were no verdict."""
    notes = []
    if figure.same_prompt:
        notes.append(
            _(
                "{n} items reached the judge as the very same prompt (its normalisation undid "
                "the change): not asked, not counted"
            ).format(n=digits(figure.same_prompt))
        )
    if figure.invalid:
        notes.append(_("{n} replies were no verdict: not counted").format(n=digits(figure.invalid)))
    return "\n".join(notes)


def card_rows(card: ValidityCard) -> list[tuple[list[str], str, str]]:
    """Every row of one card: (cells, status, note) — the family rows of each dialect, then
    its checks; each dialect by its name in the interface language."""
    rows = []
    for dialect in card.dialects:
        name = dialect.name
        for pooled, figures in ((True, dialect.families), (False, dialect.checks)):
            for figure in figures:
                cells = [card.judge_model, name, *figure_cells(card, figure, pooled)]
                rows.append((cells, figure.status if pooled else "", figure_note(figure)))
    return rows


def card_header(card: ValidityCard) -> str:
    """The card's settings: judge, runs, sample, seed, intervals, bands."""
    bands = card.bands
    return _(
        "Judge {model} (judge run {run}; its changed prompts decoded in run {probes}): {n} "
        "items per dialect, seed {seed}, {level} intervals. Bands: flip rate ≤ {flip}, "
        "retest ≥ {retest}, invariance ≥ {invariance}, discrimination ≥ {discrimination}."
    ).format(
        model=card.judge_model,
        run=digits(card.judge_run_id),
        probes=digits(card.run_id if card.run_id is not None else "—"),
        n=digits(card.per_dialect),
        seed=digits(card.seed),
        level=percent(card.level),
        flip=percent(bands.flip_max),
        retest=percent(bands.retest_min),
        invariance=percent(bands.invariance_min),
        discrimination=percent(bands.discrimination_min),
    )


class CardTable(QWidget):
    """The cards shown: their settings, the figures table and the sentences."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.cards: list[ValidityCard] = []
        self.settings = QLabel()
        self.settings.setWordWrap(True)
        self.settings.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = QTableWidget(0, COLUMNS)
        self.table.setHorizontalHeaderLabels(
            [
                _("Judge"),
                _("Dialect"),
                _("Check"),
                _("Value [CI]"),
                _("Items"),
                _("Band"),
                _("Result"),
                _("Exact"),
                _("Weighted κ [CI]"),
                _("Krippendorff's α [CI]"),
                _("Mean shift"),
            ]
        )
        self.table.verticalHeader().setVisible(False)
        # results, not inputs: a stray keystroke must not change a figure
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        fit_columns_to_headers(self.table, stretch=2)
        self.sentences = QLabel()
        self.sentences.setWordWrap(True)
        self.sentences.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.settings)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.sentences)
        self.show_cards([])

    def show_cards(self, cards: list[ValidityCard]) -> None:
        self.cards = list(cards)
        rows = [row for card in cards for row in card_rows(card)]
        self.table.setRowCount(len(rows))
        for r, (cells, status, note) in enumerate(rows):
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if note and c in (2, 4):  # the check and its n: what n leaves out
                    item.setToolTip(note)
                if status:  # a family's pooled row, in bold; its result in colour
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                    if c == RESULT_COLUMN:
                        colour = STATUS_COLOURS.get(status, UNMEASURED_COLOUR)
                        item.setForeground(QBrush(QColor(colour)))
                self.table.setItem(r, c, item)
        if rows:
            self.table.resizeColumnsToContents()
            fit_columns_to_headers(self.table, stretch=2, grow_only=True)
        if not cards:
            self.settings.setText(
                _("No validity card yet: choose a judge run and press Run to check it.")
            )
            self.sentences.setText("")
            return
        self.settings.setText("\n".join(card_header(card) for card in cards))
        self.sentences.setText(
            "\n".join(
                f"• {card.judge_model} · {d.sentence}"  # worded in the interface language
                for card in cards
                for d in card.dialects
            )
        )
