"""Safe reading of tabular files (CSV, TSV, JSON, JSONL, XLSX) into ``(line, row)`` pairs.

Every file comes from a user, so every reader streams, counts as it goes and refuses
hostile input early with :class:`engine.errors.ImportRejected` naming file, line and
column. ``line`` is the physical line where a record starts (CSV/TSV/JSONL/JSON) or the
sheet row number (XLSX); the header is line 1.

Encodings: UTF-8, UTF-8 with BOM and UTF-16 LE/BE with BOM. Anything that is not valid
UTF-8 (and has no UTF-16 BOM) is refused at the line where it stops being UTF-8.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import logging
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NoReturn

from engine.errors import ImportRejected
from engine.files.nesting import too_deep
from engine.files.user_files import binary_format_problem, regular_file_problem
from engine.importing.cells import MAX_COLUMNS, Row, clean_name
from engine.importing.xlsx_reader import open_first_sheet
from engine.text.text_rules import hidden_problem
from engine.text.textnorm import encoding_problem

log = logging.getLogger(__name__)

# -- Limits (documented in README). They bound memory and time for any input. ---------------
# Largest file accepted: the real corpora are a few MB; 256 MiB leaves room for big
# projects while bounding what a JSON array (parsed whole) can cost.
MAX_FILE_BYTES = 256 * 1024 * 1024
# Data rows (header excluded); counted while streaming, so a larger file stops here.
MAX_ROWS = 500_000
# Characters in one cell: Excel's own per-cell limit, so whatever a spreadsheet can hold
# passes (BlanCK has a 28,228-character context cell); a 100 KB cell is refused.
MAX_CELL_CHARS = 32_767
# Bytes in one physical line of a text file (several long cells fit; a 200 MB line does not).
MAX_LINE_BYTES = 4 * 1024 * 1024
# C0 and C1 controls but tab and line breaks: refused in any cell, read or not
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")

FORMATS = ("csv", "tsv", "json", "jsonl", "xlsx")
# ".txt": what Excel writes as "Unicode Text" (UTF-16, tab-separated).
_SUFFIXES = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".txt": "tsv",
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".xlsx": "xlsx",
}


def detect_format(path: str | Path, file_format: str | None = None) -> str:
    path = Path(path)
    if file_format:
        fmt = file_format.lower().lstrip(".")
        if fmt not in FORMATS:
            raise ImportRejected(
                path, f"unknown format '{file_format}' (supported: {', '.join(FORMATS)})"
            )
        return fmt
    suffix = path.suffix.lower()
    if suffix in (".xls", ".xlsm", ".ods"):
        raise ImportRejected(
            path, f"'{suffix}' files are not read; save the sheet as .xlsx or .csv"
        )
    if suffix not in _SUFFIXES:
        raise ImportRejected(
            path,
            f"cannot tell the format from '{suffix or 'no suffix'}' "
            f"(supported: {', '.join(sorted(_SUFFIXES))})",
        )
    return _SUFFIXES[suffix]


class TabularFile:
    """An open tabular file: ``columns`` (header or first object's keys) and row iteration.

    Use as a context manager; iterate once to get ``(line, {column: value})``. Values are
    ``str`` for CSV/TSV, JSON scalars for JSON/JSONL and cell values for XLSX.
    """

    def __init__(self, path: str | Path, file_format: str | None = None, *, precount: bool = True):
        self.path = Path(path)
        self.format = detect_format(self.path, file_format)
        problem = regular_file_problem(self.path)
        if problem is not None:
            raise ImportRejected(self.path, problem)
        self.size = self.path.stat().st_size
        if self.size > MAX_FILE_BYTES:
            raise ImportRejected(
                self.path,
                f"file is {self.size / 2**20:.0f} MiB, over the "
                f"{MAX_FILE_BYTES // 2**20} MiB limit; split it",
            )
        if self.format != "xlsx":
            with open(self.path, "rb") as handle:
                # NUL bytes are refused at their line
                binary = binary_format_problem(handle.read(64), nul_bytes=False)
            if binary is not None:
                raise ImportRejected(self.path, binary)
        if precount and self.format in ("csv", "tsv", "jsonl"):
            self._refuse_too_many_rows()
        self._position: Callable[[], tuple[int, int]] = lambda: (0, self.size)
        self._closers: list[Callable[[], None]] = []
        # a reader that checks the cells it reads (CellReader) lets nested JSON values pass
        # here, so a nested value in a column nobody reads does not refuse the whole file
        self.nested_checked_on_read = False
        opener = {
            "csv": self._open_delimited,
            "tsv": self._open_delimited,
            "json": self._open_json,
            "jsonl": self._open_jsonl,
            "xlsx": self._open_xlsx,
        }[self.format]
        try:
            self.columns, self._rows = opener()
        except BaseException:
            self.close()
            raise

    # -- public ---------------------------------------------------------------------------
    def __iter__(self) -> Iterator[tuple[int, Row]]:
        count = 0
        for line, row in self._rows:
            count += 1
            if count > MAX_ROWS:
                raise ImportRejected(
                    self.path, f"more than {MAX_ROWS:,} data rows (the limit); split the file", line
                )
            self._check_cells(line, row)
            yield line, row

    def progress(self) -> tuple[int, int]:
        """How far reading has come, as (done, total) in the reader's own unit."""
        return self._position()

    def on_close(self, closer: Callable[[], None]) -> None:
        self._closers.append(closer)

    def set_progress(self, position: Callable[[], tuple[int, int]]) -> None:
        self._position = position

    def close(self) -> None:
        while self._closers:
            self._closers.pop()()

    def __enter__(self) -> TabularFile:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _refuse_too_many_rows(self) -> None:
        """Refuse an over-long text file before any caller validates 500,000 rows.

        Counting newlines is cheap; only when there are more lines than the limit (records
        may span lines) does a second reader count records, stopping at the limit.
        """
        newlines = 0
        with open(self.path, "rb") as handle:
            while chunk := handle.read(1 << 20):
                newlines += chunk.count(b"\n")
        if newlines > MAX_ROWS + 1:
            with TabularFile(self.path, self.format, precount=False) as probe:
                for _ in probe:
                    pass

    # -- checks shared by every format (and by engine.importing.xlsx_reader) -----------------------------
    def reject(self, message: str, line: int | None = None, column: str | None = None) -> NoReturn:
        # One line always: messages may quote library errors that span lines.
        raise ImportRejected(self.path, " ".join(message.split()), line, column)

    def check_header(self, names: list[str], line: int | None) -> list[str]:
        if len(names) > MAX_COLUMNS:
            self.reject(f"{len(names)} columns, over the {MAX_COLUMNS} limit", line)
        seen: set[str] = set()
        for name in names:
            if name and name in seen:
                self.reject(f"column '{name}' appears twice in the header", line)
            seen.add(name)
            if "\x00" in name:
                self.reject("NUL byte in the header (binary file or UTF-16 without BOM?)", line)
        if not any(names):
            self.reject("the header row is empty", line)
        return names

    def _check_cells(self, line: int, row: Row) -> None:
        for column, value in row.items():
            if isinstance(value, str):
                if len(value) > MAX_CELL_CHARS:
                    self.reject(
                        f"cell has {len(value):,} characters, over the {MAX_CELL_CHARS:,} limit",
                        line,
                        column,
                    )
                control = _CONTROL.search(value)
                if control:  # every cell; the cells an import reads pass the whole text rule
                    # a C1 control in UTF-8 Bengali read as Latin-1: say so, not "control"
                    encoding = encoding_problem(value) or ""
                    problem = f"the cell {hidden_problem(control.group())}"
                    self.reject(
                        encoding if encoding.startswith("mojibake") else problem, line, column
                    )
            elif isinstance(value, (dict, list)) and not self.nested_checked_on_read:
                self.reject("nested JSON value; cells must be text or numbers", line, column)

    # -- text decoding ------------------------------------------------------------------------
    def _binary(self):
        handle = open(self.path, "rb")
        self._closers.append(handle.close)
        return handle

    def _sniff_encoding(self, handle) -> str:
        head = handle.read(16)
        handle.seek(0)
        if head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
            self.reject("UTF-32 text is not supported; save the file as UTF-8")
        if head.startswith(codecs.BOM_UTF8):
            handle.seek(3)
            return "utf-8"
        if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            return "utf-16"
        return "utf-8"

    def _text_lines(self) -> Iterator[str]:
        """Decoded physical lines (endings kept, as csv wants), refusing bad bytes by line."""
        handle = self._binary()
        encoding = self._sniff_encoding(handle)
        self._position = lambda: (handle.tell() if not handle.closed else self.size, self.size)
        if encoding == "utf-16":
            return self._utf16_lines(handle)
        return self._utf8_lines(handle)

    def _utf8_lines(self, handle) -> Iterator[str]:
        line_no = 0
        while True:
            raw = handle.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            line_no += 1
            if len(raw) > MAX_LINE_BYTES:
                self.reject(f"line longer than {MAX_LINE_BYTES // 2**20} MiB", line_no)
            if b"\x00" in raw:
                self.reject(
                    "NUL byte U+0000 NULL (a binary file, or UTF-16 without a byte-order mark? "
                    "save it as UTF-8)",
                    line_no,
                )
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                self.reject(
                    f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at byte "
                    f"{exc.start + 1} of the line); save the file as UTF-8",
                    line_no,
                )

    def _utf16_lines(self, handle) -> Iterator[str]:
        # Decoding runs ahead in chunks, so a strict error would name the wrong line;
        # replacement characters pin it to the line instead.
        text = io.TextIOWrapper(handle, encoding="utf-16", errors="replace", newline="")
        line_no = 0
        while True:
            line = text.readline(MAX_LINE_BYTES)
            if not line:
                return
            line_no += 1
            if len(line) >= MAX_LINE_BYTES:
                self.reject(f"line longer than {MAX_LINE_BYTES // 2**20} Mi characters", line_no)
            if "\ufffd" in line:
                self.reject("invalid UTF-16 data", line_no)
            if "\x00" in line:
                self.reject("NUL character", line_no)
            yield line

    # -- CSV / TSV ------------------------------------------------------------------------
    def _open_delimited(self):
        lines = self._text_lines()
        # Header sniffing: a ".csv" saved by a European Excel uses ';' and some use tabs.
        first = next(lines, None)
        if first is None:
            self.reject("the file is empty")
        delimiter = "\t" if self.format == "tsv" else ","
        if self.format == "csv" and "," not in first:
            delimiter = ";" if ";" in first else ("\t" if "\t" in first else ",")

        def all_lines():
            yield first
            yield from lines

        reader = csv.reader(all_lines(), delimiter=delimiter)
        try:
            header = next(reader)
        except csv.Error as exc:
            self.reject(f"unreadable header ({exc})", 1)
        columns = self.check_header([clean_name(h) for h in header], 1)
        return columns, self._delimited_rows(reader, columns)

    def _delimited_rows(self, reader, columns: list[str]) -> Iterator[tuple[int, Row]]:
        width = len(columns)
        while True:
            start = reader.line_num + 1
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                self.reject(f"malformed {self.format.upper()} ({exc})", start)
            if not any(c.strip() for c in cells):
                continue  # blank line
            if len(cells) > width:
                extra = [c for c in cells[width:] if c.strip()]
                if extra:
                    self.reject(
                        f"row has {len(cells)} cells but the header has {width} "
                        "(an unquoted delimiter in a cell?)",
                        start,
                    )
            cells = cells[:width] + [""] * (width - len(cells))
            yield start, {name: value for name, value in zip(columns, cells) if name}

    # -- XLSX (engine.importing.xlsx_reader checks the archive first) ---------------------------------
    def _open_xlsx(self):

        return open_first_sheet(self)

    # -- JSON / JSONL ---------------------------------------------------------------------
    def _decode_whole(self) -> str:
        handle = self._binary()
        encoding = self._sniff_encoding(handle)
        data = handle.read()
        handle.close()
        if encoding == "utf-16":
            try:
                text = data.decode("utf-16")
            except UnicodeDecodeError as exc:
                self.reject(f"invalid UTF-16 data ({exc.reason})")
        else:
            if b"\x00" in data:
                cut = data.index(b"\x00")
                self.reject(
                    "NUL byte U+0000 NULL (a binary file, or UTF-16 without a byte-order mark?)",
                    data.count(b"\n", 0, cut) + 1,
                )
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                self.reject(
                    "not valid UTF-8; save the file as UTF-8", data.count(b"\n", 0, exc.start) + 1
                )
        return text

    def _open_json(self):
        text = self._decode_whole()
        deep = too_deep(text)  # json parses nesting recursively: measured first
        if deep:
            self.reject(f"the JSON is {deep}")
        decoder = json.JSONDecoder()
        pos = _skip_space(text, 0)
        if pos >= len(text) or text[pos] != "[":
            self.reject(
                "a JSON file must hold an array of objects ([{...}, ...]); "
                "use .jsonl for one object per line"
            )
        state = {"pos": pos + 1}
        self._position = lambda: (state["pos"], len(text))

        def objects() -> Iterator[tuple[int, Row]]:
            pos, line, counted, first = state["pos"], 1, 0, True
            while True:
                pos = _skip_space(text, pos)
                if pos < len(text) and text[pos] == "]":
                    break
                if not first:
                    if pos >= len(text) or text[pos] != ",":
                        break  # reported below with the right line
                    pos = _skip_space(text, pos + 1)
                line += text.count("\n", counted, pos)
                counted = pos
                try:
                    value, pos = decoder.raw_decode(text, pos)
                except json.JSONDecodeError as exc:
                    self.reject(f"invalid JSON ({exc.msg}, column {exc.colno})", exc.lineno)
                if not isinstance(value, dict):
                    self.reject("array items must be objects", line)
                state["pos"], first = pos, False
                yield line, value
            line += text.count("\n", counted, pos)
            if pos >= len(text):
                self.reject("the JSON array is not closed with ']'", line)
            if text[pos] != "]":
                self.reject("expected ',' or ']' after an object", line)
            if text[pos + 1 :].strip():
                self.reject("content after the closing ']'", line)

        return self._first_keys(objects())

    def _open_jsonl(self):
        lines = self._text_lines()

        def objects() -> Iterator[tuple[int, Row]]:
            for line_no, line in enumerate(lines, start=1):
                if not line.strip():
                    continue
                deep = too_deep(line)
                if deep:
                    self.reject(f"the JSON object is {deep}", line_no)
                try:
                    value = json.loads(line)
                except json.JSONDecodeError as exc:
                    self.reject(f"invalid JSON ({exc.msg}, column {exc.colno})", line_no)
                if not isinstance(value, dict):
                    self.reject("each line must be a JSON object", line_no)
                yield line_no, value

        return self._first_keys(objects())

    def _first_keys(self, rows: Iterator[tuple[int, Row]]):
        """Columns of a JSON source = keys of its first object; later keys are added."""
        first = next(rows, None)
        if first is None:
            self.reject("no objects in the file")
        columns = self.check_header([clean_name(k) for k in first[1]], first[0])

        def all_rows():
            for line, row in _chain_one(first, rows):
                cleaned = {clean_name(k): v for k, v in row.items()}
                for key in cleaned:
                    if key not in columns:
                        columns.append(key)
                if len(columns) > MAX_COLUMNS:
                    self.reject(f"more than {MAX_COLUMNS} distinct keys", line)
                yield line, cleaned

        return columns, all_rows()


def read_rows(path: str | Path, file_format: str | None = None) -> Iterator[tuple[int, Row]]:
    """Convenience: iterate ``(line, row)`` of a file and close it afterwards."""
    with TabularFile(path, file_format) as table:
        yield from table


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


def _chain_one(first, rest):
    yield first
    yield from rest


__all__ = [
    "TabularFile",
    "read_rows",
    "detect_format",
    "FORMATS",
    "MAX_FILE_BYTES",
    "MAX_ROWS",
    "MAX_CELL_CHARS",
    "MAX_LINE_BYTES",
]
