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
import math
from collections.abc import Sequence

import jiwer
import numpy as np

from engine.scales import Scale, check_on_scale, parse_scale, scale_text
from engine.stats.metric_inputs import References, metric_texts, reference_lists, signature
from engine.text.textnorm import DEFAULT_NORMALIZATION

__all__ = [
    "References",
    "Scale",
    "check_on_scale",
    "metric_texts",
    "parse_scale",
    "reference_lists",
    "scale_text",
    "signature",
]

log = logging.getLogger(__name__)

METRICS = ("bleu", "chrf++", "wer", "cosine", "bertscore_f1")


def _nonempty(texts: Sequence[str]) -> list[str]:
    # jiwer rejects empty strings; an empty hypothesis is "all words deleted"
    return [t if t.strip() else "\u2205" for t in texts]


def sentence_signatures(ref_lists: list[list[str]], normalize: str) -> dict[str, str]:
    """The signatures of the sentence-level scores (BLEU with effective order: eff:yes),
    which differ from the corpus ones; nrefs is the largest number of references."""
    from sacrebleu.metrics import BLEU, CHRF

    widest = max(ref_lists, key=len) if ref_lists else ["x"]
    bleu, chrf = BLEU(effective_order=True), CHRF(word_order=2)
    bleu.sentence_score(widest[0], widest)
    chrf.sentence_score(widest[0], widest)
    return {"bleu": signature(bleu, normalize), "chrf++": signature(chrf, normalize)}


def reference_streams(refs: list[list[str]]) -> list[list[str | None]]:
    """sacrebleu's layout: one stream per reference position, None where an item has fewer
    references (sacrebleu skips None, so items may have different numbers of references)."""
    width = max(len(r) for r in refs)
    return [[r[i] if i < len(r) else None for r in refs] for i in range(width)]


def _wer_edits(hyp: str, refs: list[str]) -> tuple[int, int]:
    """(edits, reference words) against the reference with the lowest WER."""
    best = None
    for ref in refs:
        out = jiwer.process_words(_nonempty([ref])[0], _nonempty([hyp])[0])
        edits = out.substitutions + out.deletions + out.insertions
        words = out.substitutions + out.deletions + out.hits
        if best is None or edits / words < best[0] / best[1]:
            best = (edits, words)
    assert best is not None
    return best


def corpus_scores(
    hyps: Sequence[str],
    refs: References,
    encoder=None,
    *,
    normalize: str = DEFAULT_NORMALIZATION,
) -> dict:
    """Corpus-level metrics plus the sacrebleu signatures (naming ``normalize``), unrounded.

    ``refs[i]`` is one reference or a list of references of item i (multi-reference:
    sacrebleu's BLEU and chrF++ over all of them; WER against each item's closest
    reference, total edits / total words of those references; cosine and BERTScore F1
    against the best-matching reference)."""
    # lazy: sacrebleu is slow to import
    from sacrebleu.metrics import BLEU, CHRF

    hyps, ref_lists = metric_texts(hyps, refs, normalize)
    if len(hyps) != len(ref_lists) or not hyps:
        raise ValueError("need equally many (>= 1) hypotheses and references")
    streams = reference_streams(ref_lists)
    bleu, chrf = BLEU(), CHRF(word_order=2)
    edits = [_wer_edits(h, r) for h, r in zip(hyps, ref_lists)]
    out = {
        "n": len(hyps),
        "references": sum(len(r) for r in ref_lists),
        # sacrebleu skips None references (variable numbers of references per item)
        "bleu": float(bleu.corpus_score(list(hyps), streams).score),  # type: ignore[arg-type]
        "chrf++": float(chrf.corpus_score(list(hyps), streams).score),  # type: ignore[arg-type]
        "wer": sum(e for e, _ in edits) / sum(w for _, w in edits),
        "normalize": normalize,
        "signatures": {"bleu": signature(bleu, normalize), "chrf++": signature(chrf, normalize)},
    }
    if encoder is not None:
        out["cosine"] = float(np.mean(_best_over_refs(cosines, hyps, ref_lists, encoder)))
        out["bertscore_f1"] = float(
            np.mean(_best_over_refs(bertscore_f1, hyps, ref_lists, encoder))
        )
    return out


