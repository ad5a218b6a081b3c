"""A dialect as the interface names it: in the interface's language, the code when unknown.

Lists where a row has room for one name (the annotation queue, the adjudication list) show
the dialect's name in the current language; forms and charts, which have room, show both.
"""

from __future__ import annotations

from engine.i18n import current_language


def dialect_name(names: dict[str, dict], code: str) -> str:
    """``names``: code -> {"name_en", "name_bn"} (``Workspace.dialect_names``)."""
    row = names.get(code)
    if not row:
        return code
    return (row["name_bn"] if current_language() == "bn" else row["name_en"]) or code
