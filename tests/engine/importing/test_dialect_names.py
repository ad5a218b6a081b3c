"""Dialects as data: aliases, --dialect-map, adding dialects, suggestions, unused columns."""

from __future__ import annotations

import csv

import pytest

from engine.errors import ImportRejected, Setting, Step, UserError, setting, setting_usage
from engine.importing.dialects import DialectResolver, add_dialect, list_dialects
from engine.importing.importers import import_corpus, import_questions


def _reject(msg):
    raise UserError(msg)


@pytest.mark.parametrize(
    "name, code",
    [
        ("noyakhali", "noakhali"),
        ("Nowakhali", "noakhali"),
        ("chattogram", "chittagong"),
        ("Chatgaiya", "chittagong"),
        ("chat-gaiya", "chittagong"),
        ("sylheti", "sylhet"),
        ("barisal", "barishal"),
        ("চাটগাঁইয়া", "chittagong"),
        ("সিলেটি", "sylhet"),
        ("Mymensingh", "mymensingh"),
        ("নোয়াখালী", "noakhali"),  # decomposed য় (NFD) still matches
    ],
)
def test_builtin_aliases_resolve(workspace, name, code):
    assert DialectResolver(workspace).resolve(name, _reject) == code


def test_unknown_name_lists_codes_and_suggests_the_closest(workspace):
    with pytest.raises(UserError) as info:
        DialectResolver(workspace).resolve("noakhalli", _reject)
    message = str(info.value)
    assert "did you mean 'noakhali'" in message
    assert "known codes: barishal, chittagong" in message
    assert [r.name for r in info.value.references] == [Setting.DIALECT_MAP, Step.ADD_DIALECT]


def test_standard_is_not_a_pair_dialect(workspace):
    with pytest.raises(UserError, match="standard Bengali, the reference"):
        DialectResolver(workspace).resolve("প্রমিত", _reject)


def test_dialect_map_and_its_errors(workspace):
    resolver = DialectResolver(workspace, {"ctgn": "chittagong"})
    assert resolver.resolve("CTGN", _reject) == "chittagong"
    with pytest.raises(UserError, match="'khulna' is not a dialect code"):
        DialectResolver(workspace, {"x": "khulna"})


def test_add_dialect_then_import_by_its_alias(workspace, tmp_path):
    row = add_dialect(
        workspace,
        "comilla",
        name_en="Comilla",
        name_bn="কুমিল্লার ভাষা",
        region="Chattogram",
        aliases=["cumilla", "কুমিল্লা"],
    )
    assert row["aliases"] == ["cumilla", "কুমিল্লা"] and row["region"] == "Chattogram"
    assert any(d["code"] == "comilla" for d in list_dialects(workspace))
    with pytest.raises(UserError, match="already names dialect 'sylhet'"):
        add_dialect(workspace, "comilla", name_en="", name_bn="", aliases=["sylheti"])
    with pytest.raises(
        UserError, match=f"needs {setting(Setting.NAME_EN)} and {setting(Setting.NAME_BN)}"
    ):
        add_dialect(workspace, "khulna", name_en="Khulna", name_bn="")
    with pytest.raises(UserError, match="lower-case"):
        add_dialect(workspace, "Khulna!", name_en="K", name_bn="খ")
    path = tmp_path / "c.csv"
    path.write_text("standard,dialect_text,dialect\nআমি ভাত খাই,আঁই ভাত খাই,কুমিল্লা\n", "utf-8")
    report = import_corpus(workspace, path)
    assert report.by_dialect["comilla"]["inserted"] == 1
    assert report.dialect_names == {"কুমিল্লা": "comilla"}


def test_alias_named_five_dialect_file_imports_in_one_command(workspace, shared_data, tmp_path):
    """The real multiway Vashantor file with its columns renamed as a public file names them."""
    rename = {
        "barishal": "barisal",
        "chittagong": "chattogram",
        "mymensingh": "Mymensingh",
        "noakhali": "noyakhali",
        "sylhet": "sylheti",
    }
    source = shared_data / "vashantor" / "vashantor_multiway.csv"
    out = tmp_path / "five.csv"
    with open(source, encoding="utf-8") as fin, open(out, "w", encoding="utf-8", newline="") as f:
        reader = csv.DictReader(fin)
        names = [rename.get(c, c) for c in reader.fieldnames] + ["notes"]
        writer = csv.writer(f)
        writer.writerow(names)
        for row in list(reader)[:200]:
            writer.writerow([row[c] for c in reader.fieldnames] + ["x"])
    report = import_corpus(
        workspace, out, fmt="wide", standard_col="bangla_speech", split_col="vashantor_split"
    )
    assert sorted(report.by_dialect) == sorted(rename)
    assert report.records == 1000 and report.inserted == 1000
    assert report.dialect_names["noyakhali"] == "noakhali"
    assert report.unused_columns == ["notes"]


def test_missing_column_names_the_option_and_lists_columns(workspace, tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("bangla,regional,region\nআমি,আঁই,sylhet\n", "utf-8")
    with pytest.raises(ImportRejected) as info:
        import_corpus(workspace, path)
    assert setting_usage(Setting.STANDARD_COL) in str(
        info.value
    ) and "'bangla', 'regional', 'region'" in str(info.value)
    with pytest.raises(ImportRejected, match=setting_usage(Setting.DIALECT_COL)):
        import_corpus(workspace, path, standard_col="bangla", dialect_text_col="regional")
    report = import_corpus(
        workspace, path, standard_col="bangla", dialect_text_col="regional", dialect_col="region"
    )
    assert report.inserted == 1 and report.unused_columns == []


def test_questions_use_dialect_aliases_in_wide_columns(workspace, tmp_path):
    path = tmp_path / "q.csv"
    path.write_text("question,chatgaiya,comment\nতুমি কেমন আছ?,তুই কেন আছত?,x\n", "utf-8")
    report = import_questions(workspace, path)
    assert report.by_dialect["chittagong"]["inserted"] == 1
    assert report.unused_columns == ["comment"]
