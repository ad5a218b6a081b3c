"""The interface language: English (the source strings) or Bengali (a gettext catalogue).

Chosen in View → Language and saved in the settings; it applies at the next start, since
every string is translated when its widget is built. Bengali also makes Qt's default locale
bn_BD, so progress bars, spin boxes and tables show Bengali digits.
"""

from __future__ import annotations

import logging
from importlib.resources import files

from PySide6.QtCore import QLocale

from engine.i18n import install_translation

log = logging.getLogger(__name__)

LANGUAGES = {"en": "English", "bn": "বাংলা"}


def locale_dir() -> str:
    return str(files("resources") / "locale")


def apply_language(code: str) -> bool:
    """Install the catalogue and Qt locale for ``code``; False (English) if unavailable."""
    if code == "bn" and install_translation(locale_dir(), ["bn"]):
        QLocale.setDefault(QLocale(QLocale.Language.Bengali, QLocale.Country.Bangladesh))
        log.info("interface language: Bengali")
        return True
    install_translation(locale_dir(), [])  # back to the source strings
    QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
    return code == "en"


def add_language_menu(window, menu) -> None:
    """View → Language: one checkable entry per language, saved in the window's settings."""
    from PySide6.QtGui import QAction, QActionGroup
    from PySide6.QtWidgets import QMessageBox

    from engine.i18n import _

    sub = menu.addMenu(_("&Language"))
    group = QActionGroup(sub)
    for code, name in LANGUAGES.items():
        action = QAction(name, sub, checkable=True)
        action.setChecked(window.settings.language == code)
        action.setData(code)
        group.addAction(action)
        sub.addAction(action)

    def chosen(action) -> None:
        if window.settings.language == action.data():
            return
        window.settings.language = action.data()
        window._save(window.settings)
        QMessageBox.information(
            window, _("Language"), _("The new language applies the next time Upabhasha starts.")
        )

    group.triggered.connect(chosen)
    window.language_menu = sub
