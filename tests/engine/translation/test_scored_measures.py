"""Scored imports on files shaped unlike the shared data: plausible scales (0-1 scores
declared 0-100 are refused), named measures correlated apart (DA and MQM are not two
annotators), averaging only when asked, stable ids for several outputs per source, and
messages that offer both ways of naming a column."""

from __future__ import annotations

import csv

import numpy as np
import pytest
from scipy import stats

from engine.errors import ImportRejected, Setting, UserError, setting, setting_usage
from engine.importing.scored_import import import_scored_translations, parse_measure
from engine.scales import implausible_scale
from engine.translation.scored_eval import evaluate_measures

WORDS = ["আমি", "বাড়ি", "যাব", "তুমি", "কোথায়", "ভালো", "আছে", "সময়", "পানি", "খাই"]


def wmt_like(path, n=30):
    """A WMT-style file: DA on 0-1 and MQM on 0-100 in differently named columns, a 1-5
    fluency rating, one system column called 'engine', no segment id."""
    rng = np.random.default_rng(11)
    rows = []
    for i in range(n):
        ref = " ".join(rng.choice(WORDS, 6))
        hyp = " ".join(rng.choice(WORDS, 6))
        rows.append(
            {
                "engine": "XY"[i % 2],
                "original": f"বাক্য {i}",
                "translation": hyp,
                "gold": ref,
                "da_norm_score": round(float(rng.uniform(0, 1)), 4),
                "mqm_norm_score": round(float(rng.uniform(0, 100)), 2),
                "fluency": int(rng.integers(1, 6)),
            }
        )
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return rows


COLS = dict(source_col="original", hyp_col="translation", ref_cols="gold", system_col="engine")


def test_implausible_scale_is_refused_naming_the_range_and_the_flag(workspace, tmp_path):
    path = tmp_path / "wmt.csv"
    wmt_like(path)
    with pytest.raises(UserError) as info:
        import_scored_translations(
            workspace, path, human_scale=(0, 100), score_cols="da_norm_score", **COLS
        )
    message = str(info.value)
    assert "less than a tenth of the declared scale 0-100" in message
    assert "span 0.0" in message
    assert Setting.ACCEPT_SCALE in [r.name for r in info.value.references]
    assert workspace.scalar("SELECT count(*) FROM scored_sets") == 0  # nothing written
    # 1-5 ratings declared 0-100 likewise; declared 1-5 they pass
    with pytest.raises(UserError, match="tenth"):
        import_scored_translations(
            workspace, path, human_scale=(0, 100), score_cols="fluency", **COLS
        )
    report = import_scored_translations(
        workspace, path, human_scale=(1, 5), score_cols="fluency", name="flu", **COLS
    )
    assert report.sets[0]["observed"] == [1.0, 5.0]
    forced = import_scored_translations(
        workspace,
        path,
        human_scale=(0, 100),
        score_cols="da_norm_score",
        name="forced",
        accept_scale=True,
        **COLS,
    )
    assert forced.sets[0]["scale_check"].startswith("the scores span")
    result = evaluate_measures(workspace, "forced", bootstrap=0)
    assert result["human_scale"] == [0, 100] and result["observed_range"][1] <= 1
    assert implausible_scale([0.5], (0, 100)) is None  # one score shows no range


def test_named_measures_are_separate_sets_correlated_apart(workspace, tmp_path):
    path = tmp_path / "wmt.csv"
    rows = wmt_like(path)
    measures = [parse_measure("da=da_norm_score:0-1"), parse_measure("mqm=mqm_norm_score:0-100")]
    report = import_scored_translations(workspace, path, name="wmt", measures=measures, **COLS)
    assert [s["name"] for s in report.sets] == ["wmt/da", "wmt/mqm"]
    assert report.sets[0]["scale"] == [0, 1] and report.sets[1]["scale"] == [0, 100]
    assert all(s["averaged_segments"] == 0 for s in report.sets)
    result = evaluate_measures(workspace, "wmt", bootstrap=0)
    assert set(result["measures"]) == {"da", "mqm"}
    from sacrebleu.metrics import CHRF

    chrf = CHRF(word_order=2)
    x = [chrf.sentence_score(r["translation"], [r["gold"]]).score for r in rows]
    for name, column in (("da", "da_norm_score"), ("mqm", "mqm_norm_score")):
        one = result["measures"][name]
        assert one["segments_averaged"] == 0
        row = next(r for r in one["segment_level"] if r["metric"] == "chrf++")
        y = [r[column] for r in rows]
        assert row["pearson"] == pytest.approx(stats.pearsonr(x, y)[0], abs=1e-9)
        assert row["spearman"] == pytest.approx(stats.spearmanr(x, y)[0], abs=1e-9)


