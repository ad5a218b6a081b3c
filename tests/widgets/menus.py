"""The window's menu actions as a person reads them (the mnemonic's & left out)."""

from __future__ import annotations

from PySide6.QtGui import QAction


def menu_action(window, text: str) -> QAction:
    """The one action of ``window`` whose text, without its mnemonic, is ``text``."""
    found = [a for a in window.findChildren(QAction) if a.text().replace("&", "") == text]
    assert len(found) == 1, text
    return found[0]
