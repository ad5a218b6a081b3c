"""Hostile files are refused early with one line naming file, line and column."""

from __future__ import annotations

import io
import zipfile

import pytest

import engine.importing.tabular as tabular
import engine.importing.xlsx_reader as xlsx_reader
from engine.errors import ImportRejected
from engine.importing.tabular import MAX_ROWS, TabularFile, read_rows

from .tablefiles import write_table


def rejected(path, **kwargs) -> ImportRejected:
    with pytest.raises(ImportRejected) as info:
        with TabularFile(path, **kwargs) as table:
            for _ in table:
                pass
    message = str(info.value)
    assert "\n" not in message and str(path) in message
    return info.value


# -- text files ------------------------------------------------------------------------------
def test_nul_byte_is_refused_at_its_line(tmp_path):
    path = tmp_path / "nul.csv"
    path.write_bytes("a,b\nক,খ\nগ,\x00ঘ\n".encode())
    error = rejected(path)
    assert error.line == 3 and "NUL" in error.reason


@pytest.mark.parametrize("control", ["\x07", "\x1b", "\x7f", "\x0b"])
def test_a_control_character_is_refused_at_its_line_and_column(tmp_path, control):
    path = tmp_path / "control.csv"
    path.write_bytes(f"a,b\nক,খ\nগ,ঘ{control}ঙ\n".encode())
    error = rejected(path)
    assert error.line == 3 and error.column == "b"
    assert f"control character U+{ord(control):04X}" in error.reason


def test_a_png_named_csv_is_refused_by_what_it_is(tmp_path):
    path = tmp_path / "picture.csv"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(100))
    assert "not a text file (looks like PNG)" in rejected(path).reason


def test_utf16_without_bom_is_refused_as_nul_bytes_with_a_hint(tmp_path):
    path = tmp_path / "nobom.csv"
    path.write_bytes("a,b\nক,খ\n".encode("utf-16-le"))
    error = rejected(path)
    assert error.line == 1 and "UTF-16 without a byte-order mark" in error.reason


def test_invalid_utf8_is_refused_naming_the_line(tmp_path):
    path = tmp_path / "latin1.csv"
    path.write_bytes("a,b\nক,খ\n".encode() + "café,x\n".encode("latin-1"))
    error = rejected(path)
    assert error.line == 3 and "not valid UTF-8" in error.reason


def test_invalid_utf8_in_json_names_the_line(tmp_path):
    path = tmp_path / "bad.json"
    path.write_bytes(b'[\n{"a": "x"},\n{"a": "caf\xe9"}]')
    assert rejected(path).line == 3


@pytest.mark.parametrize("suffix", [".csv", ".json"])
def test_a_100_kb_cell_is_refused_naming_line_and_column(tmp_path, suffix):
    rows = [{"standard": "আমি", "note": "ok"}, {"standard": "ক" * 100_000, "note": "x"}]
    error = rejected(write_table(tmp_path / f"big{suffix}", rows))
    assert error.column == "standard"
    assert error.line == {".csv": 3, ".json": 6}[suffix]
    assert "100,000 characters" in error.reason


def test_more_rows_than_the_limit_stop_at_the_limit(tmp_path):
    path = tmp_path / "million.csv"
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("standard,dialect_text,dialect\n")
        handle.write("আমি ভাত খাই,মুই ভাত খাই,barishal\n" * 1_000_000)
    error = rejected(path)
    assert error.line == MAX_ROWS + 2 and "500,000" in error.reason
    # The streaming count itself stops at the limit: half the file is never read.
    with TabularFile(path, precount=False) as table:
        with pytest.raises(ImportRejected):
            for _ in table:
                pass
        done, total = table.progress()
    assert done < total * 0.6


def test_file_over_the_size_limit_is_refused_before_reading(tmp_path, monkeypatch):
    monkeypatch.setattr(tabular, "MAX_FILE_BYTES", 1024)
    path = tmp_path / "big.csv"
    path.write_text("a\n" + "x\n" * 1000, encoding="utf-8")
    with pytest.raises(ImportRejected, match="over the 0 MiB limit"):
        TabularFile(path)


