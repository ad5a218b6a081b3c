"""import_corpus on real SQLite workspaces: formats, normalisation, dedup, all-or-nothing."""

from __future__ import annotations

import pytest

from engine.errors import ImportRejected, Setting, setting_usage
from engine.importing.importers import ImportCancelled, import_corpus

from .tablefiles import ENCODINGS, dump

LONG = [
    {
        "standard": "আমি ভাত খাই",
        "dialect_text": "মুই ভাত খাই",
        "dialect": "barishal",
        "district": "বরিশাল",
        "split": "train",
    },
    {
        "standard": "তুমি কোথায় যাও?",
        "dialect_text": "তুমি কই যাও?",
        "dialect": "Sylhet",
        "district": "",
        "split": "TEST",
    },
    {
        "standard": "সে বাড়ি গেছে",
        "dialect_text": "হে বাড়িত গেছে",
        "dialect": "noakhali",
        "district": "",
        "split": "validation_or_unknown",
    },
]
WIDE = [
    {"standard": "আমি ভাত খাই", "barishal": "মুই ভাত খাই", "sylhet": "আমি ভাত খাই", "split": "train"},
    {"standard": "সে বাড়ি গেছে", "barishal": "হে বাড়ি গ্যাছে", "sylhet": "", "split": "dev"},
]


def pairs(ws) -> list[dict]:
    return ws.query(
        "SELECT standard_text, dialect_text, dialect, district, split, source "
        "FROM sentence_pairs ORDER BY id"
    )


@pytest.mark.parametrize(
    "suffix, encoding",
    [(suffix, encoding) for suffix in (".csv", ".tsv", ".json", ".jsonl") for encoding in ENCODINGS]
    + [(".xlsx", None)],
)
def test_long_format_in_every_format_and_encoding(workspace, table_file, suffix, encoding):
    path = table_file(f"long{suffix}", LONG, encoding=encoding or "utf-8")
    report = import_corpus(workspace, path)
    assert (report.rows_read, report.records, report.inserted) == (3, 3, 3)
    assert report.name == "long" and report.file_format == suffix[1:]
    rows = pairs(workspace)
    assert [(r["dialect"], r["split"]) for r in rows] == [
        ("barishal", "train"),
        ("noakhali", "validation"),
        ("sylhet", "test"),
    ]
    first_line = 1 if suffix == ".jsonl" else 2
    assert rows[0]["district"] == "বরিশাল" and rows[0]["source"] == f"long{suffix}:{first_line}"


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".json", ".jsonl", ".xlsx"])
def test_wide_format_in_every_format(workspace, table_file, suffix):
    path = table_file(f"wide{suffix}", WIDE)
    report = import_corpus(workspace, path, fmt="wide")
    assert report.records == 3 and report.inserted == 3 and report.empty_cells_skipped == 1
    assert report.by_dialect["barishal"]["splits"] == {"train": 1, "validation": 1}
    assert report.by_dialect["sylhet"]["pairs"] == 1
    assert workspace.scalar("SELECT count(*) FROM sentence_pairs") == 3


def test_wide_format_with_explicit_dialect_columns(workspace, table_file):
    rows = [{"std": "আমি ভাত খাই", "Barisal text": "মুই ভাত খাই", "other": "x"}]
    path = table_file("mapped.csv", rows)
    report = import_corpus(
        workspace,
        path,
        fmt="wide",
        standard_col="std",
        dialect_cols={"barishal": "Barisal text"},
        split="test",
        district="বরিশাল",
    )
    assert report.inserted == 1
    assert pairs(workspace)[0]["split"] == "test" and pairs(workspace)[0]["district"] == "বরিশাল"
    with pytest.raises(ImportRejected, match="unknown dialect 'khulna'"):
        import_corpus(
            workspace, path, fmt="wide", standard_col="std", dialect_cols={"khulna": "other"}
        )


def test_wide_file_without_dialect_columns_is_refused(workspace, table_file):
    path = table_file("none.csv", [{"standard": "আমি", "translation": "মুই"}])
    with pytest.raises(ImportRejected, match="no dialect columns"):
        import_corpus(workspace, path, fmt="wide")


