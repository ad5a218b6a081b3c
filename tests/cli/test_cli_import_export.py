"""`upabhasha import` / `export` in-process, on hostile files and on the real data."""

from __future__ import annotations

import csv
import json
import zipfile

from app.cli import main
from engine.workspace.store import Workspace


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(map(str, argv)))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str) -> str:
    assert err.count("\n") == 1 and err.startswith("upabhasha: error: ")
    assert "Traceback" not in err
    return err


def test_mojibake_file_is_exit_2_one_line_and_writes_nothing(tmp_path, capsys):
    ws = tmp_path / "w.sqlite"
    bad = tmp_path / "pairs.csv"
    bad.write_text(
        "standard,dialect_text,dialect\nআমি,মুই,barishal\nতুমি,à¦¤à§à¦®à¦¿,sylhet\n", encoding="utf-8"
    )
    code, out, err = run(capsys, "-w", ws, "import", "corpus", bad)
    assert code == 2 and out == ""
    assert f"{bad}, line 3, column 'dialect_text': mojibake" in one_line_error(err)
    with Workspace(ws) as w:
        assert w.scalar("SELECT count(*) FROM sentence_pairs") == 0


def test_billion_laughs_xlsx_is_exit_2_one_line(tmp_path, capsys):
    bad = tmp_path / "lol.xlsx"
    with zipfile.ZipFile(bad, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr(
            "xl/sharedStrings.xml",
            '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a '
            '"aaaa"><!ENTITY b "&a;&a;&a;&a;">]><sst><si><t>&b;</t></si></sst>',
        )
    code, _, err = run(capsys, "-w", tmp_path / "w.sqlite", "import", "questions", bad)
    assert code == 2 and "DOCTYPE" in one_line_error(err)


def test_bad_option_values_are_one_line_errors(tmp_path, capsys):
    path = tmp_path / "q.csv"
    path.write_text("question\nকী?\n", encoding="utf-8")
    code, _, err = run(
        capsys,
        "-w",
        tmp_path / "w.sqlite",
        "import",
        "corpus",
        path,
        "--format",
        "wide",
        "--dialect-column",
        "sylhet",
    )
    assert code == 2 and "CODE=COLUMN" in one_line_error(err)
    code, _, err = run(capsys, "-w", tmp_path / "w.sqlite", "export", "nope", tmp_path / "x.csv")
    assert code == 2 and "no table or view 'nope'" in one_line_error(err)


def test_import_questions_then_export_round_trip(tmp_path, capsys):
    import openpyxl

    ws = tmp_path / "w.sqlite"
    path = tmp_path / "q.csv"
    path.write_text(
        "id,question,question_type,domain\n1,কম্পিউটার কী?,1,Technology\n2,=1+1 কত?,3,\n",
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "-w", ws, "import", "questions", path, "--name", "base")
    assert code == 0 and "questions 'base'" in out and "2 new" in out
    code, out, _ = run(capsys, "-w", ws, "export", "questions", tmp_path / "q.xlsx")
    assert code == 0 and "exported 2 rows" in out
    sheet = openpyxl.load_workbook(tmp_path / "q.xlsx").active
    values = {c.value for row in sheet.iter_rows(min_row=2) for c in row}
    assert "'=1+1 কত?" in values and 3 in values
    code, _, _ = run(capsys, "-w", ws, "export", "variants", tmp_path / "v.dat", "--format", "csv")
    with open(tmp_path / "v.dat", encoding="utf-8-sig", newline="") as handle:
        assert len(list(csv.DictReader(handle))) == 2


# -- real data, exactly as a user types it -----------------------------------------------------
DIALECTS = ["barishal", "chittagong", "mymensingh", "noakhali", "sylhet"]


def test_vashantor_multiway_wide_import_and_status(shared_data, tmp_path, capsys):
    ws = tmp_path / "w.sqlite"
    code, out, err = run(
        capsys,
        "-w",
        ws,
        "import",
        "corpus",
        shared_data / "vashantor" / "vashantor_multiway.csv",
        "--format",
        "wide",
        "--standard-col",
        "bangla_speech",
        "--split-col",
        "vashantor_split",
        "--json",
    )
    assert code == 0, err
    report = json.loads(out)
    assert (report["rows_read"], report["inserted"], report["duplicates_in_file"]) == (
        2365,
        11825,
        0,
    )
    assert sorted(report["by_dialect"]) == DIALECTS
    for info in report["by_dialect"].values():
        assert info["splits"] == {"test": 349, "train": 1791, "validation": 225}
    assert report["leading_tokens"] == {}  # the multiway file has its prefixes stripped
    code, out, _ = run(capsys, "-w", ws, "status", "--json")
    status = json.loads(out)
    assert status["totals"]["sentence_pairs"] == 11825 and status["totals"]["corpora"] == 1
    assert status["pairs_by_dialect"]["sylhet"] == {
        "pairs": 2365,
        "items": 2365,  # one reference per standard sentence
        "splits": {"test": 349, "train": 1791, "validation": 225},
    }
    code, out, _ = run(
        capsys,
        "-w",
        ws,
        "import",
        "corpus",
        shared_data / "vashantor" / "vashantor_multiway.csv",
        "--format",
        "wide",
        "--standard-col",
        "bangla_speech",
        "--split-col",
        "vashantor_split",
    )
    assert code == 0 and "0 new, 11,825 already present" in out


def test_vashantor_region_file_strips_its_region_label(shared_data, tmp_path, capsys):
    ws = tmp_path / "w.sqlite"
    path = shared_data / "vashantor" / "vashantor_sylhet_ipa_with_bangla_ipa.csv"
    code, out, err = run(
        capsys,
        "-w",
        ws,
        "import",
        "corpus",
        path,
        "--dialect",
        "sylhet",
        "--text-col",
        "regional",
        "--standard-col",
        "bangla_speech",
        "--strip-leading-token",
        "auto",
        "--json",
    )
    assert code == 0, err
    report = json.loads(out)
    label = report["leading_tokens"]["sylhet"]
    assert label["token"] == "সিলেট" and label["share"] >= 0.9
    assert label["stripped"] == label["count"] == report["rows_read"]
    with Workspace(ws) as w:
        # Only the label is stripped: one sentence really is about Sylhet city.
        still = w.query(
            "SELECT standard_text FROM sentence_pairs WHERE dialect_text LIKE 'সিলেট %'"
        )
        assert len(still) == 1 and still[0]["standard_text"].startswith("সিলেট নগরের")
        assert w.scalar("SELECT count(*) FROM sentence_pairs") == report["inserted"]
        assert w.scalar("SELECT count(DISTINCT split) FROM sentence_pairs") == 1  # all train


def test_blanck_imports_as_a_question_set(shared_data, tmp_path, capsys):
    ws = tmp_path / "w.sqlite"
    code, out, err = run(
        capsys,
        "-w",
        ws,
        "import",
        "questions",
        shared_data / "blanck" / "BlanCK.csv",
        "--text-col",
        "question",
        "--id-col",
        "term",
        "--json",
    )
    assert code == 0, err
    report = json.loads(out)
    # 5,265 rows; 36 repeat an earlier question after normalisation (one of them only by
    # case: "Context too long" / "context too long", an artefact of the source data).
    assert (report["rows_read"], report["duplicates_in_file"], report["inserted"]) == (
        5265,
        36,
        5229,
    )
    code, out, _ = run(capsys, "-w", ws, "status", "--json")
    status = json.loads(out)
    assert status["totals"]["questions"] == 5229
    assert status["variants_by_dialect"] == {"standard": {"gold": 5229}}
    code, out, _ = run(capsys, "-w", ws, "export", "questions", tmp_path / "q.csv")
    with open(tmp_path / "q.csv", encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 5229 and rows[0]["ext_id"] == "পূর্বা দাম"


def test_export_list_and_status_schema(tmp_path, capsys):
    ws = tmp_path / "ws.sqlite"
    Workspace(ws).close()
    code, out, err = run(capsys, "-w", ws, "export", "--list", "--json")
    assert code == 0, err
    listing = {t["name"]: t for t in json.loads(out)}
    assert listing["dialects"]["rows"] == 10 and listing["responses"]["type"] == "table"
    code, out, _ = run(capsys, "-w", ws, "export", "--list")
    assert any(line.split()[:2] == ["dialects", "table"] for line in out.splitlines())
    code, _, err = run(capsys, "-w", ws, "export", "dialects")
    assert code == 2 and "needs TABLE and FILE" in one_line_error(err)
    code, out, err = run(capsys, "-w", ws, "status", "--schema", "--json")
    assert code == 0, err
    status = json.loads(out)
    schema = {t["name"]: t for t in status["schema"]}
    assert status["totals"]["models"] == 0 and schema["dialects"]["rows"] == 10
    columns = {c["name"]: c for c in schema["models"]["columns"]}
    assert columns["id"]["pk"] and columns["name"]["type"] == "TEXT"
    assert "schema" not in json.loads(run(capsys, "-w", ws, "status", "--json")[1])
    code, out, _ = run(capsys, "-w", ws, "status", "--schema")
    assert "table models (0 rows): id INTEGER (key), name TEXT" in out


def test_the_same_content_under_another_name_is_refused_unless_asked_for(tmp_path, capsys):
    from importlib.resources import as_file, files

    ws = tmp_path / "w.sqlite"
    sample = files("resources") / "sample"
    with as_file(sample / "corpus.csv") as corpus, as_file(sample / "questions.csv") as qs:
        copy, qcopy = tmp_path / "corpus-copy.csv", tmp_path / "questions-copy.csv"
        copy.write_bytes(corpus.read_bytes())
        qcopy.write_bytes(qs.read_bytes())
        assert run(capsys, "-w", ws, "import", "corpus", corpus)[0] == 0
        assert run(capsys, "-w", ws, "import", "questions", qs)[0] == 0
    with Workspace(ws) as w:
        pairs, questions = (
            w.scalar(f"SELECT count(*) FROM {t}") for t in ("sentence_pairs", "questions")
        )
    for kind, path in (("corpus", copy), ("questions", qcopy)):
        code, out, err = run(capsys, "-w", ws, "import", kind, path)
        assert code == 2 and out == ""
        assert "are already in" in one_line_error(err) and "--allow-duplicate-content" in err
    with Workspace(ws) as w:  # refused: nothing written, not even the set's name
        assert w.scalar("SELECT count(*) FROM sentence_pairs") == pairs
        assert w.scalar("SELECT count(*) FROM corpora") == 1
        assert w.scalar("SELECT count(*) FROM question_sets") == 1
    code, _out, _err = run(capsys, "-w", ws, "import", "corpus", copy, "--allow-duplicate-content")
    assert code == 0
    with Workspace(ws) as w:  # asked for explicitly: a second copy
        assert w.scalar("SELECT count(*) FROM sentence_pairs") == 2 * pairs
        assert w.scalar("SELECT count(*) FROM questions") == questions
