"""Every stored code a person sees, named in the interface language.

The workspace stores codes ("zero", "native", "gold", "barishal", "endpoint"); panels and
dialogs show them through :func:`label` (or the helpers below), never as they are stored.
A code with no name here is shown as stored: user data (a group typed in a probe file, a
label name) keeps its own spelling. The Bengali terms follow resources/locale/glossary.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.i18n import _, current_language, ngettext
from engine.workspace.api import labelled_codes


def _tables() -> dict[str, dict[str, str]]:
    """Kind of code -> code -> name, translated now (the language may have changed). Each
    stage declares its kinds and codes (``LABELS`` in engine/<stage>/schema.py); the English
    name is the stored code itself, so the English interface and the command line say the
    same thing. The msgids are the codes: the catalogue keeps them while the literals stand
    in the declarations (scripts/i18n.py)."""
    return {kind: {code: _(code) for code in codes} for kind, codes in labelled_codes().items()}


def label(kind: str, code: str | None) -> str:
    """``code`` of ``kind`` named for a person; unknown codes as stored, None as ""."""
    if code is None:
        return ""
    return _tables().get(kind, {}).get(str(code), str(code))


def labeller(kind: str) -> Callable[[str | None], str]:
    """``label`` bound to one kind, for ``map`` and for item delegates."""
    return lambda code: label(kind, code)


def dialect_label(names: dict[str, dict], code: str, *, with_code: bool = True) -> str:
    """A dialect for a list or a form. English: "Barishal (barishal)" (the code is what the
    command line takes); Bengali: its Bengali name alone. ``names``: code -> {"name_en",
    "name_bn"} (``Workspace.dialect_names``)."""
    row = names.get(code) or {}
    if code == "standard" and not row:
        return _("standard Bengali")
    if current_language() == "bn":
        return row.get("name_bn") or row.get("name_en") or code
    name = row.get("name_en") or code
    return f"{name} ({code})" if with_code and name != code else name


def joined(kind: str, codes: str, separator: str = ", ") -> str:
    """A stored comma list of codes ("free, counterbalanced") named one by one."""
    return separator.join(label(kind, part.strip()) for part in codes.split(",") if part.strip())


def dialect_of(
    row: Mapping[str, Any], *, both: bool = False, code: bool = True, separator: str = " · "
) -> str:
    """A dialect row ({code, name_en, name_bn}) for a list or form. English: "Barishal
    (barishal)", with ``both`` "Barishal · বরিশালের ভাষা (barishal)"; Bengali: the Bengali
    name alone (the code and the English name are for the command line)."""
    if current_language() == "bn":
        return row.get("name_bn") or row.get("name_en") or row["code"]
    text = row.get("name_en") or row["code"]
    if both and row.get("name_bn"):
        text = f"{text}{separator}{row['name_bn']}"
    return f"{text} ({row['code']})" if code else text


def study_counts_text(counts: Mapping[str, int]) -> str:
    """The status bar's study counts (``study_counts``), each noun in its number: "1 question
    · 3 variants · 0 gold · 1 model"."""
    questions, variants, models = counts["questions"], counts["variants"], counts["models"]
    return " · ".join(
        (
            ngettext("{n} question", "{n} questions", questions).format(n=questions),
            ngettext("{n} variant", "{n} variants", variants).format(n=variants),
            _("{n} gold").format(n=counts["gold"]),
            ngettext("{n} model", "{n} models", models).format(n=models),
        )
    )
