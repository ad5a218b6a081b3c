"""A nested JSON value in a column the import never reads does not refuse the file; in a
column it reads it still does, naming line and column; unused columns are listed."""

from __future__ import annotations

import json

import pytest

from engine.errors import ImportRejected
from engine.importing.scored_import import import_scored_translations
from engine.importing.tabular import TabularFile


def _write(path, meta_in="meta"):
    rows = [
        {
            "src": f"বাক্য {i}",
            "mt": f"বাইক্য {i}",
            "ref": f"বাক্যি {i}",
            "score": i % 5 + 1,
            meta_in: {"annotator_notes": ["x", i]},  # WMT-style nested metadata
        }
        for i in range(6)
    ]
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), "utf-8")


def _import(workspace, path):
    return import_scored_translations(
        workspace,
        path,
        human_scale=(1, 5),
        source_col="src",
        hyp_col="mt",
        ref_cols="ref",
        system="S",
        score_cols="score",
    )


def test_nested_value_in_an_unread_column_is_fine(workspace, tmp_path):
    path = tmp_path / "wmt.jsonl"
    _write(path)
    report = _import(workspace, path)
    assert report.records == 6 and report.unused_columns == ["meta"]


def test_nested_value_in_a_read_column_is_refused(workspace, tmp_path):
    path = tmp_path / "wmt.jsonl"
    _write(path, meta_in="ref")
    with pytest.raises(ImportRejected) as info:
        _import(workspace, path)
    assert (info.value.line, info.value.column) == (1, "ref")
    assert "nested JSON value" in str(info.value)


def test_plain_tabular_reading_still_refuses_nested_values(tmp_path):
    path = tmp_path / "wmt.jsonl"
    _write(path)
    with TabularFile(path) as table, pytest.raises(ImportRejected, match="nested JSON"):
        list(table)
