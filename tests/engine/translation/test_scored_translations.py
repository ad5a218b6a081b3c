"""Scored-translation import and eval-metrics against scipy / an independent CCC."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF
from scipy import stats

from engine.errors import ImportRejected, UserError
from engine.importing.scored_import import import_scored_translations, record_segment_score
from engine.text.textnorm import normalize_text
from engine.translation.scored_eval import evaluate_scored, scored_sets

SYSTEMS = {"copy": "bangla_speech", "mymensingh-as-mt": "mymensingh", "barishal-as-mt": "barishal"}


def lin_ccc(x, y):
    x, y = np.asarray(x, float), np.asarray(y, float)
    cov = np.mean((x - x.mean()) * (y - y.mean()))
    return 2 * cov / (x.var() + y.var() + (x.mean() - y.mean()) ** 2)


def write_scored(shared_data, path, lo, hi, n=40):
    """Real Vashantor sentences: three 'systems' translating standard -> Chittagong (the copy
    baseline and two other dialects' renderings), two references (Chittagong, Noakhali), two
    annotators whose scores are fixed numbers mapped onto the declared scale."""
    rng = np.random.default_rng(3)
    with open(shared_data / "vashantor" / "vashantor_multiway.csv", encoding="utf-8") as f:
        rows = [r for _, r in zip(range(n), csv.DictReader(f))]
    out = []
    for system, column in SYSTEMS.items():
        for i, r in enumerate(rows):
            # sixteenths: exact in binary on every scale below, so no scale merges or splits
            # ties of the mean score by rounding (the test compares scales to 1e-9)
            a, b = rng.integers(0, 17, 2) / 16
            out.append(
                {
                    "seg": f"s{i}",
                    "system": system,
                    "src": r["bangla_speech"],
                    "mt": r[column],
                    "ref1": r["chittagong"],
                    "ref2": r["noakhali"],
                    "ann_a": lo + a * (hi - lo),
                    "ann_b": lo + b * (hi - lo),
                }
            )
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(out[0]))
        writer.writeheader()
        writer.writerows(out)
    return out


def expected(out, lo, hi):
    chrf, n = CHRF(word_order=2), normalize_text  # the stored form of every cell
    x = [chrf.sentence_score(n(r["mt"]), [n(r["ref1"]), n(r["ref2"])]).score for r in out]
    y = [(r["ann_a"] + r["ann_b"]) / 2 for r in out]
    return np.array(x), np.array(y)


def _import(ws, path, scale, name):
    return import_scored_translations(
        ws,
        path,
        human_scale=scale,
        name=name,
        source_col="src",
        hyp_col="mt",
        ref_cols="ref*",
        score_cols="ann_*",
        seg_id_col="seg",
        dialect="chattogram",
        average_annotators=True,
    )


@pytest.mark.parametrize("lo, hi", [(0, 1), (0, 100), (1, 5)])
def test_segment_level_matches_scipy_whatever_the_scale(workspace, shared_data, tmp_path, lo, hi):
    path = tmp_path / "scored.csv"
    out = write_scored(shared_data, path, lo, hi)
    report = _import(workspace, path, (lo, hi), "s")
    assert report.records == 120 and report.variants_inserted == 240
    assert report.unused_columns == []
    result = evaluate_scored(workspace, "s", bootstrap=200)
    row = next(r for r in result["segment_level"] if r["metric"] == "chrf++")
    x, y = expected(out, lo, hi)
    assert row["n"] == 120 and row["human_scale"] == [lo, hi]
    assert row["pearson"] == pytest.approx(stats.pearsonr(x, y)[0], abs=1e-9)
    assert row["spearman"] == pytest.approx(stats.spearmanr(x, y)[0], abs=1e-9)
    assert row["kendall"] == pytest.approx(stats.kendalltau(x, y)[0], abs=1e-9)
    assert row["ccc"] == pytest.approx(lin_ccc(x / 100, (y - lo) / (hi - lo)), abs=1e-9)
    assert row["ci"]["pearson"][0] <= row["pearson"] <= row["ci"]["pearson"][1]
    # per-system corpus scores with all references
    copy = [r for r in out if r["system"] == "copy"]
    refs = [[normalize_text(r[k]) for r in copy] for k in ("ref1", "ref2")]
    hyps = [normalize_text(r["mt"]) for r in copy]
    assert result["systems"]["copy"]["bleu"] == pytest.approx(
        BLEU().corpus_score(hyps, refs).score, abs=1e-9
    )
    assert "nrefs:2" in result["signatures"]["bleu"]
    # three systems are n = 3: a system-level figure exists; CCC on the same unit scales
    sys_row = next(r for r in result["system_level"] if r["metric"] == "chrf++")
    assert sys_row["n"] == 3 and sys_row["unavailable"] is None


def test_same_correlations_on_0_1_and_0_100(workspace, shared_data, tmp_path):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    write_scored(shared_data, a, 0, 1)
    write_scored(shared_data, b, 0, 100)
    _import(workspace, a, (0, 1), "unit")
    _import(workspace, b, (0, 100), "pct")
    ra = evaluate_scored(workspace, "unit", bootstrap=0)["segment_level"]
    rb = evaluate_scored(workspace, "pct", bootstrap=0)["segment_level"]
    for x, y in zip(ra, rb):
        for key in ("pearson", "spearman", "kendall", "ccc"):
            assert x[key] == pytest.approx(y[key], abs=1e-9)
    assert {s["name"] for s in scored_sets(workspace)} == {"unit", "pct"}


def test_out_of_range_score_is_refused_naming_line_and_field(workspace, tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text(
        "source,hypothesis,reference,system,score\nআমি,আঁই,আঁই,A,0.5\nতুমি,তুঁই,তুঁই,A,57\n",
        "utf-8",
    )
    with pytest.raises(ImportRejected, match="line 3, column 'score': human score 57 is outside"):
        import_scored_translations(
            workspace, path, human_scale=(0, 1), score_col="score", annotator="x"
        )
    assert workspace.scalar("SELECT count(*) FROM scored_sets") == 0


def test_nan_scores_are_counted_and_long_layout_joins_annotators(workspace, tmp_path):
    path = tmp_path / "long.jsonl"
    lines = []
    for i, (sys_, score) in enumerate(
        [("A", 1), ("A", 3), ("A", None), ("A", 4), ("B", 2), ("B", "nan")]
    ):
        for who in ("p", "q"):
            lines.append(
                {
                    "source": f"বাক্য {i}",
                    "hypothesis": f"বাইক্য {i}",
                    "reference": f"বাক্যি {i}",
                    "system": sys_,
                    "score": score if who == "p" else (score or 2),
                    "annotator": who,
                }
            )
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines), "utf-8")
    report = import_scored_translations(
        workspace, path, human_scale=(0, 10), score_col="score", average_annotators=True
    )
    # missing: p's null and 'nan', q's 'nan'
    assert report.records == 6 and report.empty_cells_skipped == 3
    result = evaluate_scored(workspace, "long", bootstrap=0)
    assert result["annotations"] == 9 and result["segments_scored_by_humans"] == 5
    chrf = next(r for r in result["segment_level"] if r["metric"] == "chrf++")
    assert chrf["n"] == 5 and chrf["excluded"]["human_missing"] == 1
    sys_row = result["system_level"][0]
    assert sys_row["n"] == 2 and sys_row["unavailable"] == "n = 2 < 3"


def test_annotator_scoring_twice_differently_is_refused(workspace, tmp_path):
    path = tmp_path / "twice.csv"
    path.write_text(
        "source,hypothesis,reference,system,score,annotator\nআমি,আঁই,আঁই,A,1,p\nআমি,আঁই,আঁই,A,2,p\n",
        "utf-8",
    )
    with pytest.raises(ImportRejected, match="line 3.*annotator 'p' scored segment"):
        import_scored_translations(workspace, path, human_scale=(0, 10), score_col="score")


def test_record_segment_score_uses_the_sets_scale(workspace, tmp_path):
    path = tmp_path / "one.csv"
    path.write_text("source,hypothesis,reference,score\nআমি,আঁই,আঁই,0.5\n", "utf-8")
    import_scored_translations(workspace, path, human_scale=(0, 1), system="S", score_cols="score")
    seg = workspace.scalar("SELECT id FROM scored_segments")
    assert record_segment_score(workspace, seg, "r", 0.25)["scale"] == [0.0, 1.0]
    with pytest.raises(UserError, match="outside the declared scale 0-1"):
        record_segment_score(workspace, seg, "r", 7)
    with pytest.raises(UserError, match="scores on 0-1, not 0-10"):
        import_scored_translations(
            workspace, path, human_scale=(0, 10), system="S", score_cols="score"
        )


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".json", ".jsonl", ".xlsx"])
def test_every_file_format_gives_the_same_set(workspace, tmp_path, suffix):
    from tests.engine.importing.tablefiles import write_table

    rows = [
        {
            "src": f"বাক্য {i}",
            "mt": f"বাইক্য {i}",
            "ref_a": f"বাক্যি {i}",
            "ref_b": f"বাইক্যি {i}",
            "system": "AB"[i % 2],
            "rater1": i % 5,
            "rater2": (i * 3) % 5,
        }
        for i in range(12)
    ]
    path = write_table(tmp_path / f"scored{suffix}", rows)
    report = import_scored_translations(
        workspace,
        path,
        human_scale=(0, 4),
        source_col="src",
        hyp_col="mt",
        ref_cols="ref_a,ref_b",
        score_cols="rater*",
        average_annotators=True,
    )
    assert (report.records, report.variants_inserted) == (12, 24)
    result = evaluate_scored(workspace, "scored", bootstrap=0)
    assert result["annotations"] == 24 and set(result["systems"]) == {"A", "B"}
    assert result["systems"]["A"]["references"] == 12