def test_nukta_spellings_dedupe_and_zwj_zwnj_are_kept(workspace, table_file):
    precomposed = "আমি \u09df"  # য় as one code point
    decomposed = "আমি \u09af\u09bc"  # য + nukta
    zwj = "র\u200d্যাব"  # ZWJ selects the ya-phala form: kept
    zwnj = "ক্\u200cষ"  # ZWNJ prevents the conjunct: kept
    rows = [
        {"standard": "যাও", "dialect_text": precomposed, "dialect": "sylhet"},
        {"standard": "যাও", "dialect_text": decomposed, "dialect": "sylhet"},
        {"standard": "র‍্যাব", "dialect_text": zwj, "dialect": "sylhet"},
        {"standard": "ক্ষ", "dialect_text": zwnj, "dialect": "sylhet"},
        {"standard": "ক্ষ", "dialect_text": "ক্ষ", "dialect": "sylhet"},
    ]
    report = import_corpus(workspace, table_file("nukta.csv", rows))
    assert report.records == 5 and report.duplicates_in_file == 1 and report.inserted == 4
    texts = [r["dialect_text"] for r in pairs(workspace)]
    assert texts[0] == decomposed  # NFC decomposes U+09DF: one canonical spelling
    assert "\u200d" in texts[1] and "\u200c" in texts[2] and texts[3] == "ক্ষ"


def test_reimport_is_idempotent_and_says_so(workspace, table_file):
    path = table_file("long.csv", LONG)
    first = import_corpus(workspace, path)
    before = dump(workspace)
    again = import_corpus(workspace, path)
    assert (first.inserted, again.inserted, again.already_present) == (3, 0, 3)
    assert again.target_id == first.target_id
    assert all(v["already_present"] == 1 for v in again.by_dialect.values())
    assert dump(workspace) == before


def test_a_bad_row_at_line_9000_commits_nothing(workspace, tmp_path):
    path = tmp_path / "big.csv"
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("standard,dialect_text,dialect\n")
        for line in range(2, 10_002):
            dialect = "khulna" if line == 9_000 else "sylhet"
            handle.write(f"বাক্য {line},বাইক্য {line},{dialect}\n")
    before = dump(workspace)
    with pytest.raises(ImportRejected) as info:
        import_corpus(workspace, path)
    assert (info.value.line, info.value.column) == (9_000, "dialect")
    assert "known codes: barishal, chittagong" in str(info.value)
    assert dump(workspace) == before
    assert workspace.scalar("SELECT count(*) FROM corpora") == 0


@pytest.mark.parametrize(
    "text, reason",
    [
        ("à¦†à¦®à¦¿ à¦­à¦¾à¦¤", "mojibake"),
        ("Avgvi †mvbvi evsjv", "Bijoy"),
    ],
)
def test_legacy_and_broken_encodings_are_refused_naming_the_cell(
    workspace, table_file, text, reason
):
    rows = LONG[:2] + [{"standard": "আমার সোনার বাংলা", "dialect_text": text, "dialect": "sylhet"}]
    path = table_file("bad.csv", rows)
    before = dump(workspace)
    with pytest.raises(ImportRejected, match=reason) as info:
        import_corpus(workspace, path)
    assert (info.value.line, info.value.column) == (4, "dialect_text")
    assert str(info.value).startswith(f"{path}, line 4, column 'dialect_text': ")
    assert dump(workspace) == before


def test_empty_required_cell_and_missing_column_are_refused(workspace, table_file):
    rows = [{"standard": "আমি", "dialect_text": " ", "dialect": "sylhet"}]
    with pytest.raises(ImportRejected, match="empty cell") as info:
        import_corpus(workspace, table_file("empty.csv", rows))
    assert info.value.column == "dialect_text"
    with pytest.raises(
        ImportRejected,
        match=f"no column 'regional'.*{setting_usage(Setting.DIALECT_TEXT_COL)}.*'standard', 'dialect_text'",
    ):
        import_corpus(workspace, table_file("cols.csv", rows), dialect_text_col="regional")


