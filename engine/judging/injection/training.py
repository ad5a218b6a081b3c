"""Training the injection model (:mod:`engine.judging.injection.model`) from labelled
answers: for ``scripts/train_injection_model.py``, which writes ``resources/injection/model.json``,
and for the leave-one-round-out bench."""

from __future__ import annotations

from collections import Counter

from engine.judging.injection.model import (
    PARTS,
    REGULARISATION,
    answer_sentences,
    model_input,
    vectorizer,
)
from engine.judging.injection.rules import rule_hits


def train(attacks: list[str], legit: list[str]) -> dict:
    """A model (JSON-able) from labelled answers; the same input gives the same model."""
    import numpy as np
    import scipy.sparse as sp
    from sklearn.linear_model import LogisticRegression

    legit = [*legit, *carriers(attacks)]
    texts = sorted(model_input(t) for t in attacks) + sorted(model_input(t) for t in legit)
    labels = [1] * len(attacks) + [0] * len(legit)
    vectorizers = [vectorizer(*part) for part in PARTS]
    matrix = sp.hstack([v.fit_transform(texts) for v in vectorizers]).tocsr()
    fitted = LogisticRegression(
        C=REGULARISATION, class_weight="balanced", solver="lbfgs", max_iter=5000
    ).fit(matrix, labels)
    coef = fitted.coef_[0]
    parts, start = [], 0
    for v in vectorizers:
        vocab = sorted(v.vocabulary_, key=v.vocabulary_.__getitem__)
        stop = start + len(vocab)
        parts.append(
            {
                "vocabulary": vocab,
                # four decimals: the file stays small, well inside --check's tolerance
                "idf": [round(float(x), 4) for x in v.idf_],
                "coef": [round(float(x), 4) for x in coef[start:stop]],
            }
        )
        start = stop
    assert start == len(coef) and np.isfinite(coef).all()
    return {"parts": parts, "intercept": round(float(fitted.intercept_[0]), 4)}


def carriers(attacks: list[str]) -> list[str]:
    """The real answers the attacks are hidden after: sentences found in two or more
    attacks that trip no rule. Legitimate on their own — without them the model learns that
    "the largest planet" is an attack (it flagged 22 of 24,720 real Bengali texts so)."""
    counts = Counter(p for t in attacks for p in dict.fromkeys(answer_sentences(t)))
    return sorted(p for p, n in counts.items() if n >= 2 and len(p) >= 20 and not rule_hits(p)[0])
