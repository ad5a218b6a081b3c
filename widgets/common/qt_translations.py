"""Qt's own texts (standard buttons, message boxes, the file dialog, the right-click menu of a
text field) in the interface language.

Qt translates them through ``QCoreApplication.translate(context, source)``; PySide6 ships
``qtbase_<lang>.qm`` files for some languages but none for Bengali. So a shipped Qt file is
loaded where there is one, and otherwise :class:`CatalogueTranslator` answers Qt's contexts
from our own catalogue (one place for translators; the answer follows
:func:`engine.i18n.set_language` without a compiled file to keep in step).

Qt's ``%1`` placeholders stay as they are in our msgids: Qt fills them after translating.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QObject, QTranslator

from engine.i18n import _, current_language

log = logging.getLogger(__name__)


def _buttons() -> dict[str, str]:
    """Standard buttons and wizard pages (QPlatformTheme, QDialogButtonBox, QMessageBox…)."""
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
        "About Qt": _("About Qt"),
    }


def _text_menus() -> dict[str, str]:
    """The right-click menus of text fields and spin boxes."""
    return {
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


def _file_dialog() -> dict[str, str]:
    """Qt's own (non-native) file dialog: its labels, buttons, tooltips and messages."""
    return {
        "&Look in:": _("&Look in:"),
        "File &name:": _("File &name:"),
        "Files of &type:": _("Files of &type:"),
        "&Open": _("&Open"),
        "&Save": _("&Save"),
        "&Choose": _("&Choose"),
        "&Delete": _("&Delete"),
        "&Rename": _("&Rename"),
        "&New Folder": _("&New Folder"),
        "New Folder": _("New Folder"),
        "Show &hidden files": _("Show &hidden files"),
        "All Files (*)": _("All Files (*)"),
        "All Files (*.*)": _("All Files (*.*)"),
        "Back": _("Back"),
        "Forward": _("Forward"),
        "Go back": _("Go back"),
        "Go forward": _("Go forward"),
        "Parent Directory": _("Parent Directory"),
        "Go to the parent directory": _("Go to the parent directory"),
        "Create New Folder": _("Create New Folder"),
        "Create a New Folder": _("Create a New Folder"),
        "List View": _("List View"),
        "Detail View": _("Detail View"),
        "Change to list view mode": _("Change to list view mode"),
        "Change to detail view mode": _("Change to detail view mode"),
        "List of places and bookmarks": _("List of places and bookmarks"),
        "Sidebar": _("Sidebar"),
        "Files": _("Files"),
        "Directory:": _("Directory:"),
        "Directories": _("Directories"),
        "Find Directory": _("Find Directory"),
        "Save As": _("Save As"),
        "Recent Places": _("Recent Places"),
        "Remove": _("Remove"),
        "Are you sure you want to delete '%1'?": _("Are you sure you want to delete '%1'?"),
        "%1 already exists.\nDo you want to replace it?": _(
            "%1 already exists.\nDo you want to replace it?"
        ),
        "%1\nFile not found.\nPlease verify the correct file name was given.": _(
            "%1\nFile not found.\nPlease verify the correct file name was given."
        ),
        "%1\nDirectory not found.\nPlease verify the correct directory name was given.": _(
            "%1\nDirectory not found.\nPlease verify the correct directory name was given."
        ),
        # the file list's columns and kinds (QFileSystemModel, QAbstractFileIconProvider)
        "Name": _("Name"),
        "Size": _("Size"),
        "Type": _("Type"),
        "Kind": _("Kind"),
        "Date Modified": _("Date Modified"),
        "Computer": _("Computer"),
        "My Computer": _("My Computer"),
        "Folder": _("Folder"),
        "File Folder": _("File Folder"),
        "Drive": _("Drive"),
        "File": _("File"),
        "%1 File": _("%1 File"),
        "Unknown": _("Unknown"),
        "Invalid filename": _("Invalid filename"),
    }


# Qt context -> the table that answers it
CONTEXT_TABLES = {
    "QPlatformTheme": _buttons,
    "QDialogButtonBox": _buttons,
    "QMessageBox": _buttons,
    "QWizard": _buttons,
    "QLineEdit": _text_menus,
    "QWidgetTextControl": _text_menus,
    "QAbstractSpinBox": _text_menus,
    "QFileDialog": _file_dialog,
    "QFileSystemModel": _file_dialog,
    "QAbstractFileIconProvider": _file_dialog,
    "QFileIconProvider": _file_dialog,
    "QSideBar": _file_dialog,
}
# the source texts each context's table answers; every table maps a text to _(text), so a
# translation is one catalogue look-up, not a table built anew for each of Qt's many calls
_KNOWN = {context: frozenset(table()) for context, table in CONTEXT_TABLES.items()}


def qt_text(context: str, source_text: str) -> str | None:
    """Our translation of one Qt text, None when we have none (Qt keeps its own)."""
    if source_text not in _KNOWN.get(context, ()) or current_language() == "en":
        return None
    text = _(source_text)
    return text if text and text != source_text else None


class CatalogueTranslator(QTranslator):
    """Answers Qt's texts from our catalogue; None (a null QString: not translated, Qt keeps
    its own text; an empty str would blank the button) otherwise."""

    def translate(self, context, source_text, disambiguation=None, n=-1):  # noqa: ARG002
        return qt_text(context, source_text)


_installed: list[QTranslator] = []  # kept alive: Qt does not own an installed translator
# the locale whose digits Qt writes (spin boxes, progress bars, the file dialog's sizes and
# dates) for each interface language; typed ASCII digits are still taken
QT_LOCALES = {"bn": (QLocale.Language.Bengali, QLocale.Country.Bangladesh)}


def apply_interface_locale() -> None:
    """Qt's default locale follows the interface language (the system's for English)."""
    pair = QT_LOCALES.get(current_language())
    QLocale.setDefault(QLocale(*pair) if pair else QLocale.system())


def install_qt_translations(app: QObject | None = None) -> None:
    """Qt's locale for the language; once per application, Qt's shipped file for the
    language if any, else our catalogue."""
    apply_interface_locale()
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