def test_unknown_split_and_standard_as_dialect_are_refused(workspace, table_file):
    rows = [{"standard": "আমি", "dialect_text": "মুই", "dialect": "sylhet", "split": "holdout"}]
    with pytest.raises(ImportRejected, match="unknown split 'holdout'"):
        import_corpus(workspace, table_file("split.csv", rows))
    with pytest.raises(ImportRejected, match="not a dialect"):
        import_corpus(workspace, table_file("std.csv", rows), dialect="standard")


def labelled_rows(label: str, n: int = 30) -> list[dict]:
    return [
        {"bangla_speech": f"আমি {i} টা বই পড়ি", "regional": f"{label} মুই {i} টা বই পড়ি"}
        for i in range(n)
    ]


def test_leading_region_label_is_detected_and_kept_unless_asked(workspace, table_file):
    path = table_file("vashantor_sylhet.csv", labelled_rows("সিলেট"))
    report = import_corpus(
        workspace, path, dialect="sylhet", standard_col="bangla_speech", dialect_text_col="regional"
    )
    assert report.leading_tokens["sylhet"] == {
        "token": "সিলেট",
        "texts": 30,
        "count": 30,
        "share": 1.0,
        "stripped": 0,
    }
    assert any("'সিলেট'" in w and "100.0%" in w for w in report.warnings)
    assert pairs(workspace)[0]["dialect_text"].startswith("সিলেট ")


def test_strip_leading_token_auto_and_explicit(workspace, table_file):
    path = table_file("labelled.csv", labelled_rows("সিলেট"))
    report = import_corpus(
        workspace,
        path,
        name="auto",
        dialect="sylhet",
        standard_col="bangla_speech",
        dialect_text_col="regional",
        strip_leading_token="auto",
    )
    assert report.leading_tokens["sylhet"]["stripped"] == 30
    texts = [
        r["dialect_text"]
        for r in workspace.query(
            "SELECT dialect_text FROM sentence_pairs WHERE corpus_id = ?", (report.target_id,)
        )
    ]
    assert texts[0] == "মুই 0 টা বই পড়ি"
    explicit = import_corpus(
        workspace,
        path,
        name="explicit",
        dialect="sylhet",
        standard_col="bangla_speech",
        dialect_text_col="regional",
        strip_leading_token="সিলেট",
        allow_duplicate_content=True,  # the same file again on purpose: a second copy
    )
    assert explicit.inserted == 30 and explicit.leading_tokens["sylhet"]["stripped"] == 30


def test_no_label_detected_when_the_standard_side_starts_alike(workspace, table_file):
    rows = [
        {"standard": f"আমি {i}", "dialect_text": f"আমি {i} খাই", "dialect": "sylhet"}
        for i in range(30)
    ]
    report = import_corpus(workspace, table_file("alike.csv", rows), strip_leading_token="auto")
    assert report.leading_tokens == {}
    assert report.warnings == ["no leading label token detected; nothing was stripped"]


def test_stripping_that_leaves_nothing_is_refused(workspace, table_file):
    rows = labelled_rows("সিলেট") + [{"bangla_speech": "হ্যাঁ", "regional": "সিলেট"}]
    with pytest.raises(ImportRejected, match="nothing left") as info:
        import_corpus(
            workspace,
            table_file("short.csv", rows),
            dialect="sylhet",
            standard_col="bangla_speech",
            dialect_text_col="regional",
            strip_leading_token="auto",
        )
    assert info.value.line == 32
    assert workspace.scalar("SELECT count(*) FROM sentence_pairs") == 0


def test_progress_is_reported_and_cancel_writes_nothing(workspace, tmp_path):
    path = tmp_path / "many.csv"
    path.write_text(
        "standard,dialect_text,dialect\n"
        + "".join(f"বাক্য {i},বাইক্য {i},sylhet\n" for i in range(1200)),
        encoding="utf-8",
    )
    calls = []
    import_corpus(workspace, path, progress=lambda d, t, n: calls.append((d, t, n)))
    assert any("rows read" in n for _, _, n in calls) and calls[-1][2] == "written"
    with pytest.raises(ImportCancelled):
        import_corpus(workspace, path, name="other", cancelled=lambda: True)
    assert workspace.scalar("SELECT count(*) FROM corpora") == 1
