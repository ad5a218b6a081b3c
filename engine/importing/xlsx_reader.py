"""Reads the first sheet of an .xlsx, after checking the archive before openpyxl parses it.

An .xlsx is a zip of XML parts. Two classic attacks hide in it:
- zip bombs: small members that inflate to gigabytes. The zip directory declares every
  member's sizes, and Python's zipfile never inflates past the declared size, so checking
  the directory (total size, per-member ratio) before extracting bounds the work;
- entity expansion ("billion laughs") and external entities: a DOCTYPE with ENTITY
  declarations in any XML part. Office never writes a DOCTYPE, so any part holding one is
  refused outright; openpyxl additionally parses through defusedxml (a dependency).
"""

from __future__ import annotations

import logging
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NoReturn, Protocol

from engine.errors import ImportRejected
from engine.importing.cells import MAX_COLUMNS, Row, cell_text, clean_name

log = logging.getLogger(__name__)

# Members in the archive: a workbook has a few dozen; thousands means something odd.
MAX_XLSX_MEMBERS = 10_000
# Sum of the declared uncompressed sizes of all members.
MAX_XLSX_UNCOMPRESSED = 512 * 1024 * 1024
# Per-member compression ratio (uncompressed / compressed) for members over
# RATIO_CHECK_FROM bytes. Real sheet XML compresses 5-30x; Apache POI uses the same 100x.
MAX_XLSX_RATIO = 100
RATIO_CHECK_FROM = 1024 * 1024

_BINARY_SUFFIXES = (
    ".png",
    ".jpg",
    ".jpeg",
    ".gif",
    ".bmp",
    ".tif",
    ".tiff",
    ".emf",
    ".wmf",
    ".bin",
)
_FORBIDDEN = (b"<!doctype", b"<!entity")
_CHUNK = 1024 * 1024


def check_archive(path: Path) -> None:
    """Refuse a file that is not a zip, is a zip bomb or has XML with DTD/entities."""
    try:
        archive = zipfile.ZipFile(path)
    except zipfile.BadZipFile:
        raise ImportRejected(
            path,
            "not a valid .xlsx file (not a zip archive; a "
            "password-protected workbook or a renamed .xls?)",
        ) from None
    with archive:
        members = archive.infolist()
        if len(members) > MAX_XLSX_MEMBERS:
            raise ImportRejected(
                path,
                f"{len(members):,} parts in the workbook archive, over "
                f"the {MAX_XLSX_MEMBERS:,} limit",
            )
        total = sum(m.file_size for m in members)
        if total > MAX_XLSX_UNCOMPRESSED:
            raise ImportRejected(
                path,
                f"workbook would inflate to {total / 2**20:,.0f} MiB, "
                f"over the {MAX_XLSX_UNCOMPRESSED // 2**20} MiB limit "
                "(zip bomb?)",
            )
        for member in members:
            if member.file_size > RATIO_CHECK_FROM:
                ratio = member.file_size / max(member.compress_size, 1)
                if ratio > MAX_XLSX_RATIO:
                    raise ImportRejected(
                        path,
                        f"part '{member.filename}' inflates {ratio:,.0f}x "
                        f"(over the {MAX_XLSX_RATIO}x limit; zip bomb?)",
                    )
        for member in members:
            if member.is_dir() or member.filename.lower().endswith(_BINARY_SUFFIXES):
                continue
            _check_no_dtd(path, archive, member)


def _check_no_dtd(path: Path, archive: zipfile.ZipFile, member: zipfile.ZipInfo) -> None:
    tail = b""
    try:
        with archive.open(member) as stream:
            while chunk := stream.read(_CHUNK):
                # NUL removal makes UTF-16 encoded XML searchable with ASCII patterns.
                window = tail + chunk.replace(b"\x00", b"").lower()
                if any(pattern in window for pattern in _FORBIDDEN):
                    raise ImportRejected(
                        path,
                        f"part '{member.filename}' declares a DOCTYPE "
                        "or XML entities, which workbooks never need "
                        "(entity-expansion attack?)",
                    )
                tail = window[-16:]
    except ImportRejected:
        raise
    except Exception as exc:  # noqa: BLE001 - BadZipFile, zlib.error, CRC errors: a damaged part
        raise ImportRejected(
            path, f"corrupt workbook part '{member.filename}' ({_describe(exc)})"
        ) from None


def open_checked_workbook(path: Path):
    """Check the archive, then open it read-only with openpyxl (values, not formulas)."""
    check_archive(path)
    # lazy: openpyxl is slow to import
    import openpyxl  # lazy: only XLSX imports need it

    if not openpyxl.DEFUSEDXML:
        log.warning("defusedxml is not installed; openpyxl parses XML without its guards")
    try:
        return openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # noqa: BLE001 - openpyxl raises many types for damaged files
        raise ImportRejected(path, f"not a readable .xlsx workbook ({_describe(exc)})") from None


class SheetTable(Protocol):
    """What the reader needs of the open table (engine.importing.tabular.TabularFile)."""

    path: Path

    def reject(
        self, message: str, line: int | None = None, column: str | None = None
    ) -> NoReturn: ...
    def check_header(self, names: list[str], line: int | None) -> list[str]: ...
    def on_close(self, closer: Callable[[], None]) -> None: ...
    def set_progress(self, position: Callable[[], tuple[int, int]]) -> None: ...


def open_first_sheet(table: SheetTable):
    """Columns and a ``(sheet row, row)`` iterator for the first sheet of a checked workbook."""
    workbook = open_checked_workbook(table.path)
    table.on_close(workbook.close)
    sheet = workbook.worksheets[0]
    sheet.reset_dimensions()  # a lying <dimension> must not cut rows off
    rows = enumerate(_guarded(table, sheet.iter_rows(min_row=1, values_only=True)), start=1)
    state = {"row": 0}
    table.set_progress(lambda: (state["row"], 0))
    header = None
    for row_no, values in rows:
        if len(values) > MAX_COLUMNS:
            table.reject(f"{len(values)} columns, over the {MAX_COLUMNS} limit", row_no)
        if any(v not in (None, "") for v in values):
            header = (row_no, values)
            break
    if header is None:
        table.reject("the first sheet is empty")
    columns = table.check_header([clean_name(cell_text(v)) for v in header[1]], header[0])
    width = len(columns)

    def data_rows() -> Iterator[tuple[int, Row]]:
        for row_no, values in rows:
            state["row"] = row_no
            if len(values) > MAX_COLUMNS:
                table.reject(f"{len(values)} columns, over the {MAX_COLUMNS} limit", row_no)
            if all(v is None or (isinstance(v, str) and not v.strip()) for v in values):
                continue
            if any(v not in (None, "") for v in values[width:]):
                table.reject(f"row has cells beyond the {width} header columns", row_no)
            padded = tuple(values[:width]) + (None,) * (width - len(values))
            yield row_no, {name: value for name, value in zip(columns, padded) if name}

    return columns, data_rows()


def _guarded(table: SheetTable, values: Iterator[tuple]) -> Iterator[tuple]:
    """Sheet rows, with a damaged sheet reported as a rejection, not a traceback."""
    row_no = 0
    while True:
        try:
            row = next(values)
        except StopIteration:
            return
        except Exception as exc:  # noqa: BLE001 - lxml/zlib/zipfile errors on damaged parts
            table.reject(f"damaged sheet data ({_describe(exc)})", row_no + 1)
        row_no += 1
        yield row


def _describe(exc: BaseException) -> str:
    """A library error as one short line for a rejection message."""
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"[:300]
