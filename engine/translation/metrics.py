"""Translation-quality metrics (paper 000 §3.1.3) and their [0, 1] normalisation.

- BLEU and chrF++ from sacrebleu (corpus level, with the signature that pins tokenizer,
  smoothing and version; sentence level for correlations);
- WER from jiwer (corpus level = total edits / total reference words);
- embedding cosine between hypothesis and reference with the configured encoder;
- a BERTScore-style F1: greedy matching of the encoder's contextual token vectors
  (precision = mean best match of each hypothesis token, recall likewise for reference
  tokens; no idf weighting, no baseline rescaling). Written here in numpy instead of using
  the ``bert-score`` package because that package downloads its models from the Hugging
  Face hub at run time, which an offline workstation cannot do, and ties the encoder to
  its own list. With the English MiniLM the token vectors of Bengali are poor (its
  tokenizer even strips Bengali vowel signs as accents): read it next to the self-check.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np

log = logging.getLogger(__name__)

METRICS = ("bleu", "chrf++", "wer", "cosine", "bertscore_f1")


def _nonempty(texts: Sequence[str]) -> list[str]:
    # jiwer rejects empty strings; an empty hypothesis is "all words deleted"
    return [t if t.strip() else "\u2205" for t in texts]


def corpus_scores(hyps: Sequence[str], refs: Sequence[str], encoder=None) -> dict:
    """Corpus-level metrics plus the sacrebleu signatures."""
    import jiwer
    from sacrebleu.metrics import BLEU, CHRF

    if len(hyps) != len(refs) or not hyps:
        raise ValueError("need equally many (>= 1) hypotheses and references")
    bleu, chrf = BLEU(), CHRF(word_order=2)
    out = {
        "n": len(hyps),
        "bleu": round(bleu.corpus_score(list(hyps), [list(refs)]).score, 4),
        "chrf++": round(chrf.corpus_score(list(hyps), [list(refs)]).score, 4),
        "wer": round(float(jiwer.wer(_nonempty(refs), _nonempty(hyps))), 4),
        "signatures": {"bleu": str(bleu.get_signature()), "chrf++": str(chrf.get_signature())},
    }
    if encoder is not None:
        out["cosine"] = round(float(np.mean(cosines(hyps, refs, encoder))), 4)
        out["bertscore_f1"] = round(float(np.mean(bertscore_f1(hyps, refs, encoder))), 4)
    return out


def sentence_scores(hyps: Sequence[str], refs: Sequence[str], encoder=None) -> list[dict]:
    import jiwer
    from sacrebleu.metrics import BLEU, CHRF

    bleu, chrf = BLEU(effective_order=True), CHRF(word_order=2)
    rows = [
        {
            "bleu": bleu.sentence_score(h, [r]).score,
            "chrf++": chrf.sentence_score(h, [r]).score,
            "wer": float(jiwer.wer(_nonempty([r])[0], _nonempty([h])[0])),
        }
        for h, r in zip(hyps, refs)
    ]
    if encoder is not None:
        for row, c, f in zip(rows, cosines(hyps, refs, encoder), bertscore_f1(hyps, refs, encoder)):
            row["cosine"], row["bertscore_f1"] = float(c), float(f)
    return rows


def cosines(hyps: Sequence[str], refs: Sequence[str], encoder) -> np.ndarray:
    h, r = encoder.encode(list(hyps)), encoder.encode(list(refs))
    return np.sum(h * r, axis=1)


def greedy_f1(hyp_tokens: np.ndarray, ref_tokens: np.ndarray) -> float:
    """BERTScore F1 of one pair from L2-normalised token vectors (rows)."""
    if len(hyp_tokens) == 0 or len(ref_tokens) == 0:
        return 0.0
    sim = hyp_tokens @ ref_tokens.T
    precision, recall = float(sim.max(axis=1).mean()), float(sim.max(axis=0).mean())
    return 0.0 if precision + recall <= 0 else 2 * precision * recall / (precision + recall)


def bertscore_f1(hyps: Sequence[str], refs: Sequence[str], encoder) -> np.ndarray:
    h_tok, r_tok = encoder.token_embeddings(list(hyps)), encoder.token_embeddings(list(refs))
    return np.array([greedy_f1(h, r) for h, r in zip(h_tok, r_tok)])


def normalized(metric: str, value: float) -> float:
    """Map a metric onto [0, 1], higher = better (paper: normalised before correlating)."""
    if metric in ("bleu", "chrf++"):
        return min(1.0, max(0.0, value / 100.0))
    if metric == "wer":
        return max(0.0, 1.0 - value)
    if metric in ("cosine", "bertscore_f1"):
        return min(1.0, max(0.0, value))
    if metric in ("judge", "human"):
        return min(1.0, max(0.0, value / 10.0))
    raise ValueError(f"unknown metric {metric}")


def correlation_table(metric_rows: Sequence[dict], human: Sequence[float]) -> list[dict]:
    """Pearson, Spearman and Lin's CCC of every metric against human scores (0–10), all on
    [0, 1]-normalised values, with n. Rows missing a metric are left out of that metric."""
    from engine.stats.agreement import ccc, pearson, spearman

    names = [m for m in (*METRICS, "judge") if any(m in r for r in metric_rows)]
    table = []
    for name in names:
        pairs = [
            (normalized(name, r[name]), normalized("human", h))
            for r, h in zip(metric_rows, human)
            if r.get(name) is not None and h is not None
        ]
        if not pairs:
            continue
        x, y = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
        table.append(
            {
                "metric": name,
                "n": len(pairs),
                "pearson": _round(pearson(x, y)),
                "spearman": _round(spearman(x, y)),
                "ccc": _round(ccc(x, y)),
            }
        )
    return table


def _round(v: float):
    return None if v != v else round(float(v), 4)  # NaN -> None (JSON has no NaN)
