"""Imports count every merge by kind with its first lines, skip empty rows only when asked,
offer the ways out of a repeated (source, output) pair, and say where unsplit rows went."""

from __future__ import annotations

import csv
import json

from app.cli import main
from engine.workspace.store import Workspace


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(map(str, argv)))
    out, err = capsys.readouterr()
    return code, out, err


def _scored_rows(n: int = 200) -> list[list[str]]:
    """IndicMT-shaped: source, translation, reference, one DA score per row."""
    return [
        [f"source sentence {i}", f"অনুবাদ {i} নম্বর", f"রেফারেন্স {i} নম্বর", f"{(i % 10) / 10:g}"]
        for i in range(n)
    ]


def _write(path, header, rows) -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(rows)


SCORED = ("src", "translation", "ref", "da")
SCORED_ARGS = ("--source-col", "src", "--hyp-col", "translation", "--ref-cols", "ref")
SCORED_ARGS += ("--system", "mt", "--score-cols", "da", "--human-scale", "0-1")


def test_identical_scored_rows_are_counted_with_their_lines(tmp_path, capsys):
    rows = _scored_rows()
    path = tmp_path / "scored.csv"
    _write(path, SCORED, rows + [rows[4], rows[9], rows[4]])  # lines 202, 203, 204
    code, out, _ = run(capsys, "-w", tmp_path / "w.sqlite", "import", "scored-translations",
                       path, *SCORED_ARGS)  # fmt: skip
    assert code == 0
    assert "203 rows, 200 segments" in out and "3 repeated in the file" in out
    assert "identical rows merged: 3 (lines 202, 203, 204)" in out


def test_a_repeated_pair_with_another_score_names_the_three_ways_out(tmp_path, capsys):
    rows = _scored_rows()
    again = [[*r[:3], "0.95"] for r in rows[:50]]
    path = tmp_path / "indicmt.csv"
    _write(path, SCORED, rows + again)
    ws = tmp_path / "w.sqlite"
    code, _, err = run(capsys, "-w", ws, "import", "scored-translations", path, *SCORED_ARGS)
    assert code == 2
    for option in ("--seg-id-col COLUMN", "--positional-ids", "--average-duplicates"):
        assert option in err
    assert "line 202" in err and "(0 at line 2, 0.95 here)" in err
    code, out, _ = run(capsys, "-w", ws, "import", "scored-translations", path, *SCORED_ARGS,
                       "--average-duplicates", "--json")  # fmt: skip
    report = json.loads(out)
    assert code == 0 and report["records"] == 200
    assert report["merges"]["repeated (source, output) pairs merged"]["count"] == 50
    with Workspace(ws) as w:
        first = w.scalar(
            "SELECT h.score FROM scored_human h JOIN scored_segments s ON s.id = h.segment_id "
            "WHERE s.source = 'source sentence 1'"
        )
        assert abs(first - (0.1 + 0.95) / 2) < 1e-12
    code, out, _ = run(capsys, "-w", tmp_path / "p.sqlite", "import", "scored-translations",
                       path, *SCORED_ARGS, "--positional-ids", "--json")  # fmt: skip
    assert code == 0 and json.loads(out)["records"] == 250


def test_skip_empty_counts_and_lists_the_rows_for_corpus_and_scored(tmp_path, capsys):
    rows = _scored_rows(20)
    rows[5][0] = ""
    rows[12][2] = " "
    path = tmp_path / "holes.csv"
    _write(path, SCORED, rows)
    ws = tmp_path / "w.sqlite"
    code, _, err = run(capsys, "-w", ws, "import", "scored-translations", path, *SCORED_ARGS)
    assert code == 2 and "line 7" in err
    code, out, _ = run(capsys, "-w", ws, "import", "scored-translations", path, *SCORED_ARGS,
                       "--skip-empty")  # fmt: skip
    assert code == 0 and "rows skipped for an empty required cell: 2 (lines 7, 14)" in out
    corpus = tmp_path / "pairs.csv"
    _write(
        corpus,
        ("standard", "dialect_text", "dialect"),
        [["আমি ভাত খাই", "মুই ভাত খাই", "barishal"], ["", "তুই", "barishal"],
         ["তুমি যাও", "", "barishal"]],
    )  # fmt: skip
    code, _, err = run(capsys, "-w", ws, "import", "corpus", corpus)
    assert code == 2 and "line 3" in err
    code, out, _ = run(capsys, "-w", ws, "import", "corpus", corpus, "--skip-empty")
    assert code == 0 and "rows skipped for an empty required cell: 2 (lines 3, 4)" in out
    # no split column: where the pairs went and how to choose
    assert "all 1 pairs went to the 'train' split" in out
    assert "--split-col COLUMN" in out and "--split test" in out
