"""Metrics equal sacrebleu / rouge-score / scikit-learn computed directly (to 1e-9)."""

from __future__ import annotations

import csv
import random

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF

from engine.understanding.metrics import (
    UNPARSEABLE_LABEL,
    BatchScorer,
    WhitespaceTokenizer,
    classification_scores,
    corpus_text_scores,
)

HYPS = ["আমি বাজারে যাচ্ছি", "তুমি কোথায় যাও", "", "এটা কি হলো", "I am going"]
REFS = [
    ["আমি বাজারে যাচ্ছি"],
    ["তুমি কোথায় যাচ্ছ", "তুমি কোথায় যাও"],
    ["আমার ছেলে"],
    ["এটা কী হলো"],
    ["I am going home"],
]


def test_corpus_scores_equal_sacrebleu_with_several_references():
    got = corpus_text_scores(HYPS, REFS)
    # sacrebleu directly, with None for the missing second references
    streams = [[r[0] for r in REFS], [r[1] if len(r) > 1 else None for r in REFS]]
    assert got["bleu"] == pytest.approx(BLEU().corpus_score(HYPS, streams).score, abs=1e-9)
    assert got["chrf++"] == pytest.approx(
        CHRF(word_order=2).corpus_score(HYPS, streams).score, abs=1e-9
    )
    assert got["exact_match"] == pytest.approx(40.0)  # two of five equal a reference
    assert got["scale"] == "0-100" and "nc:6|nw:2" in got["signatures"]["chrf++"]


def test_rouge_keeps_bengali():
    from rouge_score import rouge_scorer

    default = rouge_scorer.RougeScorer(["rouge2"]).score("আমি বাজারে যাচ্ছি", "আমি বাজারে যাচ্ছি")
    assert default["rouge2"].fmeasure == 0.0  # the library's tokenizer deletes Bengali
    assert WhitespaceTokenizer().tokenize("আমি বাজারে যাচ্ছি।") == ["আমি", "বাজারে", "যাচ্ছি"]
    got = corpus_text_scores(["আমি বাজারে যাচ্ছি"], [["আমি বাজারে যাচ্ছি"]])
    assert got["rouge2"] == pytest.approx(100.0) and got["rougeL"] == pytest.approx(100.0)
    half = corpus_text_scores(["আমি বাজারে"], [["আমি বাজারে যাচ্ছি"]])
    # ROUGE-2: 1 matching bigram, P = 1/1, R = 1/2 -> F1 = 2/3
    assert half["rouge2"] == pytest.approx(100 * 2 / 3, abs=1e-9)


def test_batch_scorer_equals_sentence_scores(shared_data):
    path = shared_data / "vashantor" / "vashantor_multiway.csv"
    with path.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))[:150]
    rng = random.Random(3)
    hyps, refs = [], []
    for row in rows:
        for d in ("sylhet", "chittagong", "barishal"):
            words = row[d].split()
            rng.shuffle(words)
            hyps.append(" ".join(words[: rng.randint(0, len(words))]))
            refs.append(
                [row["bangla_speech"]] + ([row["mymensingh"]] if rng.random() < 0.3 else [])
            )
    hyps += hyps[:20]  # repeated outputs are scored once and reused
    refs += refs[:20]
    got = BatchScorer().score(hyps, refs)
    chrf, bleu = CHRF(word_order=2), BLEU(effective_order=True)
    want_chrf = [chrf.sentence_score(h, r).score for h, r in zip(hyps, refs)]
    want_bleu = [bleu.sentence_score(h, r).score for h, r in zip(hyps, refs)]
    assert np.max(np.abs(got["chrf++"] - want_chrf)) < 1e-9
    assert np.max(np.abs(got["bleu"] - want_bleu)) < 1e-9


def test_classification_equals_sklearn():
    from sklearn.metrics import confusion_matrix, f1_score, precision_score, recall_score

    gold = ["a", "b", "c", "a", "b", "c", "a"]
    pred = ["a", "c", None, "a", "b", "c", "b"]
    labels = ["a", "b", "c"]
    got = classification_scores(gold, pred, labels)
    filled = [p or UNPARSEABLE_LABEL for p in pred]
    for key, fn in (
        ("macro_precision", precision_score),
        ("macro_recall", recall_score),
        ("macro_f1", f1_score),
    ):
        want = fn(gold, filled, labels=labels, average="macro", zero_division=0)
        assert got[key] == pytest.approx(want, abs=1e-9)
    assert got["accuracy"] == pytest.approx(4 / 7)
    matrix = confusion_matrix(gold, filled, labels=labels + [UNPARSEABLE_LABEL])
    assert got["confusion"]["matrix"] == matrix[:3].tolist()
    assert got["confusion"]["matrix"][2][3] == 1  # the unparseable answer is counted, as wrong


def test_fast_scores_edge_cases_equal_sacrebleu():
    from engine.understanding.fast_scores import sentence_bleu, sentence_chrf

    hyps = [
        "",
        " ",
        "a",
        "I am going home.",
        "(test)",
        "x-1, 2.5 & <skipped> y",
        "আমি। যাই!",
        "the the the the",
        "আমি বাজারে যাচ্ছি",
        "আমি বাজারে যাচ্ছি",
    ]
    refs = [
        ["x"],
        ["y z"],
        ["a"],
        ["I am going home", "I go home ."],
        ["test"],
        ["x - 1 , 2.5 &amp; y"],
        ["আমি যাই"],
        ["the cat", "the the dog"],
        ["আমি বাজারে যাচ্ছি", "আমি যাচ্ছি"],
        ["আমি যাচ্ছি", "আমি বাজারে যাচ্ছি"],
    ]
    chrf, bleu = CHRF(word_order=2), BLEU(effective_order=True)
    want_c = [chrf.sentence_score(h, r).score for h, r in zip(hyps, refs)]
    want_b = [bleu.sentence_score(h, r).score for h, r in zip(hyps, refs)]
    assert np.max(np.abs(sentence_chrf(hyps, refs) - want_c)) < 1e-9
    assert np.max(np.abs(sentence_bleu(hyps, refs) - want_b)) < 1e-9


def test_macro_chrf_ci_point_equals_sacrebleu_corpus_scores():
    from engine.understanding.metrics import macro_chrf_ci

    hyps = HYPS + ["আমি যাই", "তুমি কোথায়", "এটা কী"]
    refs = REFS + [["আমি যাচ্ছি"], ["তুমি কোথায় যাও"], ["এটা কী হলো"]]
    groups = ["a", "a", "a", "b", "b", "b", "a", "b"]
    got = macro_chrf_ci(hyps, refs, groups, resamples=300, level=0.95, seed=1)
    chrf = CHRF(word_order=2)
    want = {}
    for g in ("a", "b"):
        idx = [i for i, x in enumerate(groups) if x == g]
        h = [hyps[i] for i in idx]
        rs = [refs[i] for i in idx]
        streams = [[r[j] if j < len(r) else None for r in rs] for j in range(2)]
        want[g] = chrf.corpus_score(h, streams).score
    assert got["per_group"]["a"] == pytest.approx(want["a"], abs=1e-9)
    assert got["per_group"]["b"] == pytest.approx(want["b"], abs=1e-9)
    assert got["mean"] == pytest.approx((want["a"] + want["b"]) / 2, abs=1e-9)
    assert got["low"] <= got["mean"] <= got["high"] and got["scale"] == "0-100"
