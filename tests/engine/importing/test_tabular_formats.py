"""engine.importing.tabular reads every supported format and encoding, with correct line numbers."""

from __future__ import annotations

import pytest

from engine.errors import ImportRejected
from engine.importing.cells import cell_text
from engine.importing.tabular import TabularFile, detect_format, read_rows

from .tablefiles import ENCODINGS, write_table

ROWS = [
    {"standard": "আমি ভাত খাই", "dialect_text": "মুই ভাত খাই", "dialect": "barishal"},
    {"standard": "তুমি কোথায় যাও?", "dialect_text": "তুই কই যাস?", "dialect": "sylhet"},
]


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".json", ".jsonl", ".xlsx"])
def test_every_format_yields_rows_with_columns(tmp_path, suffix):
    path = write_table(tmp_path / f"pairs{suffix}", ROWS)
    with TabularFile(path) as table:
        assert table.columns == ["standard", "dialect_text", "dialect"]
        rows = list(table)
    assert [row for _, row in rows] == ROWS
    lines = [line for line, _ in rows]
    # header on line 1 for CSV/TSV/XLSX; JSON objects start on their own lines
    expected = {".csv": [2, 3], ".tsv": [2, 3], ".xlsx": [2, 3], ".jsonl": [1, 2], ".json": [2, 7]}[
        suffix
    ]
    assert lines == expected


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".json", ".jsonl"])
def test_utf8_bom_and_utf16_decode_to_the_same_rows(tmp_path, suffix, encoding):
    path = write_table(tmp_path / f"pairs{suffix}", ROWS, encoding=encoding)
    assert [row for _, row in read_rows(path)] == ROWS


def test_csv_line_numbers_follow_physical_lines(tmp_path):
    path = tmp_path / "multi.csv"
    path.write_text('a,b\n"first\nsecond line",x\n\n"y",z\n', encoding="utf-8")
    assert list(read_rows(path)) == [
        (2, {"a": "first\nsecond line", "b": "x"}),
        (5, {"a": "y", "b": "z"}),
    ]


def test_semicolon_csv_from_european_excel_is_recognised(tmp_path):
    path = tmp_path / "semi.csv"
    path.write_text("standard;dialect\nআমি;sylhet\n", encoding="utf-8-sig")
    assert list(read_rows(path)) == [(2, {"standard": "আমি", "dialect": "sylhet"})]


def test_short_rows_are_padded_and_empty_trailing_cells_ignored(tmp_path):
    path = tmp_path / "ragged.csv"
    path.write_text("a,b,c\n1\n2,3,4,,\n", encoding="utf-8")
    assert [r for _, r in read_rows(path)] == [
        {"a": "1", "b": "", "c": ""},
        {"a": "2", "b": "3", "c": "4"},
    ]


def test_xlsx_keeps_numbers_and_reports_sheet_rows(tmp_path):
    import openpyxl

    path = tmp_path / "typed.xlsx"
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["id", "question", "question_type"])
    sheet.append([7, "কম্পিউটার কী?", 1])
    sheet.append([])  # blank row: skipped, numbering continues
    sheet.append([8, "ব্যাংক কী?", 4.0])
    workbook.save(path)
    rows = list(read_rows(path))
    assert [line for line, _ in rows] == [2, 4]
    assert rows[0][1] == {"id": 7, "question": "কম্পিউটার কী?", "question_type": 1}
    assert cell_text(rows[1][1]["question_type"]) == "4"


def test_json_line_numbers_and_later_keys_join_the_columns(tmp_path):
    path = tmp_path / "q.json"
    path.write_text(
        '[\n {"question": "ক?"},\n {"question": "খ?", "domain": "Technology"}\n]', encoding="utf-8"
    )
    with TabularFile(path) as table:
        rows = list(table)
        assert table.columns == ["question", "domain"]
    assert [line for line, _ in rows] == [2, 3]


def test_format_comes_from_the_suffix_or_is_given(tmp_path):
    assert detect_format("x.TSV") == "tsv"
    assert detect_format("x.ndjson") == "jsonl"
    assert detect_format("x.dat", "csv") == "csv"
    with pytest.raises(ImportRejected, match="save the sheet as .xlsx"):
        detect_format(tmp_path / "old.xls")
    with pytest.raises(ImportRejected, match="cannot tell the format"):
        detect_format(tmp_path / "notes.docx")


def test_cell_text_renders_spreadsheet_values():
    import datetime as dt

    assert cell_text(None) == ""
    assert cell_text(3.0) == "3"
    assert cell_text(2.5) == "2.5"
    assert cell_text(True) == "true"
    assert cell_text(dt.date(2024, 1, 2)) == "2024-01-02"
