"""export_table: Excel-safe CSV/XLSX (BOM, formula neutralisation, numbers), exact JSONL."""

from __future__ import annotations

import csv
import json

import pytest

from engine.errors import UserError
from engine.importing.exporters import export_table, exportable, exportable_names
from engine.importing.importers import import_corpus

# Cells a spreadsheet would run as formulas. The importer trims white space, so TAB/CR
# starts reach exports only from other tables (model outputs); the view below has them.
FORMULAS = ['=HYPERLINK("http://x","ক্লিক")', "+1+1", "-2+3", "@SUM(A1)"]
CONTROL = ["\tকথা", "\rকথা"]


@pytest.fixture
def filled(workspace, table_file):
    rows = [
        {"standard": f"বাক্য {i}", "dialect_text": text, "dialect": "sylhet"}
        for i, text in enumerate(FORMULAS + ["সাধারণ বাক্য"])
    ]
    import_corpus(workspace, table_file("hostile.csv", rows))
    workspace.conn.execute(
        "CREATE VIEW numbers AS SELECT 1.5 AS score, -2 AS negative, "
        "'-2' AS negative_text, NULL AS empty, 'বাংলা' AS text"
    )
    workspace.conn.execute(
        "CREATE VIEW control AS SELECT char(9) || 'কথা' AS text UNION ALL SELECT char(13) || 'কথা'"
    )
    return workspace


def read_csv(path) -> list[list[str]]:
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return list(csv.reader(handle))


def test_csv_has_a_bom_and_neutralised_formulas(filled, tmp_path):
    path = tmp_path / "pairs.csv"
    assert export_table(filled, "sentence_pairs", path) == 5
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")  # Excel then reads UTF-8 Bengali
    rows = read_csv(path)
    column = rows[0].index("dialect_text")
    assert [r[column] for r in rows[1:]] == ["'" + f for f in FORMULAS] + ["সাধারণ বাক্য"]
    assert rows[1][0] == "1"
    export_table(filled, "control", tmp_path / "control.csv")
    assert read_csv(tmp_path / "control.csv") == [["text"]] + [["'" + c] for c in CONTROL]


def test_csv_numbers_stay_numbers_and_number_like_text_is_quoted(filled, tmp_path):
    path = tmp_path / "numbers.csv"
    export_table(filled, "numbers", path)
    assert read_csv(path) == [
        ["score", "negative", "negative_text", "empty", "text"],
        ["1.5", "-2", "'-2", "", "বাংলা"],
    ]


def test_xlsx_keeps_numbers_numeric_and_text_as_text(filled, tmp_path):
    import openpyxl

    path = tmp_path / "numbers.xlsx"
    export_table(filled, "numbers", path)
    sheet = openpyxl.load_workbook(path).active
    values = [c.value for c in sheet[2]]
    assert values == [1.5, -2, "'-2", None, "বাংলা"]
    assert [c.data_type for c in sheet[2]] == ["n", "n", "s", "n", "s"]

    path = tmp_path / "pairs.xlsx"
    export_table(filled, "sentence_pairs", path, fmt="xlsx")
    sheet = openpyxl.load_workbook(path).active
    header = [c.value for c in sheet[1]]
    column = header.index("dialect_text")
    texts = [row[column].value for row in sheet.iter_rows(min_row=2)]
    assert texts == ["'" + f for f in FORMULAS] + ["সাধারণ বাক্য"]
    assert all(row[column].data_type == "s" for row in sheet.iter_rows(min_row=2))
    assert isinstance(sheet.cell(row=2, column=1).value, int)


def test_jsonl_keeps_values_exactly(filled, tmp_path):
    path = tmp_path / "pairs.jsonl"
    assert export_table(filled, "sentence_pairs", path) == 5
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [r["dialect_text"] for r in rows[:4]] == FORMULAS
    assert rows[0]["id"] == 1


def test_only_known_tables_and_views_are_exported(filled, tmp_path):
    assert {"sentence_pairs", "numbers", "questions"} <= set(exportable_names(filled))
    with pytest.raises(UserError, match="no table or view"):
        export_table(filled, "sentence_pairs; DROP TABLE corpora", tmp_path / "x.csv")
    with pytest.raises(UserError, match="no table or view"):
        export_table(filled, "sqlite_master", tmp_path / "x.csv")
    with pytest.raises(UserError, match="cannot tell the export format"):
        export_table(filled, "corpora", tmp_path / "x.txt")
    assert filled.scalar("SELECT count(*) FROM corpora") == 1


def test_failed_export_leaves_no_file(filled, tmp_path):
    filled.conn.execute("CREATE VIEW huge AS SELECT printf('%.40000c', 'x') AS text")
    path = tmp_path / "huge.xlsx"
    with pytest.raises(UserError, match="32,767"):
        export_table(filled, "huge", path)
    assert list(tmp_path.glob("huge*")) == [] and list(tmp_path.glob(".huge*")) == []


def test_listing_and_export_of_any_table_or_view_through_sqlite_utils(filled, tmp_path):
    """Tables and views come from sqlite-utils' schema reads, with their row counts; a name
    that needs quoting exports, and every row arrives as a plain SELECT reads it."""
    odd = '"odd ""name"""'  # the table is called: odd "name"
    filled.conn.execute(f'CREATE TABLE {odd} (id INTEGER PRIMARY KEY, "a b" TEXT)')
    filled.conn.execute(f"INSERT INTO {odd} (\"a b\") VALUES ('x'), (NULL)")
    listing = {t["name"]: t for t in exportable(filled)}
    assert listing["numbers"] == {"name": "numbers", "type": "view", "rows": 1}
    assert listing['odd "name"'] == {"name": 'odd "name"', "type": "table", "rows": 2}
    pairs = filled.scalar("SELECT count(*) FROM sentence_pairs")
    assert listing["sentence_pairs"]["rows"] == pairs > 0
    assert not any(name.startswith("sqlite_") for name in listing)
    assert sorted(listing) == exportable_names(filled)
    out = tmp_path / "odd.jsonl"
    assert export_table(filled, 'odd "name"', out) == 2
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert records == [{"id": 1, "a b": "x"}, {"id": 2, "a b": None}]
    out = tmp_path / "pairs.jsonl"
    assert export_table(filled, "sentence_pairs", out) == pairs
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert records == filled.query("SELECT * FROM sentence_pairs")