def sentence_scores(
    hyps: Sequence[str],
    refs: References,
    encoder=None,
    *,
    normalize: str = DEFAULT_NORMALIZATION,
) -> list[dict]:
    """Per-item scores against all of the item's references (see :func:`corpus_scores`;
    their signatures: :func:`sentence_signatures`)."""
    # lazy: sacrebleu is slow to import
    from sacrebleu.metrics import BLEU, CHRF

    hyps, ref_lists = metric_texts(hyps, refs, normalize)
    bleu, chrf = BLEU(effective_order=True), CHRF(word_order=2)
    rows = []
    for h, r in zip(hyps, ref_lists):
        edits, words = _wer_edits(h, r)
        rows.append(
            {
                "bleu": bleu.sentence_score(h, r).score,
                "chrf++": chrf.sentence_score(h, r).score,
                "wer": edits / words,
            }
        )
    if encoder is not None:
        best_cos = _best_over_refs(cosines, hyps, ref_lists, encoder)
        best_f1 = _best_over_refs(bertscore_f1, hyps, ref_lists, encoder)
        for row, c, f in zip(rows, best_cos, best_f1):
            row["cosine"], row["bertscore_f1"] = float(c), float(f)
    return rows


def _best_over_refs(score, hyps: Sequence[str], ref_lists: list[list[str]], encoder) -> np.ndarray:
    """Per item, the best of ``score(hyp, ref)`` over its references."""
    flat_h = [h for h, refs in zip(hyps, ref_lists) for _ in refs]
    flat_r = [r for refs in ref_lists for r in refs]
    values = np.asarray(score(flat_h, flat_r, encoder), dtype=float)
    out, start = [], 0
    for refs in ref_lists:
        out.append(float(values[start : start + len(refs)].max()))
        start += len(refs)
    return np.array(out)


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
    """Map a metric onto [0, 1], higher = better, for display (clamped). Correlations use
    :func:`to_unit` instead, which never clamps."""
    if metric in ("bleu", "chrf++"):
        return min(1.0, max(0.0, value / 100.0))
    if metric == "wer":
        return max(0.0, 1.0 - value)
    if metric in ("cosine", "bertscore_f1"):
        return min(1.0, max(0.0, value))
    if metric in ("judge", "human"):
        return min(1.0, max(0.0, value / 10.0))
    raise ValueError(f"unknown metric {metric}")


def to_unit(metric: str, value: float) -> float:
    """A metric linearly onto its unit scale, higher = better, *unclamped*: BLEU and chrF++
    / 100, 1 − WER (below 0 when WER > 1), cosine and BERTScore as they are, the judge's
    0–10 score / 10. A linear map changes no correlation; it makes CCC comparable."""
    if metric in ("bleu", "chrf++"):
        return value / 100.0
    if metric == "wer":
        return 1.0 - value
    if metric in ("cosine", "bertscore_f1"):
        return value
    if metric == "judge":
        return value / 10.0
    raise ValueError(f"unknown metric {metric}")


CORRELATIONS = ("pearson", "spearman", "kendall", "ccc")
LOWER_IS_BETTER = {"wer"}
MIN_N = 3


def unavailable_reason(x: np.ndarray, y: np.ndarray, what: str = "metric") -> str | None:
    """Why no correlation of x and y can be reported (None: it can)."""
    if len(x) < MIN_N:
        return f"n = {len(x)} < {MIN_N}"
    if np.all(y == y[0]):
        return "the human scores are constant"
    if np.all(x == x[0]):
        return f"the {what} is constant"
    return None


def correlations(
    x: np.ndarray, y: np.ndarray, ux: np.ndarray | None = None, uy: np.ndarray | None = None
) -> dict[str, float]:
    """Pearson r, Spearman ρ, Kendall τ-b (scipy.stats) of x and y as given, and Lin's CCC
    (population moments) of their unit-scale forms ``ux``, ``uy`` (default x, y).

    The rank and product-moment figures use the values as given (a metric only negated
    when lower is better, which is exact), since rescaling in floating point can merge or
    split ties; CCC needs the common scale."""
    # lazy: scipy.stats is slow to import
    from scipy import stats

    ux = x if ux is None else ux
    uy = y if uy is None else uy
    cov = float(np.mean((ux - ux.mean()) * (uy - uy.mean())))
    return {
        "pearson": float(stats.pearsonr(x, y).statistic),
        "spearman": float(stats.spearmanr(x, y).statistic),
        "kendall": float(stats.kendalltau(x, y).statistic),
        "ccc": 2 * cov / float(ux.var() + uy.var() + (ux.mean() - uy.mean()) ** 2),
    }


