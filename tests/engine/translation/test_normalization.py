"""--normalize: a declared choice. 'none' equals sacrebleu + scipy on the raw file; 'nfc'
folds the two spellings of য় (U+09DF vs য + U+09BC) and says so in every signature."""

from __future__ import annotations

import csv
import unicodedata

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF
from scipy import stats

from engine.errors import Setting, setting
from engine.importing.scored_import import import_scored_translations
from engine.translation.scored_eval import evaluate_scored

YA_PRECOMPOSED, YA_DECOMPOSED = "\u09df", "\u09af\u09bc"
WORDS = ["আমি", "বাড়ি", "যাব", "তুমি", "কোথা", "নয়", "ভালো", "আছে", "সময়", "পানি", "খাই"]


def mixed_file(path, n=24):
    """Outputs spell য় precomposed, references decomposed (or the other way round, by row);
    columns named unlike the defaults; rated 0-100 by one rater."""
    rng = np.random.default_rng(7)
    rows = []
    for i in range(n):
        words = list(rng.choice(WORDS, size=5))
        ref = " ".join(words).replace("য়", YA_DECOMPOSED)
        out_words = list(words)
        out_words[int(rng.integers(0, 5))] = str(rng.choice(WORDS))
        hyp = "  ".join(out_words)  # doubled spaces: NFC mode folds them
        hyp = hyp.replace("য়", YA_PRECOMPOSED) if i % 2 else hyp.replace("য়", YA_DECOMPOSED)
        rows.append(
            {
                "segment_no": f"g{i}",
                "engine": "AB"[i % 2],
                "src_text": " ".join(words),
                "output": hyp,
                "gold_a": ref,
                "gold_b": ref.replace("আমি", "মুই"),
                "rating": float(rng.integers(0, 101)),
            }
        )
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    # the file really mixes both encodings
    text = path.read_text("utf-8")
    assert YA_PRECOMPOSED in text and YA_DECOMPOSED in text
    return rows


def _import(ws, path, name, normalize):
    return import_scored_translations(
        ws,
        path,
        human_scale=(0, 100),
        name=name,
        source_col="src_text",
        hyp_col="output",
        ref_cols="gold_*",
        system_col="engine",
        score_cols="rating",
        seg_id_col="segment_no",
        normalize=normalize,
    )


def test_none_reproduces_sacrebleu_and_scipy_on_the_raw_file(workspace, tmp_path):
    path = tmp_path / "mixed.csv"
    mixed_file(path)
    _import(workspace, path, "raw", "none")
    with open(path, encoding="utf-8", newline="") as f:
        raw = list(csv.DictReader(f))  # what a reviewer reads with the csv module
    result = evaluate_scored(workspace, "raw", bootstrap=0)
    assert result["normalize"] == "none"
    for system in "AB":
        mine = [r for r in raw if r["engine"] == system]
        hyps = [r["output"] for r in mine]
        refs = [[r["gold_a"] for r in mine], [r["gold_b"] for r in mine]]
        got = result["systems"][system]
        assert got["bleu"] == pytest.approx(BLEU().corpus_score(hyps, refs).score, abs=1e-9)
        chrf = CHRF(word_order=2).corpus_score(hyps, refs).score
        assert got["chrf++"] == pytest.approx(chrf, abs=1e-9)
    y = np.array([float(r["rating"]) for r in raw])
    sent_bleu, sent_chrf = BLEU(effective_order=True), CHRF(word_order=2)
    expect = {
        "bleu": [
            sent_bleu.sentence_score(r["output"], [r["gold_a"], r["gold_b"]]).score for r in raw
        ],
        "chrf++": [
            sent_chrf.sentence_score(r["output"], [r["gold_a"], r["gold_b"]]).score for r in raw
        ],
    }
    for metric, x in expect.items():
        row = next(r for r in result["segment_level"] if r["metric"] == metric)
        assert row["pearson"] == pytest.approx(stats.pearsonr(x, y)[0], abs=1e-9)
        assert row["spearman"] == pytest.approx(stats.spearmanr(x, y)[0], abs=1e-9)
        assert row["kendall"] == pytest.approx(stats.kendalltau(x, y)[0], abs=1e-9)
    # every signature names the choice; the sentence-level one shows effective order
    assert result["signatures"]["bleu"].endswith("|norm:none")
    assert "eff:no" in result["signatures"]["bleu"]
    assert "eff:yes" in result["sentence_signatures"]["bleu"]
    assert result["sentence_signatures"]["chrf++"].endswith("|norm:none")


def test_nfc_folds_both_spellings_and_says_so(workspace, tmp_path):
    path = tmp_path / "mixed.csv"
    mixed_file(path)
    _import(workspace, path, "raw", "none")
    _import(workspace, path, "nfc", "nfc")
    raw = evaluate_scored(workspace, "raw", bootstrap=0)
    nfc = evaluate_scored(workspace, "nfc", bootstrap=0)
    assert nfc["normalize"] == "nfc"
    assert all(s.endswith("|norm:nfc") for s in nfc["signatures"].values())
    with open(path, encoding="utf-8", newline="") as f:
        mine = [r for r in csv.DictReader(f) if r["engine"] == "B"]

    def folded(t):
        return " ".join(unicodedata.normalize("NFC", t).split())

    hyps = [folded(r["output"]) for r in mine]
    refs = [[folded(r["gold_a"]) for r in mine], [folded(r["gold_b"]) for r in mine]]
    expected = CHRF(word_order=2).corpus_score(hyps, refs).score
    assert nfc["systems"]["B"]["chrf++"] == pytest.approx(expected, abs=1e-9)
    # B's outputs spell য় precomposed against decomposed references: only NFC matches them
    assert nfc["systems"]["B"]["chrf++"] > raw["systems"]["B"]["chrf++"] + 1


def test_a_set_keeps_its_normalisation(workspace, tmp_path):
    from engine.errors import UserError

    path = tmp_path / "mixed.csv"
    mixed_file(path)
    _import(workspace, path, "s", "none")
    with pytest.raises(
        UserError, match=f"imported with {setting(Setting.NORMALIZE, 'none')}, not nfc"
    ):
        _import(workspace, path, "s", "nfc")
    with pytest.raises(UserError, match=f"{setting(Setting.NORMALIZE)} is one of nfc, none"):
        _import(workspace, path, "t", "NFKC")


def test_nfc_stores_nfc_and_none_stores_the_file(workspace, tmp_path):
    path = tmp_path / "mixed.csv"
    rows = mixed_file(path)
    _import(workspace, path, "raw", "none")
    _import(workspace, path, "nfc", "nfc")
    stored = {
        (r["name"], r["seg_key"]): r["hypothesis"]
        for r in workspace.query(
            "SELECT t.name, s.seg_key, s.hypothesis FROM scored_segments s "
            "JOIN scored_sets t ON t.id = s.set_id"
        )
    }
    for r in rows:
        assert stored[("raw", r["segment_no"])] == r["output"]
        assert stored[("nfc", r["segment_no"])] == " ".join(
            unicodedata.normalize("NFC", r["output"]).split()
        )
