"""View → Language: the interface language, saved in the settings, applied at the next start.

Until a language is chosen in the menu the interface follows the system's locale (Bengali
for ``bn_*``, English otherwise), at every start; a choice, English included, is kept.

The language is set once, before any panel is built (``app.gui_main``), because panels
translate their labels when they are made; switching a running window would leave half of it
in the old language. The menu names each language in itself (English, বাংলা), so it can be
found whatever language is showing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QLocale
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMainWindow, QMenu

from app.settings import Settings
from engine.i18n import (
    LANGUAGES,
    SOURCE_LANGUAGE,
    _,
    current_language,
    set_language,
    system_language,
)

log = logging.getLogger(__name__)


def startup_language(saved: str) -> str:
    """The language to start in: the one chosen in the menu, else the system's."""
    if saved:
        return saved
    language = system_language()
    if language is None:  # no locale variables (Windows, macOS): the language Qt reads there
        ui_languages = QLocale.system().uiLanguages()
        code = ui_languages[0].replace("_", "-").split("-")[0].lower() if ui_languages else ""
        language = code if code in LANGUAGES else SOURCE_LANGUAGE
    return language


def apply_language(language: str) -> bool:
    """Use ``language`` from now on (before the window is built): the catalogue, and Qt's
    default locale, so the numbers Qt formats (progress bars, spin boxes) follow it too."""
    ok = set_language(language)
    bengali = current_language() == "bn"
    QLocale.setDefault(
        QLocale(QLocale.Language.Bengali, QLocale.Country.Bangladesh)
        if bengali
        else QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
    )
    return ok


def add_language_menu(
    window: QMainWindow, menu: QMenu, settings: Settings, save: Callable[[Settings], None]
) -> QMenu:
    """A Language sub-menu of ``menu``; choosing saves the setting and says when it applies."""
    submenu = menu.addMenu(_("&Language"))
    group = QActionGroup(submenu)
    group.setExclusive(True)
    for code, name in LANGUAGES.items():
        action = QAction(name, submenu)
        action.setCheckable(True)
        action.setChecked(code == (settings.language or current_language()))
        action.setData(code)
        group.addAction(action)
        submenu.addAction(action)

    def chosen(action: QAction) -> None:
        code = action.data()
        if code == settings.language:
            return
        settings.language = code
        save(settings)
        log.info("interface language set to %s (applies at the next start)", code)
        if code == current_language():
            message = _("Language: {name}.").format(name=LANGUAGES[code])
        else:
            # in both the current language and the chosen one, as either reader may need it
            message = _("The interface changes to {name} when Upabhasha starts again.").format(
                name=LANGUAGES[code]
            )
        window.statusBar().showMessage(message, 10000)

    group.triggered.connect(chosen)
    return submenu