CI_LEVEL = 0.95  # the correlation tables' intervals (their reports name it)


def bootstrap_ci(
    x: np.ndarray,
    y: np.ndarray,
    *,
    resamples: int,
    level: float = CI_LEVEL,
    seed: int = 0,
    ux: np.ndarray | None = None,
    uy: np.ndarray | None = None,
) -> dict:
    """Percentile bootstrap over items for every correlation; resamples where a figure is
    undefined (constant side) are left out of that figure and counted."""
    rng = np.random.default_rng(seed)
    draws: dict[str, list[float]] = {k: [] for k in CORRELATIONS}
    skipped = 0
    for _ in range(resamples):
        idx = rng.integers(0, len(x), len(x))
        bx, by = x[idx], y[idx]
        if unavailable_reason(bx, by) is not None:
            skipped += 1
            continue
        extra = (ux[idx], uy[idx]) if ux is not None and uy is not None else (None, None)
        for key, value in correlations(bx, by, *extra).items():
            if math.isfinite(value):
                draws[key].append(value)
    tail = (1 - level) / 2
    out: dict = {"resamples": resamples, "skipped": skipped, "level": level, "seed": seed}
    for key, values in draws.items():
        out[key] = (
            [float(np.quantile(values, tail)), float(np.quantile(values, 1 - tail))]
            if values
            else None
        )
    return out


def correlation_table(
    metric_rows: Sequence[dict],
    human: Sequence[float | None],
    *,
    human_scale: Scale,
    bootstrap: int = 0,
    seed: int = 0,
) -> list[dict]:
    """Pearson, Spearman, Kendall τ-b and Lin's CCC of every metric against human scores.

    ``human_scale`` is the declared (min, max) of the human scores: a score outside it is
    refused (ValueError naming its position), None/NaN scores are left out and counted.
    Pearson, Spearman and Kendall use the values as given (WER negated: higher = better);
    for CCC both sides go onto the unit scale linearly — the metric by :func:`to_unit`,
    the human score as (h − min)/(max − min) — never clamped. n < 3 or a constant side
    gives None with the reason in ``unavailable``, never 0 or 1. Nothing is rounded.
    ``bootstrap`` > 0 adds percentile CIs (``ci``) from that many resamples."""
    lo, hi = human_scale
    if not lo < hi:
        raise ValueError(f"human_scale needs min < max, got {human_scale}")
    if len(metric_rows) != len(human):
        raise ValueError("need one human score per metric row")
    h = np.array([math.nan if v is None else float(v) for v in human], dtype=float)
    for i, value in enumerate(h):
        problem = check_on_scale(value, (lo, hi))
        if problem:
            raise ValueError(f"human score at position {i + 1}: {problem}")
    human_missing = np.isnan(h)
    names = [m for m in (*METRICS, "judge") if any(m in r for r in metric_rows)]
    table = []
    for name in names:
        raw = np.array(
            [math.nan if r.get(name) is None else float(r[name]) for r in metric_rows],
            dtype=float,
        )
        metric_missing = ~np.isfinite(raw)
        keep = ~(metric_missing | human_missing)
        x = -raw[keep] if name in LOWER_IS_BETTER else raw[keep]
        y = h[keep]
        ux = np.array([to_unit(name, v) for v in raw[keep]], dtype=float)
        uy = (y - lo) / (hi - lo)
        row: dict = {
            "metric": name,
            "n": int(keep.sum()),
            "excluded": {
                "human_missing": int(human_missing.sum()),
                "metric_missing": int((metric_missing & ~human_missing).sum()),
            },
            "human_scale": [lo, hi],
        }
        reason = unavailable_reason(x, y)
        row["unavailable"] = reason
        values = dict.fromkeys(CORRELATIONS) if reason else correlations(x, y, ux, uy)
        row.update(values)
        if bootstrap and not reason:
            row["ci"] = bootstrap_ci(x, y, resamples=bootstrap, seed=seed, ux=ux, uy=uy)
        table.append(row)
    return table
