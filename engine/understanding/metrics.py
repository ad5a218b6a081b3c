"""Surface and classification metrics of understanding tasks (paper 001).

Scales, always stated: BLEU, chrF++, ROUGE-2/ROUGE-L F1 and exact match are 0–100;
precision/recall/F1/accuracy are 0–1.

- BLEU and chrF++ (``CHRF(word_order=2)``) from sacrebleu at corpus level, with their
  signatures; several references per item are allowed (shorter reference lists are padded
  with their first reference, which changes neither BLEU's clipped counts and closest length
  nor chrF's best-reference choice).
- ROUGE-2 and ROUGE-L from rouge-score, whose default tokenizer keeps only ``[a-z0-9]`` and
  so deletes every Bengali letter: :class:`WhitespaceTokenizer` (NFC, case-folded, split on
  white space and punctuation) is passed instead. Corpus ROUGE = mean sentence F1, best
  reference per item.
- Exact match: normalised, case-folded equality with any reference.
- Classification (scikit-learn): accuracy, macro precision/recall/F1 over the task's labels
  and the confusion matrix; an unparseable answer is a wrong prediction (row ``<unparseable>``
  of the confusion matrix), so it lowers recall instead of disappearing.
- Sentence chrF++ per item (taxonomy, flips, the script gap) through :class:`BatchScorer`,
  (numpy, all outputs at once); it equals sacrebleu's ``sentence_score`` (asserted in tests
  and in bench/task_scoring.py).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

import numpy as np

from engine.stats.metric_inputs import metric_texts, signature
from engine.text.textnorm import DEFAULT_NORMALIZATION, canonical_key
from engine.understanding import fast_scores

UNPARSEABLE_LABEL = "<unparseable>"


class WhitespaceTokenizer:
    """A rouge-score tokenizer that keeps Bengali: word characters (letters, marks, digits)
    of the NFC (unless ``normalize`` is "none"), case-folded text; Bengali vowel signs are
    combining marks, so they stay joined to their word."""

    def __init__(self, normalize: str = DEFAULT_NORMALIZATION):
        self.normalize = normalize

    def tokenize(self, text: str) -> list[str]:
        if self.normalize != "none":
            text = unicodedata.normalize("NFC", text)
        text = text.casefold()
        return [m.group(0) for m in re.finditer(r"[\w\u0980-\u09ff\u200c\u200d]+", text)]


def _padded(refs: Sequence[Sequence[str]]) -> list[list[str]]:
    """Reference streams for sacrebleu: stream j holds each item's j-th reference."""
    if any(not r for r in refs):
        raise ValueError("every item needs at least one reference")
    width = max(len(r) for r in refs)
    return [[r[j] if j < len(r) else r[0] for r in refs] for j in range(width)]


def corpus_text_scores(
    hyps: Sequence[str],
    refs: Sequence[Sequence[str]],
    *,
    normalize: str = DEFAULT_NORMALIZATION,
) -> dict:
    """BLEU, chrF++ (with signatures naming ``normalize``), ROUGE-2/L and exact match of one
    set of outputs."""
    # lazy: rouge-score (nltk, scikit-learn) is slow to import
    from rouge_score import rouge_scorer
    from sacrebleu.metrics import BLEU, CHRF

    if len(hyps) != len(refs) or not hyps:
        raise ValueError("need equally many (>= 1) outputs and reference lists")
    hyps, refs = metric_texts(hyps, refs, normalize)
    streams = _padded(refs)
    bleu, chrf = BLEU(), CHRF(word_order=2)
    scorer = rouge_scorer.RougeScorer(
        ["rouge2", "rougeL"], tokenizer=WhitespaceTokenizer(normalize)
    )
    r2, rl = [], []
    for h, rs in zip(hyps, refs):
        scores = [scorer.score(r, h) for r in rs]
        r2.append(max(s["rouge2"].fmeasure for s in scores))
        rl.append(max(s["rougeL"].fmeasure for s in scores))
    key = canonical_key if normalize == "nfc" else str.casefold
    exact = [key(h) in {key(r) for r in rs} for h, rs in zip(hyps, refs)]
    return {
        "n": len(hyps),
        "bleu": bleu.corpus_score(list(hyps), streams).score,
        "chrf++": chrf.corpus_score(list(hyps), streams).score,
        "rouge2": 100 * float(np.mean(r2)),
        "rougeL": 100 * float(np.mean(rl)),
        "exact_match": 100 * float(np.mean(exact)),
        "scale": "0-100",
        "normalize": normalize,
        "signatures": {"bleu": signature(bleu, normalize), "chrf++": signature(chrf, normalize)},
    }


# why a label's score has no value (sklearn's zero division, kept as undefined, never 0)
UNDEFINED_PRECISION = "no item was predicted as this label"
UNDEFINED_RECALL = "no item has this gold label"
UNDEFINED_F1 = "no item has this label, gold or predicted"
_UNDEFINED = {"precision": UNDEFINED_PRECISION, "recall": UNDEFINED_RECALL, "f1": UNDEFINED_F1}