def test_several_score_columns_average_only_when_asked(workspace, tmp_path):
    path = tmp_path / "wmt.csv"
    wmt_like(path)
    both = "da_norm_score,mqm_norm_score"
    with pytest.raises(
        UserError,
        match=f"several annotators.*{setting(Setting.AVERAGE_ANNOTATORS)}.*{setting_usage(Setting.MEASURE)}",
    ):
        import_scored_translations(
            workspace, path, human_scale=(0, 100), score_cols=both, accept_scale=True, **COLS
        )
    report = import_scored_translations(
        workspace,
        path,
        human_scale=(0, 100),
        score_cols=both,
        accept_scale=True,
        average_annotators=True,
        **COLS,
    )
    assert report.sets[0]["averaged_segments"] == 30
    assert any("averaged in eval-metrics: 30" in w for w in report.warnings)
    result = evaluate_measures(workspace, "wmt", bootstrap=0)
    assert result["segments_averaged"] == 30


def test_several_outputs_per_source_get_positional_ids(workspace, tmp_path):
    path = tmp_path / "multi.tsv"
    path.write_text(
        "sys\tsrc\tout\tref\tscore\n"
        "A\tআমি যাই\tমুই যাই\tমুই যাইমু\t3\n"
        "A\tআমি যাই\tআঁই যাই\tমুই যাইমু\t4\n"  # a second output for the same source
        "A\tতুমি যাও\tতুই যা\tতুই যাও\t1\n"
        "A\tআমি যাই\tমুই যাই\tমুই যাইমু\t3\n",  # the first again: the same segment
        "utf-8",
    )
    report = import_scored_translations(
        workspace,
        path,
        human_scale=(1, 5),
        source_col="src",
        hyp_col="out",
        ref_cols="ref",
        system_col="sys",
        score_col="score",
        annotator="r1",
    )
    assert report.records == 3
    assert any("numbered by their position within a source" in w for w in report.warnings)
    keys = {r["seg_key"] for r in workspace.query("SELECT seg_key FROM scored_segments")}
    assert keys == {"আমি যাই", "আমি যাই#2", "তুমি যাও"}


def test_missing_columns_offer_both_ways(workspace, tmp_path):
    path = tmp_path / "wmt.csv"
    wmt_like(path)
    cols = {**COLS, "system_col": "system"}
    with pytest.raises(ImportRejected) as info:
        import_scored_translations(
            workspace, path, human_scale=(1, 5), score_cols="fluency", **cols
        )
    assert (
        f"with {setting_usage(Setting.SYSTEM_COL)}, or give one system name for every row with "
        f"{setting_usage(Setting.SYSTEM)}" in str(info.value)
    )
    with pytest.raises(ImportRejected) as info:
        import_scored_translations(workspace, path, human_scale=(1, 5), score_col="fluency", **COLS)
    assert (
        f"{setting_usage(Setting.ANNOTATOR_COL)}, or give one annotator for every row with "
        f"{setting_usage(Setting.ANNOTATOR)}" in str(info.value)
    )


@pytest.mark.parametrize("bad", ["8_0", "inf", "1e999", "0x10"])
def test_scores_use_the_strict_number_grammar(workspace, tmp_path, bad):
    path = tmp_path / "s.csv"
    path.write_text(f"src,mt,ref,score\nআমি,মুই,মুই,{bad}\nতুমি,তুই,তুই,3\n", "utf-8")
    with pytest.raises(ImportRejected, match=f"human score '{bad}' is not a number"):
        import_scored_translations(
            workspace,
            path,
            human_scale=(0, 100),
            source_col="src",
            hyp_col="mt",
            ref_cols="ref",
            system="S",
            score_cols="score",
        )
