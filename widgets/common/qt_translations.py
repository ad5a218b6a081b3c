"""Qt's own texts (standard buttons: Close, Cancel, Yes…; the right-click menu of a text
field) in the interface language.

Qt translates them through ``QCoreApplication.translate("QPlatformTheme", "Close")`` and the
like; PySide6 ships ``qtbase_<lang>.qm`` files for some languages but none for Bengali. So a
shipped Qt file is loaded where there is one, and otherwise a translator answers Qt's
standard-button and message-box texts from our own catalogue (one place for translators, and
the answer follows :func:`engine.i18n.set_language` without reinstalling anything).
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QObject, QTranslator

from engine.i18n import _, current_language

log = logging.getLogger(__name__)

# the Qt contexts whose texts we answer: standard buttons, message boxes, wizards, and the
# right-click menus of text fields and spin boxes
CONTEXTS = frozenset(
    {
        "QPlatformTheme",
        "QDialogButtonBox",
        "QMessageBox",
        "QWizard",
        "QLineEdit",
        "QWidgetTextControl",
        "QAbstractSpinBox",
    }
)


def standard_texts() -> dict[str, str]:
    """Qt's source text -> ours, translated now (a function: the catalogue may change)."""
    return {
        "OK": _("OK"),
        "Save": _("Save"),
        "Save All": _("Save All"),
        "Open": _("Open"),
        "&Yes": _("&Yes"),
        "Yes to &All": _("Yes to &All"),
        "&No": _("&No"),
        "N&o to All": _("N&o to All"),
        "Abort": _("Abort"),
        "Retry": _("Retry"),
        "Ignore": _("Ignore"),
        "Close": _("Close"),
        "Cancel": _("Cancel"),
        "Discard": _("Discard"),
        "Don't Save": _("Don't Save"),
        "Close without Saving": _("Close without Saving"),
        "Help": _("Help"),
        "Apply": _("Apply"),
        "Reset": _("Reset"),
        "Restore Defaults": _("Restore Defaults"),
        "Show Details...": _("Show Details..."),
        "Hide Details...": _("Hide Details..."),
        "&Next >": _("&Next >"),
        "< &Back": _("< &Back"),
        "&Finish": _("&Finish"),
        "Copy": _("Copy"),
        "&Undo": _("&Undo"),
        "&Redo": _("&Redo"),
        "Cu&t": _("Cu&t"),
        "&Copy": _("&Copy"),
        "&Paste": _("&Paste"),
        "Delete": _("Delete"),
        "Select All": _("Select All"),
        "&Select All": _("&Select All"),
        "Copy &Link Location": _("Copy &Link Location"),
        "&Step up": _("&Step up"),
        "Step &down": _("Step &down"),
    }


class CatalogueTranslator(QTranslator):
    """Answers Qt's standard texts from our catalogue; None (a null QString: not translated,
    Qt keeps its own text; an empty str would blank the button) otherwise."""

    def translate(self, context, source_text, disambiguation=None, n=-1):  # noqa: ARG002
        if context not in CONTEXTS or current_language() == "en":
            return None
        text = standard_texts().get(source_text)
        return text if text and text != source_text else None


_installed: list[QTranslator] = []  # kept alive: Qt does not own an installed translator


def install_qt_translations(app: QObject | None = None) -> None:
    """Once per application: Qt's shipped file for the language if any, else our catalogue."""
    app = app or QCoreApplication.instance()
    if app is None or _installed:
        return
    shipped = QTranslator()
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    if current_language() != "en" and shipped.load(f"qtbase_{current_language()}", folder):
        QCoreApplication.installTranslator(shipped)
        _installed.append(shipped)
        log.info("Qt texts from %s/qtbase_%s.qm", folder, current_language())
        return
    ours = CatalogueTranslator()
    QCoreApplication.installTranslator(ours)
    _installed.append(ours)
