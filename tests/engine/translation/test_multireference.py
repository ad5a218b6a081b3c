"""Multi-reference corpus items: import, status, and the sacrebleu multi-reference baseline."""

from __future__ import annotations

import csv
import re
import unicodedata

import pytest
from sacrebleu.metrics import BLEU, CHRF

from engine.errors import Setting, setting
from engine.importing.importers import import_corpus
from engine.translation.evaluate import copy_baseline, corpus_items
from engine.translation.metrics import corpus_scores

DIALECTS = ("barishal", "chittagong", "mymensingh", "noakhali", "sylhet")


@pytest.fixture
def multiref_file(shared_data, tmp_path):
    """Real Vashantor sentences laid out as one dialect with up to five variants per source
    (the five regional renderings stand in for five human variants; every third row has
    only three), dialect named by an alias as public files do."""
    rows = []
    with open(shared_data / "vashantor" / "vashantor_multiway.csv", encoding="utf-8") as f:
        for i, row in enumerate(csv.DictReader(f)):
            if i == 120:
                break
            variants = [row[d] for d in DIALECTS]
            if i % 3 == 0:
                variants[3:] = ["", ""]
            rows.append([row["bangla_speech"], "chattogram", *variants, row["vashantor_split"]])
    path = tmp_path / "multi.csv"
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["standard", "dialect", *(f"dialect_v{i}" for i in range(1, 6)), "split"])
        writer.writerows(rows)
    return path, rows


def _expected(rows):
    nfc = [
        (
            unicodedata.normalize("NFC", r[0]).strip(),
            [" ".join(unicodedata.normalize("NFC", v).split()) for v in r[2:7] if v],
        )
        for r in rows
    ]
    return [s for s, _ in nfc], [refs for _, refs in nfc]


def test_multireference_copy_baseline_matches_sacrebleu(workspace, multiref_file):
    path, rows = multiref_file
    report = import_corpus(workspace, path, variant_cols="dialect_v*")
    refs_total = sum(sum(1 for v in r[2:7] if v) for r in rows)
    assert report.records == refs_total and report.empty_cells_skipped == 2 * 40
    status = workspace.status()["pairs_by_dialect"]["chittagong"]
    assert status["items"] == 120 and status["pairs"] <= refs_total
    items = corpus_items(workspace, "chittagong")
    assert len(items) == 120
    got = copy_baseline(workspace, "chittagong")
    hyps, refs = _expected(rows)
    width = max(map(len, refs))
    streams = [[r[i] if i < len(r) else None for r in refs] for i in range(width)]
    assert got["chrf++"] == pytest.approx(
        CHRF(word_order=2).corpus_score(hyps, streams).score, abs=1e-6
    )
    assert got["bleu"] == pytest.approx(BLEU().corpus_score(hyps, streams).score, abs=1e-6)
    # the old way (every variant a separate pair) and first-variant-only give other numbers
    first = corpus_scores(hyps, [r[0] for r in refs])
    assert got["chrf++"] > first["chrf++"]


def test_split_and_missing_dialect(workspace, multiref_file):
    path, rows = multiref_file
    import_corpus(workspace, path, variant_cols="dialect_v1, dialect_v2")
    by_split = {s: sum(1 for r in rows if r[7] == s) for s in {r[7] for r in rows}}
    assert len(corpus_items(workspace, "chittagong", split="test")) == by_split.get("test", 0)
    from engine.errors import UserError

    with pytest.raises(UserError, match="no pairs for dialect 'sylhet'"):
        copy_baseline(workspace, "sylhet")


def test_variant_cols_that_match_nothing_list_the_columns(workspace, multiref_file):
    from engine.errors import ImportRejected

    path, _ = multiref_file
    with pytest.raises(
        ImportRejected,
        match=re.escape(f"no column matches {setting(Setting.VARIANT_COLS)} 'variant_*'"),
    ):
        import_corpus(workspace, path, variant_cols="variant_*")


def test_wide_file_with_variant_columns_per_dialect(workspace, tmp_path):
    path = tmp_path / "w.csv"
    path.write_text(
        "standard,sylheti_1,sylheti_2,noyakhali\nআমি ভাত খাই,আমি ভাত খাইয়ার,মুই ভাত খাই,আঁই ভাত খাই\n",
        "utf-8",
    )
    report = import_corpus(workspace, path, fmt="wide", variant_cols="sylheti_*")
    assert report.by_dialect["sylhet"]["pairs"] == 2 and report.by_dialect["noakhali"]["pairs"] == 1
    assert corpus_items(workspace, "sylhet")[0]["references"] == ["আমি ভাত খাইয়ার", "মুই ভাত খাই"]


def test_long_file_with_repeated_source_rows_makes_one_item(workspace, tmp_path):
    path = tmp_path / "long.csv"
    path.write_text(
        "standard,dialect_text,dialect\n"
        "আমি ভাত খাই,আঁই ভাত খাই,chattogram\n"
        "আমি  ভাত খাই,আঁই ভাত হাই,chittagong\n"  # same source after normalisation
        "আমি ভাত খাই,আঁই ভাত খাই,chittagong\n",  # an exact repeat: not a new reference
        "utf-8",
    )
    report = import_corpus(workspace, path)
    assert report.inserted == 2 and report.duplicates_in_file == 1
    (item,) = corpus_items(workspace, "chittagong")
    assert item["references"] == ["আঁই ভাত খাই", "আঁই ভাত হাই"]
    got = copy_baseline(workspace, "chittagong")
    assert got["n"] == 1 and got["references"] == 2
