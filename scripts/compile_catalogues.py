"""Compile the gettext catalogues: resources/locale/LANG/LC_MESSAGES/upabhasha.po -> .mo.

Run after editing a .po file (``python scripts/compile_catalogues.py``); a test checks that
every committed .mo matches its .po. Uses polib (test extra).
"""

from __future__ import annotations

import sys
from pathlib import Path

import polib

LOCALE = Path(__file__).resolve().parent.parent / "resources" / "locale"


def compile_all(locale: Path = LOCALE) -> list[Path]:
    written = []
    for po_path in sorted(locale.glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
        written.append(mo_path)
    return written


if __name__ == "__main__":
    for path in compile_all():
        print(path)
    sys.exit(0)
