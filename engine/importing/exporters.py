"""Export a workspace table or view to CSV, JSONL or XLSX.

- CSV is UTF-8 *with* a byte-order mark: Excel reads BOM-less CSV in the local ANSI code
  page and turns Bengali into mojibake.
- CSV and XLSX are opened by spreadsheets, so text cells that begin with = + - @ TAB or CR
  get a leading apostrophe (formula injection, OWASP "CSV injection"); real numbers stay
  numbers. JSONL is for programs and keeps every value exactly.
- The file is written beside its target and renamed into place, so a failed export never
  leaves a half-written file under the requested name.
"""

from __future__ import annotations

import csv
import json
import logging
import os
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path

from engine.errors import UserError
from engine.files.output_path import writable_output
from engine.text.redact import redact
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)

EXPORT_FORMATS = ("csv", "jsonl", "xlsx")
_SUFFIXES = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".xlsx": "xlsx"}
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# Excel's own limits: a sheet holds 1,048,576 rows (one is the header); a cell 32,767 chars.
XLSX_MAX_ROWS = 1_048_575
XLSX_MAX_CELL_CHARS = 32_767
# Control characters XML 1.0 cannot carry (openpyxl refuses them); shown as \xNN instead.
_XML_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def exportable_names(ws: Workspace) -> list[str]:
    """Tables and views of the workspace (SQLite's internal tables excluded)."""
    return sorted(ws.table_names() + ws.view_names())


def exportable(ws: Workspace) -> list[dict]:
    """``{"name", "type", "rows"}`` of every table and view (``upabhasha export --list``)."""
    return [{k: t[k] for k in ("name", "type", "rows")} for t in ws.schema()]


def neutralize(value):
    """A spreadsheet-safe cell: text that a spreadsheet would run as a formula is quoted."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def export_table(
    ws: Workspace, table_or_view: str, path: str | Path, fmt: str | None = None
) -> int:
    """Write every row of a table or view to ``path``; returns the number of rows."""
    path = Path(path)
    names = exportable_names(ws)
    if table_or_view not in names:
        raise UserError(f"no table or view '{table_or_view}' (exportable: {', '.join(names)})")
    fmt = _format(path, fmt)
    # sqlite-utils reads the table or view (its columns, its rows streamed). A dict per row
    # costs nothing clear against a plain cursor's tuples — the CSV writing dominates
    # (bench/export_rows.py compares them) — so raw SQL has no case here.
    source = (
        ws.db.table(table_or_view)
        if table_or_view in ws.table_names()
        else ws.db.view(table_or_view)
    )
    columns = [c.name for c in source.columns]
    # secrets masked: older workspaces may hold an echoed key (engine.text.redact)
    rows = (tuple(redact(v) for v in row.values()) for row in source.rows)
    writer = {"csv": _write_csv, "jsonl": _write_jsonl, "xlsx": _write_xlsx}[fmt]
    # before any row is read, as every other output: a folder, a device, a missing folder
    # (a typo should not create folders) or an unwritable place is a one-line refusal
    writable_output(path, "export file")
    try:
        handle, tmp_name = tempfile.mkstemp(
            prefix=f".{path.name}.", suffix=".part", dir=path.parent
        )
    except OSError as exc:
        raise UserError(f"{path}: cannot write there ({exc.strerror})") from None
    os.close(handle)
    tmp = Path(tmp_name)
    try:
        count = writer(tmp, table_or_view, columns, rows)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    log.info("exported %d rows of %s to %s (%s)", count, table_or_view, path, fmt)
    return count


def _format(path: Path, fmt: str | None) -> str:
    if fmt:
        fmt = fmt.lower().lstrip(".")
        if fmt not in EXPORT_FORMATS:
            raise UserError(f"unknown export format '{fmt}' (one of: {', '.join(EXPORT_FORMATS)})")
        return fmt
    fmt = _SUFFIXES.get(path.suffix.lower())
    if fmt is None:
        raise UserError(
            f"{path}: cannot tell the export format from '{path.suffix}' "
            f"(use .csv, .jsonl or .xlsx, or --format)"
        )
    return fmt


def _plain(value):
    return value.hex() if isinstance(value, (bytes, memoryview)) else value


def _write_csv(path: Path, _name: str, columns: list[str], rows: Iterable[tuple]) -> int:
    count = 0
    with open(path, "w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow([neutralize(c) for c in columns])
        for row in rows:
            writer.writerow([neutralize(_plain(v)) for v in row])
            count += 1
    return count


def _write_jsonl(path: Path, _name: str, columns: list[str], rows: Iterable[tuple]) -> int:
    count = 0
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        for row in rows:
            record = dict(zip(columns, (_plain(v) for v in row)))
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            count += 1
    return count


def _xlsx_cell(value, row_no: int, column: str):
    value = neutralize(_plain(value))
    if isinstance(value, str):
        value = _XML_ILLEGAL.sub(lambda m: f"\\x{ord(m.group()):02x}", value)
        if len(value) > XLSX_MAX_CELL_CHARS:
            raise UserError(
                f"row {row_no}, column '{column}': {len(value):,} characters, over "
                f"Excel's {XLSX_MAX_CELL_CHARS:,} per cell; export as CSV or JSONL"
            )
    return value


def _write_xlsx(path: Path, name: str, columns: list[str], rows: Iterable[tuple]) -> int:
    # lazy: openpyxl is slow to import
    from openpyxl import Workbook  # lazy: only XLSX exports need it
    from openpyxl.cell import WriteOnlyCell

    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet(title=re.sub(r"[\[\]:*?/\\]", "_", name)[:31] or "data")
    sheet.append([_xlsx_cell(c, 1, c) for c in columns])
    count, problem = 0, None
    try:
        for count, row in enumerate(rows, start=1):
            if count > XLSX_MAX_ROWS:
                raise UserError(
                    f"'{name}' has more than {XLSX_MAX_ROWS:,} rows, Excel's "
                    "limit; export as CSV or JSONL"
                )
            cells = []
            for column, value in zip(columns, row):
                cell = WriteOnlyCell(sheet, _xlsx_cell(value, count + 1, column))
                if isinstance(cell.value, str):
                    cell.data_type = "s"  # text stays text, even if it looks like a formula
                cells.append(cell)
            sheet.append(cells)
    except UserError as exc:
        problem = exc
    workbook.save(path)  # also on failure: closes openpyxl's streaming writer cleanly
    if problem is not None:
        raise problem
    return count
