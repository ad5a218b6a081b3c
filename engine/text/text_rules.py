"""What a stored text may hold, the same for every way text comes in: imports, review
packages, names typed on the command line or in the GUI.

Control characters are refused rather than dropped: a C0 control in a corrected dialect
rendering (``a\\0b``, a bell and an escape) is a broken or hostile file, and storing it would
pass it on to exports, prompts and gold data. Bidirectional controls (U+202A–U+202E,
U+2066–U+2069) are refused in names, where they can make one name display as another; in
running text they may be legitimate. A text must show something: empty or only invisible
characters (spaces, U+200B, joiners) is not a text.
"""

from __future__ import annotations

import re
import unicodedata

from engine.errors import UserError

# C0 controls except tab, line feed and carriage return (white space a file may hold) and
# DEL. The C1 controls are left to the encoding check: UTF-8 Bengali read as Latin-1 shows
# them, and "mojibake" says more than "a control character".
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# The same, with tab, line breaks and C1 too: a one-line value (a name) holds none of them.
_CONTROL_IN_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
_INVISIBLE_CATEGORIES = {"Cc", "Cf", "Zs", "Zl", "Zp"}


def _code(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def control_problem(text: str, *, one_line: bool = False) -> str | None:
    """ "holds the control character U+0007" for the first control character, else None."""
    found = (_CONTROL_IN_LINE if one_line else _CONTROL).search(text)
    if found is None:
        return None
    return f"holds the control character {_code(found.group())}"


def invisible_only(text: str) -> bool:
    """Whether ``text`` shows nothing: empty, or only spaces and invisible characters."""
    return all(
        ch.isspace() or unicodedata.category(ch) in _INVISIBLE_CATEGORIES or ch == "\ufeff"
        for ch in text
    )


def text_problem(text: str, *, one_line: bool = False) -> str | None:
    """Why ``text`` cannot be stored (a control character; nothing visible), else None."""
    problem = control_problem(text, one_line=one_line)
    if problem is not None:
        return problem
    if invisible_only(text):
        return "is empty or only invisible characters"
    return None


def name_problem(name: str) -> str | None:
    """Why ``name`` (an annotator's, a reviewer's, a set's) cannot be used, else None:
    the text rules on one line, and no bidirectional controls."""
    problem = text_problem(name, one_line=True)
    if problem is not None:
        return problem
    found = _BIDI.search(name)
    if found is not None:
        return (
            f"holds the bidirectional control {_code(found.group())}, which can make it "
            "display as another name"
        )
    if unicodedata.normalize("NFC", name) != name:
        return "is not in Unicode NFC form"
    return None


def checked_name(name: str, what: str) -> str:
    """``name`` as it is stored (white space folded, as the CLI folds a name), or a UserError
    saying why ``what`` ("model name", "reviewer name", …) cannot be it: the one rule every
    name a user gives passes, whichever front end it comes from."""
    folded = " ".join(name.split())
    problem = name_problem(folded)
    if problem is not None:
        raise UserError(f"the {what} {name!r} {problem}")
    return folded
