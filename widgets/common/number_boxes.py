"""Spin boxes for numbers a person types into a dialog: Enter settles the value (it does not
reach the dialog's default button), and the numbers read and show in the interface's digits
(Bengali digits in a Bengali interface; typed Bengali or ASCII digits both count)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QDoubleSpinBox, QSpinBox

from engine.i18n import digits

_BENGALI_DIGITS = str.maketrans("০১২৩৪৫৬৭৮৯", "0123456789")


def ascii_digits(text: str) -> str:
    return text.translate(_BENGALI_DIGITS)


class SettlesOnEnter:
    """Enter settles the typed value and goes no further (Qt passes it on to the dialog's
    default button, which would start or close with it). Mixed in before a Qt spin box."""

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.interpretText()  # type: ignore[attr-defined]
            self.selectAll()  # type: ignore[attr-defined]
            event.accept()
            return
        super().keyPressEvent(event)  # type: ignore[misc]


class InterfaceDigits:
    """Checked in ASCII, shown in the interface's digits. Mixed in before a Qt spin box."""

    def validate(self, text: str, pos: int):
        state, fixed, pos = super().validate(ascii_digits(text), pos)  # type: ignore[misc]
        return state, digits(fixed), pos

    def valueFromText(self, text: str):
        return super().valueFromText(ascii_digits(text))  # type: ignore[misc]

    def textFromValue(self, value) -> str:
        return digits(super().textFromValue(value))  # type: ignore[misc]


class SettledSpinBox(SettlesOnEnter, QSpinBox):
    """A whole number; Enter settles it."""


class NumberBox(InterfaceDigits, SettledSpinBox):
    """A whole number in the interface's digits; Enter settles it."""


class DecimalBox(InterfaceDigits, SettlesOnEnter, QDoubleSpinBox):
    """A decimal number in the interface's digits; Enter settles it."""
