"""Question files with dialect variants: wide columns, a long dialect field, chosen status."""

from __future__ import annotations

import pytest

from engine.errors import ImportRejected, Setting, UserError, setting
from engine.importing.importers import import_questions

LONG = (
    "id,dialect,question,domain\n"
    "q1,standard,কম্পিউটার কী?,Technology\n"
    "q1,chatgaiya,কম্পিউটার কিয়া?,\n"
    "q1,sylhet,কম্পিউটার কিতা?,\n"
    "q2,standard,ভাত কীভাবে রান্না করে?,\n"
    "q2,নোয়াখালী,ভাত কেন্নে রান্দে?,\n"
)


def variants(ws):
    return ws.query(
        "SELECT q.ext_id, v.dialect, v.status, v.provenance FROM variants v "
        "JOIN questions q ON q.id = v.question_id ORDER BY q.ext_id, v.dialect"
    )


def test_long_file_dialect_field_becomes_reviewed_variants(workspace, tmp_path):
    path = tmp_path / "long.csv"
    path.write_text(LONG, "utf-8")
    report = import_questions(workspace, path)
    assert report.records == 2 and report.inserted == 2 and report.variant_status == "reviewed"
    assert workspace.scalar("SELECT count(*) FROM questions") == 2
    got = {(r["ext_id"], r["dialect"]): r["status"] for r in variants(workspace)}
    assert got == {
        ("q1", "chittagong"): "reviewed",
        ("q1", "standard"): "gold",
        ("q1", "sylhet"): "reviewed",
        ("q2", "noakhali"): "reviewed",
        ("q2", "standard"): "gold",
    }
    assert workspace.scalar("SELECT domain FROM questions WHERE ext_id = 'q1'") == "Technology"


def test_gold_only_when_asked_and_bad_status_refused(workspace, tmp_path):
    path = tmp_path / "long.csv"
    path.write_text(LONG, "utf-8")
    import_questions(workspace, path, variant_status="gold")
    assert {r["status"] for r in variants(workspace)} == {"gold"}
    with pytest.raises(UserError, match="variant status must be one of"):
        import_questions(workspace, path, name="x", variant_status="approved")


def test_long_file_problems_name_line_and_field(workspace, tmp_path):
    no_standard = tmp_path / "a.csv"
    no_standard.write_text("id,dialect,question\nq1,sylhet,কিতা?\n", "utf-8")
    with pytest.raises(ImportRejected, match="line 2, column 'dialect'.*no standard row"):
        import_questions(workspace, no_standard)
    no_id = tmp_path / "b.csv"
    no_id.write_text("dialect,question\nsylhet,কিতা?\n", "utf-8")
    with pytest.raises(ImportRejected, match=f"needs an id column.*{setting(Setting.ID_COL)}"):
        import_questions(workspace, no_id)
    twice = tmp_path / "c.csv"
    twice.write_text("id,dialect,question\nq1,standard,কী?\nq1,standard,কী কী?\n", "utf-8")
    with pytest.raises(ImportRejected, match="line 3.*already has a standard text"):
        import_questions(workspace, twice)
    unknown = tmp_path / "d.csv"
    unknown.write_text("id,dialect,question\nq1,standard,কী?\nq1,khulnaiya,কী?\n", "utf-8")
    with pytest.raises(ImportRejected, match="line 3, column 'dialect': unknown dialect"):
        import_questions(workspace, unknown)
    assert workspace.scalar("SELECT count(*) FROM question_sets") == 0


def test_labelled_dialect_texts_are_never_stored_as_standard(workspace, tmp_path):
    """The issue's case: a dialect column beside the text is used, not silently ignored."""
    path = tmp_path / "labelled.csv"
    path.write_text("id,question,dialect\n1,কম্পিউটার কিতা?,sylhet\n", "utf-8")
    with pytest.raises(ImportRejected, match="no standard row"):
        import_questions(workspace, path)
    assert workspace.scalar("SELECT count(*) FROM variants") == 0
