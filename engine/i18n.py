"""The one ``_()`` every user-visible string goes through (DESIGN.md, house style 12).

Identity for now; ``install_translation`` swaps in a gettext catalogue so a Bengali UI
needs no code change, only a ``.mo`` file.
"""

from __future__ import annotations

import gettext
import logging

log = logging.getLogger(__name__)

DOMAIN = "upabhasha"
_translation: gettext.NullTranslations = gettext.NullTranslations()


def _(message: str) -> str:
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translation.ngettext(singular, plural, n)


def install_translation(localedir: str, languages: list[str]) -> bool:
    """Use the catalogue for ``languages`` from ``localedir``; False (and identity) if none."""
    global _translation
    try:
        _translation = gettext.translation(DOMAIN, localedir, languages=languages)
    except OSError:
        log.info("no %s translation for %s in %s", DOMAIN, languages, localedir)
        _translation = gettext.NullTranslations()
        return False
    return True
