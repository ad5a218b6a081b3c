"""What every tabular reader shares: the row type, cell text and column-name cleaning.

Apart from :mod:`engine.importing.tabular` so the XLSX reader, which tabular calls, needs
nothing of tabular itself.
"""

from __future__ import annotations

import datetime as _dt

# Columns in one header or row.
MAX_COLUMNS = 1_000

Row = dict[str, object]


def cell_text(value: object) -> str:
    """A cell as text: None is empty, whole floats lose '.0' (XLSX stores 3 as 3.0)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time)):
        return value.isoformat()
    return str(value)


def clean_name(name: object) -> str:
    return " ".join(str(name).replace("\ufeff", "").split())