def test_overlong_line_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(tabular, "MAX_LINE_BYTES", 100)
    path = tmp_path / "long.csv"
    path.write_text("a\nshort\n" + "x" * 500 + "\n", encoding="utf-8")
    assert rejected(path).line == 3


def test_duplicate_header_and_too_many_columns_are_refused(tmp_path):
    path = tmp_path / "dup.csv"
    path.write_text("a,b,a\n1,2,3\n", encoding="utf-8")
    assert "appears twice" in rejected(path).reason
    path = tmp_path / "wide.csv"
    path.write_text(",".join(f"c{i}" for i in range(1001)) + "\n", encoding="utf-8")
    assert "1001 columns" in rejected(path).reason


def test_json_that_is_not_an_array_of_flat_objects_is_refused(tmp_path):
    path = tmp_path / "obj.json"
    path.write_text('{"a": 1}', encoding="utf-8")
    assert "array of objects" in rejected(path).reason
    path.write_text('[{"a": 1},\n {"a": {"nested": true}}]', encoding="utf-8")
    error = rejected(path)
    assert (error.line, error.column) == (2, "a")
    path.write_text('[{"a": 1},\n {"a": 2}', encoding="utf-8")
    assert "not closed" in rejected(path).reason


# -- XLSX -------------------------------------------------------------------------------------
def valid_xlsx_bytes() -> bytes:
    import openpyxl

    workbook = openpyxl.Workbook()
    workbook.active.append(["standard", "dialect_text"])
    workbook.active.append(["আমি", "মুই"])
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def rewrite_xlsx(path, replacements: dict[str, bytes]) -> None:
    """Copy a valid workbook member by member, replacing or adding parts by hand."""
    with (
        zipfile.ZipFile(io.BytesIO(valid_xlsx_bytes())) as source,
        zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for item in source.infolist():
            target.writestr(
                item.filename, replacements.pop(item.filename, None) or source.read(item.filename)
            )
        for name, data in replacements.items():
            target.writestr(name, data)


def shared_strings_xlsx(path, shared_strings: bytes) -> None:
    """A workbook whose header cell A1 refers to shared string 0 (as Excel writes it)."""
    with zipfile.ZipFile(io.BytesIO(valid_xlsx_bytes())) as source:
        parts = {name: source.read(name) for name in source.namelist()}
    sheet = parts["xl/worksheets/sheet1.xml"]
    start = sheet.index(b'<c r="A1"')
    end = sheet.index(b"</c>", start) + len(b"</c>")
    parts["xl/worksheets/sheet1.xml"] = (
        sheet[:start] + b'<c r="A1" t="s"><v>0</v></c>' + sheet[end:]
    )
    parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(
        b"</Types>",
        b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
        b'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
    )
    parts["xl/_rels/workbook.xml.rels"] = parts["xl/_rels/workbook.xml.rels"].replace(
        b"</Relationships>",
        b'<Relationship Id="rIdSST" Type="http://schemas.openxmlformats.org/'
        b'officeDocument/2006/relationships/sharedStrings" '
        b'Target="sharedStrings.xml"/></Relationships>',
    )
    parts["xl/sharedStrings.xml"] = shared_strings
    rewrite_xlsx(path, parts)


BILLION_LAUGHS = b"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol9 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
]>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="2" uniqueCount="2">
<si><t>&lol9;</t></si><si><t>x</t></si></sst>"""


def test_openpyxl_parses_through_defusedxml():
    import openpyxl

    assert openpyxl.DEFUSEDXML is True


BENIGN_STRINGS = (
    b'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.'
    b'openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1">'
    b"<si><t>standard</t></si></sst>"
)


def test_hand_made_shared_strings_workbook_is_valid(tmp_path):
    """Control for the attack below: the same hand-made structure without a DOCTYPE."""
    path = tmp_path / "sst.xlsx"
    shared_strings_xlsx(path, BENIGN_STRINGS)
    assert list(read_rows(path)) == [(2, {"standard": "আমি", "dialect_text": "মুই"})]


def test_billion_laughs_xlsx_is_refused_before_parsing(tmp_path):
    path = tmp_path / "lol.xlsx"
    shared_strings_xlsx(path, BILLION_LAUGHS)
    error = rejected(path)
    assert "sharedStrings.xml" in error.reason and "DOCTYPE" in error.reason


def test_utf16_encoded_entity_declaration_is_found_too(tmp_path):
    path = tmp_path / "lol16.xlsx"
    shared_strings_xlsx(
        path,
        BILLION_LAUGHS.decode().replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16"),
    )
    assert "DOCTYPE" in rejected(path).reason


def write_zip_bomb(path, megabytes: int = 200) -> None:
    """A real workbook plus one sheet part of ``megabytes`` MB of zeros, written streaming."""
    rewrite_xlsx(path, {})
    chunk = bytes(1 << 20)
    with zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        with archive.open("xl/worksheets/sheet2.xml", "w", force_zip64=True) as member:
            for _ in range(megabytes):
                member.write(chunk)


def test_zip_bomb_xlsx_is_refused_from_the_zip_directory(tmp_path):
    path = tmp_path / "bomb.xlsx"
    write_zip_bomb(path)
    assert path.stat().st_size < 1 << 20  # ~200 MB of zeros in well under 1 MB
    error = rejected(path)
    assert "sheet2.xml" in error.reason and "zip bomb" in error.reason


def test_zip_bomb_over_the_total_size_limit_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(xlsx_reader, "MAX_XLSX_UNCOMPRESSED", 10 * 1024 * 1024)
    path = tmp_path / "bomb.xlsx"
    write_zip_bomb(path, megabytes=20)
    assert "would inflate to 20 MiB" in rejected(path).reason


@pytest.mark.parametrize("content", [b"PK\x03\x04 garbage", b"not a zip at all", b""])
def test_corrupt_or_non_zip_xlsx_is_refused(tmp_path, content):
    path = tmp_path / "broken.xlsx"
    path.write_bytes(content)
    assert "not a valid .xlsx" in rejected(path).reason


def test_truncated_xlsx_is_refused(tmp_path):
    path = tmp_path / "cut.xlsx"
    data = valid_xlsx_bytes()
    path.write_bytes(data[: len(data) // 2])
    rejected(path)


def test_zip_without_a_workbook_is_refused(tmp_path):
    path = tmp_path / "other.xlsx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("hello.txt", "hi")
    assert "not a readable .xlsx workbook" in rejected(path).reason


def test_damaged_sheet_xml_is_refused_not_crashed(tmp_path):
    path = tmp_path / "damaged.xlsx"
    rewrite_xlsx(path, {"xl/worksheets/sheet1.xml": b"<worksheet><sheetData><row r='1'>"})
    rejected(path)


def test_a_100_kb_xlsx_cell_is_refused(tmp_path):
    # openpyxl will not write such a cell (Excel cannot hold it), so edit the part by hand.
    with zipfile.ZipFile(io.BytesIO(valid_xlsx_bytes())) as source:
        sheet = source.read("xl/worksheets/sheet1.xml")
    path = tmp_path / "big.xlsx"
    rewrite_xlsx(
        path,
        {
            "xl/worksheets/sheet1.xml": sheet.replace(
                b"&#2438;&#2478;&#2495;", ("ক" * 100_000).encode()
            )
        },
    )
    error = rejected(path)
    assert (error.line, error.column) == (2, "standard")


def test_clean_xlsx_still_reads(tmp_path):
    path = tmp_path / "ok.xlsx"
    rewrite_xlsx(path, {})
    assert list(read_rows(path)) == [(2, {"standard": "আমি", "dialect_text": "মুই"})]
