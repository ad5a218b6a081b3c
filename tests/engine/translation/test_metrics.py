"""Each translation metric against an independent computation on real Vashantor rows."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from scipy import stats

from engine.translation.metrics import (
    bertscore_f1,
    corpus_scores,
    correlation_table,
    cosines,
    greedy_f1,
    normalized,
    sentence_scores,
)


@pytest.fixture(scope="module")
def validation(vashantor_ws):
    rows = vashantor_ws.query(
        "SELECT standard_text, dialect_text, dialect FROM sentence_pairs "
        "WHERE split = 'validation' ORDER BY id"
    )
    by = {}
    for r in rows:
        by.setdefault(r["dialect"], []).append(r)
    return by


def test_copy_input_baseline_reproduces_published_chrf(validation):
    for dialect, expected in (("chittagong", 22.2), ("mymensingh", 54.3)):
        rows = validation[dialect]
        assert len(rows) == 225
        got = corpus_scores([r["standard_text"] for r in rows], [r["dialect_text"] for r in rows])
        assert round(got["chrf++"], 1) == expected
        assert "nw:2" in got["signatures"]["chrf++"] and "tok:13a" in got["signatures"]["bleu"]


def _chrf_pp(hyps, refs, char_order=6, word_order=2, beta=2.0):
    """chrF++ written from its definition (Popović 2017) as sacrebleu aggregates it: corpus
    n-gram statistics, F-beta per order, averaged over the orders."""
    punct = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")

    def words(s):
        out = []
        for tok in s.split():
            if len(tok) > 1 and tok[-1] in punct:
                out += [tok[:-1], tok[-1]]
            elif len(tok) > 1 and tok[0] in punct:
                out += [tok[0], tok[1:]]
            else:
                out.append(tok)
        return out

    def grams(seq, n):
        return Counter(tuple(seq[i : i + n]) for i in range(len(seq) - n + 1))

    totals = np.zeros((char_order + word_order, 3))
    for h, r in zip(hyps, refs):
        hc, rc = "".join(h.split()), "".join(r.split())
        hw, rw = words(h), words(r)
        units = [(hc, rc, n) for n in range(1, char_order + 1)] + [
            (hw, rw, n) for n in range(1, word_order + 1)
        ]
        for i, (a, b, n) in enumerate(units):
            ga, gb = grams(list(a), n), grams(list(b), n)
            totals[i] += [sum(ga.values()), sum(gb.values()), sum((ga & gb).values())]
    score, eff = 0.0, 0
    for n_hyp, n_ref, n_match in totals:
        p = n_match / n_hyp if n_hyp else 1e-16
        r = n_match / n_ref if n_ref else 1e-16
        d = beta**2 * p + r
        score += (1 + beta**2) * p * r / d if d > 0 else 1e-16
        eff += bool(n_hyp and n_ref)
    return 100 * score / eff


def _bleu(hyps, refs):
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tok = Tokenizer13a()
    match, total = np.zeros(4), np.zeros(4)
    c = r = 0
    for h, ref in zip(hyps, refs):
        ht, rt = tok(h).split(), tok(ref).split()
        c, r = c + len(ht), r + len(rt)
        for n in range(1, 5):
            gh = Counter(tuple(ht[i : i + n]) for i in range(len(ht) - n + 1))
            gr = Counter(tuple(rt[i : i + n]) for i in range(len(rt) - n + 1))
            match[n - 1] += sum((gh & gr).values())
            total[n - 1] += sum(gh.values())
    bp = 1.0 if c > r else math.exp(1 - r / c)
    return 100 * bp * math.exp(np.mean(np.log(match / total)))


@pytest.mark.parametrize("dialect", ["chittagong", "sylhet"])
def test_bleu_chrf_wer_match_independent_computations(validation, dialect):
    from rapidfuzz.distance import Levenshtein

    rows = validation[dialect]
    hyps, refs = [r["standard_text"] for r in rows], [r["dialect_text"] for r in rows]
    got = corpus_scores(hyps, refs)
    assert got["chrf++"] == pytest.approx(_chrf_pp(hyps, refs), abs=1e-3)
    assert got["bleu"] == pytest.approx(_bleu(hyps, refs), abs=1e-3)
    edits = sum(Levenshtein.distance(r.split(), h.split()) for h, r in zip(hyps, refs))
    assert got["wer"] == pytest.approx(edits / sum(len(r.split()) for r in refs), abs=1e-4)


def test_embedding_cosine_and_bertscore_match_independent_computations(validation, default_encoder):
    import torch
    from transformers import AutoModel, AutoTokenizer

    rows = validation["mymensingh"][:12]
    hyps, refs = [r["standard_text"] for r in rows], [r["dialect_text"] for r in rows]
    raw = default_encoder.model.encode(hyps + refs, normalize_embeddings=False)
    h, r = raw[:12], raw[12:]
    expected_cos = np.sum(h * r, 1) / (np.linalg.norm(h, axis=1) * np.linalg.norm(r, axis=1))
    assert np.allclose(cosines(hyps, refs, default_encoder), expected_cos, atol=1e-5)

    tok = AutoTokenizer.from_pretrained(str(default_encoder.folder))
    model = AutoModel.from_pretrained(str(default_encoder.folder)).eval()

    def vectors(text):
        with torch.no_grad():
            out = model(**tok(text, return_tensors="pt", truncation=True, max_length=256))
        v = out.last_hidden_state[0, 1:-1].numpy()
        return v / np.linalg.norm(v, axis=1, keepdims=True)

    expected = []
    for a, b in zip(hyps, refs):
        va, vb = vectors(a), vectors(b)
        p = np.mean([max(float(x @ y) for y in vb) for x in va])
        rc = np.mean([max(float(x @ y) for x in va) for y in vb])
        expected.append(2 * p * rc / (p + rc))
    assert np.allclose(bertscore_f1(hyps, refs, default_encoder), expected, atol=1e-4)
    same = bertscore_f1(refs[:3], refs[:3], default_encoder)
    assert np.allclose(same, 1.0, atol=1e-5)


def test_greedy_f1_on_hand_vectors():
    a = np.array([[1.0, 0.0], [0.0, 1.0]])
    b = np.array([[1.0, 0.0]])
    # precision: best matches 1 and 0 -> 0.5; recall: 1 -> F1 = 2/3
    assert greedy_f1(a, b) == pytest.approx(2 / 3)
    assert greedy_f1(a[:0], b) == 0.0


def test_correlation_table_against_scipy_and_lin_formula(validation):
    rows_in = validation["sylhet"][:60]
    hyps, refs = [r["standard_text"] for r in rows_in], [r["dialect_text"] for r in rows_in]
    rows = sentence_scores(hyps, refs)
    human = [10 * (1 - min(1.0, r["wer"])) * 0.5 + 2 for r in rows]  # a real-data series on 0-10
    table = {t["metric"]: t for t in correlation_table(rows, human, human_scale=(0, 10))}
    x = np.array([r["chrf++"] / 100 for r in rows])
    y = np.array(human) / 10
    row = table["chrf++"]
    assert row["n"] == 60
    assert row["pearson"] == pytest.approx(stats.pearsonr(x, y)[0], abs=1e-4)
    assert row["spearman"] == pytest.approx(stats.spearmanr(x, y)[0], abs=1e-4)
    rho = np.corrcoef(x, y)[0, 1]
    lin = 2 * rho * x.std() * y.std() / (x.var() + y.var() + (x.mean() - y.mean()) ** 2)
    assert row["ccc"] == pytest.approx(lin, abs=1e-4)
    assert table["wer"]["pearson"] == pytest.approx(1.0, abs=1e-6)  # human is linear in 1 - WER


def test_normalisation_to_unit_interval():
    assert normalized("chrf++", 54.3) == pytest.approx(0.543)
    assert normalized("wer", 1.4) == 0.0 and normalized("wer", 0.25) == 0.75
    assert normalized("cosine", -0.2) == 0.0 and normalized("judge", 7) == 0.7
