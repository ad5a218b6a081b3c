"""The job dialogs' item limit and scope: a small default, typed numbers, a confirmation
before a large job.

:class:`ItemLimitBox` is a spin box for "only the first N" whose lowest value reads "every
question". Typed digits replace that text (Qt would append them after it and refuse the
result), Bengali digits count as digits, and Enter settles the value without reaching the
dialog's default button. :func:`scope_text` says what a start would run and
:func:`ask_before_large_job` asks first when that is large.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QMessageBox, QWidget

from engine.i18n import _, digits
from widgets.common.number_boxes import SettledSpinBox, ascii_digits

DEFAULT_ITEMS = 10
CONFIRM_ITEMS = 500
CONFIRM_SECONDS = 600


class ItemLimitBox(SettledSpinBox):
    """'Only the first N' items; 0 (shown as ``every_text``) means every item."""

    def __init__(
        self,
        every_text: str,
        suffix: str = "",
        *,
        default: int = DEFAULT_ITEMS,
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        self.setRange(0, 1_000_000)
        self.setSpecialValueText(every_text)
        self.setSuffix(suffix)
        self.setValue(default)
        self.setKeyboardTracking(True)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        typed = ascii_digits(event.text())
        if typed.isdigit() and self.value() == self.minimum():
            self.lineEdit().setText("")  # the shown "every …" is not part of the number
        super().keyPressEvent(event)

    def validate(self, text: str, pos: int):
        text = ascii_digits(text)
        special = self.specialValueText()
        if special and special in text and text != special:
            pos = max(0, pos - len(special))
            text = text.replace(special, "")
        state, fixed, pos = super().validate(text, pos)
        return state, digits(fixed), pos  # checked in ASCII, shown in the interface's digits

    def valueFromText(self, text: str) -> int:
        return super().valueFromText(ascii_digits(text))

    def textFromValue(self, value: int) -> str:
        return digits(value)


def scope_text(items: int, questions: int, dialects: int, unit: str | None = None) -> str:
    """'20 items: 10 questions × 2 dialects'."""
    return _("{n} {unit}: {q} questions × {d} dialects").format(
        n=digits(items), unit=unit or _("items"), q=digits(questions), d=digits(dialects)
    )


def is_large(items: int, seconds: float | None = None) -> bool:
    return items >= CONFIRM_ITEMS or (seconds is not None and seconds >= CONFIRM_SECONDS)


def ask_before_large_job(parent: QWidget, scope: str, start: Callable[[], object]) -> QMessageBox:
    """A window-modal question before a large job; ``start`` runs when it is answered Yes.
    Returned (and left open) so that a test can click its buttons."""
    box = QMessageBox(
        QMessageBox.Icon.Question,
        _("Start a large job?"),
        _("This job runs {scope}. Start it? A smaller limit tries the settings first.").format(
            scope=scope
        ),
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        parent,
    )
    box.setDefaultButton(QMessageBox.StandardButton.No)
    box.setWindowModality(Qt.WindowModality.WindowModal)
    yes = box.button(QMessageBox.StandardButton.Yes)
    box.buttonClicked.connect(lambda button: button is yes and start())
    box.finished.connect(box.deleteLater)
    box.open()
    return box


__all__ = [
    "CONFIRM_ITEMS",
    "DEFAULT_ITEMS",
    "ItemLimitBox",
    "SettledSpinBox",
    "ask_before_large_job",
    "ascii_digits",
    "is_large",
    "scope_text",
]
