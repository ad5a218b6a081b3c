"""The one ``_()`` every user-visible string goes through (docs/design.md, house style 12).

Identity until a language is chosen. :func:`set_language` loads the shipped gettext catalogue
``resources/locale/<lang>/LC_MESSAGES/upabhasha.po`` and compiles it to the binary ``.mo``
form in memory with Babel at load time (nothing is written next to a read-only install, and
no build step can leave a stale ``.mo``). :func:`digits` writes numbers with Bengali digits
(০১২৩৪৫৬৭৮৯) while the Bengali catalogue is active: counts, progress and dates go through it.

Strings evaluated at import time (module-level constants) are translated when first shown
only if they are wrapped at the point of use, so the language is set before any panel module
is imported (``app.gui_main``).
"""

from __future__ import annotations

import gettext
import io
import logging
import os
import string
from collections.abc import Mapping
from decimal import Decimal
from importlib import resources
from pathlib import Path

log = logging.getLogger(__name__)

DOMAIN = "upabhasha"
SOURCE_LANGUAGE = "en"
# the languages the settings offer, each named in itself
LANGUAGES: dict[str, str] = {"en": "English", "bn": "বাংলা"}
NATIVE_DIGITS: dict[str, str] = {"bn": "০১২৩৪৫৬৭৮৯"}

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = SOURCE_LANGUAGE
_digit_table: dict[int, int] | None = None


class _NativeDigitFormatter(string.Formatter):
    """``str.format`` that writes the numbers it is given in the interface's digits."""

    def format_field(self, value: object, format_spec: str) -> str:
        text = super().format_field(value, format_spec)
        if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
            return digits(text)
        return text


_FORMATTER = _NativeDigitFormatter()


class LocalText(str):
    """A translated string whose ``format()`` writes numbers in the interface's digits
    (``_("{n} items").format(n=3)`` is "৩টি আইটেম"): numbers reach translated messages as
    ints and floats, so no call site has to remember :func:`digits`. Strings given to
    ``format()`` keep their digits (file names, model names, ids typed by a person)."""

    __slots__ = ()

    def format(self, *args: object, **kwargs: object) -> str:
        return _FORMATTER.vformat(self, args, kwargs)


def _local(text: str) -> str:
    return LocalText(text) if _digit_table else text


def _(message: str) -> str:
    return _local(_translation.gettext(message))


def N_(message: str) -> str:
    """Marks ``message`` for the catalogue and returns it untranslated: a log template that
    the log file keeps in English and the Jobs panel shows in the interface language."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    return _local(_translation.ngettext(singular, plural, n))


def current_language() -> str:
    return _language


# gettext's order: LANGUAGE (a list) first, then the locale categories that name messages
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def system_language(environ: Mapping[str, str] | None = None) -> str | None:
    """The offered language the system's locale asks for ("bn" for ``bn_BD.UTF-8``), "en" for
    any other locale, and None when no locale variable is set (Windows and macOS keep the
    language elsewhere; the GUI asks Qt then)."""
    environ = os.environ if environ is None else environ
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "")
        if not value:
            continue
        for entry in value.split(":"):
            code = entry.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in LANGUAGES:
                return code
        return SOURCE_LANGUAGE
    return None


def locale_dir() -> Path:
    """``resources/locale``: one folder per language, gettext layout."""
    return Path(str(resources.files("resources") / "locale"))


def catalogue_path(language: str, base: Path | None = None) -> Path:
    return (base or locale_dir()) / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def compile_catalogue(po_path: Path) -> gettext.GNUTranslations:
    """Read a ``.po`` file and return its translations (compiled to ``.mo`` in memory).

    Fuzzy and untranslated entries are left out, as ``msgfmt`` does, so they show in English.
    Raises OSError when the file cannot be read and ValueError when it is not a catalogue.
    """
    from babel.messages.mofile import write_mo  # lazy: only a non-English UI needs Babel
    from babel.messages.pofile import read_po

    with po_path.open("rb") as fh:
        try:
            catalog = read_po(fh, abort_invalid=True)
        except Exception as exc:  # babel's PoFileError and friends
            raise ValueError(f"{po_path}: not a gettext catalogue ({exc})") from exc
    binary = io.BytesIO()
    write_mo(binary, catalog, use_fuzzy=False)
    binary.seek(0)
    return gettext.GNUTranslations(binary)


def set_language(language: str, base: Path | None = None) -> bool:
    """Translate from now on into ``language`` ("en" = the source strings).

    False, with identity and a log line, when there is no usable catalogue for it: a broken or
    missing translation never stops the program.
    """
    global _translation, _language, _digit_table
    _translation, _language, _digit_table = gettext.NullTranslations(), SOURCE_LANGUAGE, None
    if not language or language == SOURCE_LANGUAGE:
        return True
    path = catalogue_path(language, base)
    try:
        _translation = compile_catalogue(path)
    except (OSError, ValueError) as exc:
        log.warning(
            "no usable %s catalogue for %r (%s); the interface stays English", DOMAIN, language, exc
        )
        return False
    _language = language
    native = NATIVE_DIGITS.get(language)
    _digit_table = str.maketrans("0123456789", native) if native else None
    log.info("interface language %s (%s)", language, path)
    return True


def install_translation(localedir: str, languages: list[str]) -> bool:
    """Use a compiled ``.mo`` catalogue for ``languages`` from ``localedir``; False if none."""
    global _translation
    try:
        _translation = gettext.translation(DOMAIN, localedir, languages=languages)
    except OSError:
        log.info("no %s translation for %s in %s", DOMAIN, languages, localedir)
        _translation = gettext.NullTranslations()
        return False
    return True


def digits(value: object) -> str:
    """``value`` as text, its ASCII digits in the interface language's own digits.

    ``digits(1234)`` is "১২৩৪" in Bengali and "1234" in English; strings keep everything but
    their digits (``digits("2026-11-30 08:23")`` → "২০২৬-১১-৩০ ০৮:২৩").
    """
    text = value if isinstance(value, str) else str(value)
    return text.translate(_digit_table) if _digit_table else text