def classification_scores(gold: Sequence[str], predicted: Sequence[str | None], labels) -> dict:
    """Accuracy and macro P/R/F1 over ``labels``; None (unparseable) counts as wrong.

    A label never predicted has no precision, one never gold no recall (0/0): it is
    undefined (None in ``per_label``, its reason in ``undefined``), and the macro score is
    the mean over the labels where it is defined (``macro_labels`` says how many), or None
    with a reason when it is defined for none."""
    # lazy: scikit-learn is slow to import
    from sklearn.metrics import accuracy_score, confusion_matrix, precision_recall_fscore_support

    labels = list(labels)
    pred = [p if p is not None else UNPARSEABLE_LABEL for p in predicted]
    p, r, f, support = precision_recall_fscore_support(
        list(gold), pred, labels=labels, average=None, zero_division=np.nan
    )
    rows = labels + [UNPARSEABLE_LABEL]
    matrix = confusion_matrix(list(gold), pred, labels=rows)
    per_label = {
        label: {
            "precision": _defined(p[i]),
            "recall": _defined(r[i]),
            "f1": _defined(f[i]),
            "support": int(support[i]),
        }
        for i, label in enumerate(labels)
    }
    result: dict = {"n": len(gold), "accuracy": float(accuracy_score(list(gold), pred))}
    undefined: dict[str, str] = {}
    macro_labels: dict[str, int] = {}
    for name, values in (("precision", p), ("recall", r), ("f1", f)):
        defined = [float(v) for v in values if not np.isnan(v)]
        macro_labels[f"macro_{name}"] = len(defined)
        result[f"macro_{name}"] = float(np.mean(defined)) if defined else None
        if not defined:
            undefined[f"macro_{name}"] = _UNDEFINED[name] + " (none of the labels)"
        elif len(defined) < len(labels):
            left_out = [lb for lb in labels if per_label[lb][name] is None]
            undefined[f"macro_{name}"] = (
                f"{_UNDEFINED[name]}: {', '.join(left_out)} (left out of the mean)"
            )
    return result | {
        "scale": "0-1",
        "per_label": per_label,
        "macro_labels": macro_labels,
        "undefined": undefined,
        "confusion": {
            "labels": rows,
            "matrix": matrix[: len(labels)].tolist(),  # rows: gold labels; columns: predictions
        },
    }


def _defined(value) -> float | None:
    return None if np.isnan(value) else float(value)


class BatchScorer:
    """Sentence-level chrF++ and BLEU (effective order) for many outputs at once
    (:mod:`engine.understanding.fast_scores`, equal to sacrebleu's ``sentence_score``)."""

    def score(
        self, hyps: Sequence[str], refs: Sequence[Sequence[str]], *, bleu: bool = True
    ) -> dict[str, np.ndarray]:
        """``{"chrf++": array, "bleu": array}`` (0–100), one value per output."""
        if not hyps:
            return {"chrf++": np.zeros(0), **({"bleu": np.zeros(0)} if bleu else {})}
        out = {"chrf++": fast_scores.sentence_chrf(hyps, refs)}
        if bleu:
            out["bleu"] = fast_scores.sentence_bleu(hyps, refs)
        return out


def sentence_chrf(hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> np.ndarray:
    return BatchScorer().score(hyps, refs, bleu=False)["chrf++"]


def macro_chrf_ci(
    hyps: Sequence[str],
    refs: Sequence[Sequence[str]],
    groups: Sequence[str],
    *,
    resamples: int,
    level: float,
    seed: int,
) -> dict:
    """Macro corpus chrF++ over ``groups`` (dialects) with a percentile bootstrap CI: each
    replicate resamples the items of every group with replacement and recomputes each group's
    corpus chrF++ from summed statistics (sacrebleu's own aggregation). The bootstrap's
    settings are :class:`engine.understanding.stats.TaskStatsSettings`."""
    stats = fast_scores.chrf_stats(hyps, refs)
    labels = np.asarray(groups)
    names = sorted(set(groups))
    rng = np.random.default_rng(seed)
    point, replicates = [], []
    for name in names:
        rows = stats[labels == name]
        point.append(float(fast_scores.chrf_from_stats(rows.sum(axis=0, keepdims=True))[0]))
        picks = rng.integers(0, len(rows), size=(resamples, len(rows)))
        sums = rows[picks].sum(axis=1)  # (resamples, columns)
        replicates.append(fast_scores.chrf_from_stats(sums))
    per_replicate = np.mean(replicates, axis=0)
    alpha = (1 - level) / 2
    return {
        "mean": float(np.mean(point)),
        "low": float(np.quantile(per_replicate, alpha)),
        "high": float(np.quantile(per_replicate, 1 - alpha)),
        "level": level,
        "resamples": resamples,
        "scale": "0-100",
        "per_group": dict(zip(names, point)),
    }
