"""import_questions: types, domains, source variants, dedup and all-or-nothing."""

from __future__ import annotations

import pytest

from engine.errors import ImportRejected
from engine.importing.importers import import_questions

from .tablefiles import dump

QUESTIONS = [
    {
        "id": "q1",
        "question": "কম্পিউটার কী?",
        "question_type": "1",
        "domain": "technology",
        "gloss_en": "What is a computer?",
        "sylhet": "কম্পিউটার কিতা?",
    },
    {
        "id": "q2",
        "question": "ব্যাংক ও বিমার পার্থক্য কী?",
        "question_type": "২",
        "domain": "Business and Economics",
        "gloss_en": "",
        "sylhet": "",
    },
    {
        "id": "q3",
        "question": "হৃৎপিণ্ডের কাজ কী?",
        "question_type": "",
        "domain": "",
        "gloss_en": "What does the heart do?",
        "sylhet": "",
    },
]


@pytest.mark.parametrize("suffix", [".csv", ".json", ".jsonl", ".xlsx"])
def test_questions_with_optional_columns_and_source_variants(workspace, table_file, suffix):
    report = import_questions(workspace, table_file(f"base{suffix}", QUESTIONS))
    assert (report.rows_read, report.inserted, report.variants_inserted) == (3, 3, 4)
    rows = workspace.query(
        "SELECT ext_id, question_type, domain, gloss_en FROM questions ORDER BY id"
    )
    assert rows == [
        {
            "ext_id": "q1",
            "question_type": 1,
            "domain": "Technology",
            "gloss_en": "What is a computer?",
        },
        {"ext_id": "q2", "question_type": 2, "domain": "Business & Economics", "gloss_en": ""},
        {
            "ext_id": "q3",
            "question_type": None,
            "domain": None,
            "gloss_en": "What does the heart do?",
        },
    ]
    variants = workspace.query(
        "SELECT dialect, text, provenance, status FROM variants ORDER BY dialect, id"
    )
    assert [(v["dialect"], v["provenance"], v["status"]) for v in variants] == [
        ("standard", "source", "gold")
    ] * 3 + [("sylhet", "source", "reviewed")]
    assert variants[-1]["text"] == "কম্পিউটার কিতা?"
    assert report.by_dialect["sylhet"] == {"variants": 1, "inserted": 1, "already_present": 0}


def test_xlsx_numeric_question_type(workspace, table_file):
    rows = [{"question": "কম্পিউটার কী?", "question_type": 3}]
    import_questions(workspace, table_file("typed.xlsx", rows))
    assert workspace.scalar("SELECT question_type FROM questions") == 3


@pytest.mark.parametrize(
    "column, value, message",
    [
        ("question_type", "5", "question type must be 1, 2, 3 or 4"),
        ("question_type", "1.5", "question type must be"),
        ("domain", "Cooking", "unknown domain 'Cooking'"),
        ("question", "Avgvi †mvbvi evsjv", "Bijoy"),
        ("question", "", "empty cell"),
    ],
)
def test_invalid_cells_are_refused_and_nothing_is_written(
    workspace, table_file, column, value, message
):
    rows = [dict(r) for r in QUESTIONS]
    rows[2][column] = value
    path = table_file("bad.csv", rows)
    before = dump(workspace)
    with pytest.raises(ImportRejected, match=message) as info:
        import_questions(workspace, path)
    assert (info.value.line, info.value.column) == (4, column)
    assert dump(workspace) == before


def test_duplicate_questions_and_reimport(workspace, table_file):
    rows = QUESTIONS + [{"id": "q4", "question": " কম্পিউটার  কী? ", "sylhet": "অন্য"}]
    path = table_file("dups.csv", rows)
    first = import_questions(workspace, path, name="base")
    assert (first.records, first.duplicates_in_file, first.inserted) == (4, 1, 3)
    assert any("first at line 5" in w for w in first.warnings)
    before = dump(workspace)
    again = import_questions(workspace, path, name="base")
    assert (again.inserted, again.already_present, again.variants_inserted) == (0, 3, 0)
    assert dump(workspace) == before


def test_named_columns_must_exist_default_ones_are_optional(workspace, table_file):
    rows = [{"term": "মরিচ", "question": "কাঁচা লঙ্কা কী?", "category": "Food"}]
    report = import_questions(workspace, table_file("blanck.csv", rows), id_col="term")
    assert report.inserted == 1
    assert workspace.scalar("SELECT ext_id FROM questions") == "মরিচ"
    with pytest.raises(ImportRejected, match="no column 'domain_name'"):
        import_questions(workspace, table_file("b2.csv", rows), domain_col="domain_name")
