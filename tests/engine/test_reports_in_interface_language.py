"""The import dialog's reports (corpus, questions, items, scored translations, probe sets)
speak the interface language: under Bengali, no English word and no ASCII digit is left in
their own wording, only in the names, codes and engine messages they quote."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from engine.bias.tasks import describe_probe_report
from engine.i18n import set_language
from engine.importing import tasks as import_tasks
from engine.importing.tasks import describe_report

ROOT = Path(__file__).resolve().parents[2]
ASCII_WORDING = re.compile(r"[A-Za-z0-9]")
WARNING = "no barishal pairs in the corpus"  # an engine message, quoted as it is


@pytest.fixture
def bengali():
    assert set_language("bn")
    yield
    set_language("en")


def counted(count: int) -> dict:
    return {"count": count, "first_lines": list(range(2, 2 + min(count, 10)))}


def import_report(kind: str, **extra) -> dict:
    merges = {k: counted(3) for k in import_tasks.MERGE_KINDS}
    return {
        "kind": kind,
        "name": "নমুনা",
        "rows_read": 12345,
        "inserted": 1200,
        "already_present": 3,
        "duplicates_in_file": 1,
        "merges": {**merges, import_tasks.MERGE_KINDS[0]: counted(1)},
        "skipped_empty": counted(14),
        "variants_inserted": 40,
        "empty_cells_skipped": 2,
        "dialect_names": {"ctgn": "chittagong"},
        "bijoy_converted": 5,
        "unused_columns": ["note"],
        "warnings": [WARNING],
        **extra,
    }


REPORTS = {
    "corpus": import_report(
        "corpus",
        by_dialect={
            "chittagong": {"pairs": 1000, "inserted": 900, "splits": {"train": 800}},
            "sylhet": {"pairs": 10, "inserted": 10},
        },
    ),
    "questions": import_report(
        "questions", by_dialect={"sylhet": {"variants": 60, "inserted": 60}}
    ),
    "items": import_report(
        "items", by_dialect={"sylhet": {"items": 300, "splits": {"test": 300, "train": 0}}}
    ),
    "scored-translations": import_report(
        "scored-translations", by_dialect={"chittagong": {"segments": 1234}}
    ),
}
# the data each report quotes: names, codes and the engine's message
QUOTED = ("ctgn", "chittagong", "sylhet", "note", WARNING)


def own_wording(line: str, quoted=QUOTED) -> str:
    for text in sorted(quoted, key=len, reverse=True):
        line = line.replace(text, "")
    return line


@pytest.mark.parametrize("kind", sorted(REPORTS))
def test_an_import_report_in_bengali_has_no_english_wording(bengali, kind):
    lines = describe_report(REPORTS[kind])
    assert lines[0].startswith("নমুনা: ১২,৩৪৫")
    assert any("১,২০০" in line for line in lines)
    assert any(WARNING in line for line in lines)  # quoted, not translated
    leftovers = [line for line in lines if ASCII_WORDING.search(own_wording(line))]
    assert leftovers == []


def test_the_english_report_reads_as_before():
    lines = describe_report(REPORTS["scored-translations"])
    assert lines[0] == (
        "নমুনা: 12,345 rows read, 1,200 new segments, 3 already present, 1 repeated in the file"
    )
    assert "identical pairs merged: 1 (line 2)" in lines
    assert (
        "rows skipped for an empty required cell: 14 (lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, …)"
        in lines
    )
    assert "40 human scores written" in lines and "  chittagong: 1,234 segments" in lines
    assert lines[-1] == f"warning: {WARNING}"


def test_every_merge_kind_the_importers_count_is_in_the_catalogue():
    """The importers name their merges in English; the report translates each of them."""
    sources = (
        "engine/importing/importers.py",
        "engine/importing/scored_import.py",
        "engine/understanding/items.py",
    )
    named = set()
    for source in sources:
        tree = ast.parse((ROOT / source).read_text(encoding="utf-8"))
        named |= {
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and re.search(r" merged$|numbered by position$|another annotator's score", node.value)
        }
    assert named and named <= set(import_tasks.MERGE_KINDS), named - set(import_tasks.MERGE_KINDS)


PROBES = {
    "kind": "probes",
    "probe_kind": "template",
    "name": "probes_gender",
    "topic": "gender",
    "groups": ["male", "female"],
    "inserted": 1500,
    "already_present": 2,
    "by_category": {"": 3, "পেশা": 1497},
    "warnings": [WARNING],
}
GENERATED = {
    "kind": "probes",
    "name": "sample-gender, sample-religion",
    "inserted": 20,
    "already_present": 0,
    "sets": [
        {**PROBES, "kind": "template", "name": "sample-gender"},
        {**PROBES, "kind": "natural", "name": "sample-religion", "probe_kind": "natural"},
    ],
}


@pytest.mark.parametrize("report", [PROBES, GENERATED], ids=["imported", "generated"])
def test_a_probe_report_in_bengali_has_no_english_wording(bengali, report):
    lines = describe_probe_report(report)
    quoted = ("probes_gender", "sample-gender", "sample-religion", "gender", "male", "female")
    assert any("১,৫০০" in line for line in lines) and any("১,৪৯৭" in line for line in lines)
    # x and y name the two groups as the bias chart does, in every language
    leftovers = [
        line
        for line in lines
        if ASCII_WORDING.search(re.sub(r"\b[xy] =", "", own_wording(line, (*quoted, WARNING))))
    ]
    assert leftovers == []


def test_the_english_probe_report_reads_as_before():
    lines = describe_probe_report(PROBES)
    assert lines[0] == (
        "probe set 'probes_gender' (template, gender: x = male, y = female): 1,500 new, "
        "2 already present"
    )
    assert "  (no category): 3" in lines and f"warning: {WARNING}" in lines
