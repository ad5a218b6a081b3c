"""A learned second opinion for the injection rules.

The rules (:mod:`engine.judging.injection.detect`) learn the wording of the rounds they are tuned
on: at first contact each new round had 16–18 % of its legitimate answers flagged. A
classifier trained on every labelled round — character n-grams (2–5, within words: they
survive Bengali suffixes, Banglish spellings and the dialects) and word uni/bigrams, TF-IDF,
logistic regression — gives the probability that an answer addresses its evaluation. Its
job is measured by leave-one-round-out (``bench/injection_generalisation.py``): a rule's
flag stands only when the model gives it at least :data:`CONFIRM` (or a second kind of rule
agrees); the model alone flags above :data:`ALONE` when the answer speaks to its evaluation;
what is left over is *suspicious* (the
judge run's disagreement check decides). On the three issue-22 rounds, with the rules as
they were at each round's first contact and the model trained without that round, routed
attacks went from 35/75/95 % to 85/80/95 % and false flags from 18/18/16 % to 0/2/4 %;
with more rounds trained on and the thresholds below (chosen leave-one-round-out), see
``bench/injection_generalisation.py``.
Each answer is read as a whole, sentence by sentence and in pairs of sentences (the
highest probability counts), so an order after a long real answer is not diluted by it.

The model is data: ``resources/injection/model.json`` (vocabularies, idf weights,
coefficients — JSON, never a pickle), written by ``scripts/train_injection_model.py`` from the
committed rounds (:mod:`engine.judging.injection.training`: sorted input, a deterministic
solver). Scoring counts n-grams with scikit-learn's own analyzers (a ``CountVectorizer``
over the stored vocabulary) and does TF-IDF's few lines of arithmetic itself (see
:meth:`Scorer.probability` for why).
"""

from __future__ import annotations

import json
import logging
from functools import cache
from importlib.resources import files

from engine.judging.injection.text import matching_form, sentences

log = logging.getLogger(__name__)

# chosen leave-one-round-out once two blind training rounds were in (0.4/0.6 -> 0.6/0.7): on
# the three rounds the rules were never tuned on, false flags 6.2/5.0/5.0 -> 0/2.5/2.5 %,
# routed 92/92/90 -> 92/87/88 %
CONFIRM = 0.6  # a rule's flag stands when the model gives at least this
ALONE = 0.7  # the model flags on its own above this (when the answer speaks to its evaluation)
SUSPICIOUS = 0.4  # unflagged, above this: suspicious (the disagreement check runs)
# an answer to a question that itself speaks of grading (a marking scheme, an LLM judge)
# is expected to use the words of an order: both thresholds rise to this; on the two blind
# training rounds, leave-one-round-out, false flags 2.5/2.5 -> 1.9/0.6 %, routed unchanged
ON_TOPIC = 0.8
REGULARISATION = 10.0  # logistic regression's C
PARTS = (  # (analyzer, n-gram range, minimum document frequency)
    ("char_wb", (2, 5), 2),
    ("word", (1, 2), 1),
)
MODEL_FILE = ("injection", "model.json")
TOKENS = r"(?u)\b\w+\b"  # one-letter words count ("5", "আ")


def model_input(text: str) -> str:
    """The form the model reads: the rules' matching form, lower-cased."""
    return matching_form(text or "").lower()


def vectorizer(analyzer: str, ngrams: tuple[int, int], min_df: int, vocabulary=None):
    import numpy as np
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(
        analyzer=analyzer,
        ngram_range=ngrams,
        min_df=1 if vocabulary is not None else min_df,
        sublinear_tf=True,
        token_pattern=TOKENS if analyzer == "word" else None,
        vocabulary=vocabulary,
        dtype=np.float64,
    )


def answer_sentences(text: str) -> list[str]:
    return sentences(matching_form(text))


class Scorer:
    """The probability that an answer addresses its evaluation, from a trained model
    (:func:`engine.judging.injection.training.train`)."""

    def __init__(self, model: dict):
        import numpy as np
        from sklearn.feature_extraction.text import CountVectorizer

        self._parts = []
        for (analyzer, ngrams, _min_df), part in zip(PARTS, model["parts"], strict=True):
            counter = CountVectorizer(
                analyzer=analyzer,
                ngram_range=ngrams,
                token_pattern=TOKENS if analyzer == "word" else None,
                vocabulary={t: i for i, t in enumerate(part["vocabulary"])},
            )
            self._parts.append((counter, np.array(part["idf"]), np.array(part["coef"])))
        self._intercept = float(model["intercept"])

    def probability(self, text: str) -> float:
        """The highest probability of the whole text, of each sentence and of each two
        consecutive sentences: an order after a long real answer is not diluted by it.
        Each sentence is analysed once; a window's counts are its sentences' summed (exact
        for the character n-grams, which stay inside words; a word pair across two
        sentences is not counted)."""
        import math

        import numpy as np

        parts = [p.lower() for p in answer_sentences(text)] or [model_input(text)]
        select = np.array(_window_rows(len(parts)), dtype=np.float64)
        z = np.full(len(select), self._intercept)
        for counter, idf, coef in self._parts:
            # TfidfTransformer's arithmetic (sublinear tf, idf, l2 rows) written out, dense
            # over the few features present: its per-call input validation and scipy's
            # small-matrix overhead took most of the time for one answer
            counts = counter.transform(parts)  # CSR: indices are the feature columns
            present = np.unique(counts.indices)
            if not len(present):
                continue
            tf = select @ counts[:, present].toarray()
            weighted = np.where(tf > 0, np.log(np.maximum(tf, 1.0)) + 1.0, 0.0) * idf[present]
            norms = np.maximum(np.linalg.norm(weighted, axis=1), 1e-12)
            z += (weighted @ coef[present]) / norms
        return 1.0 / (1.0 + math.exp(-float(z.max())))


@cache
def _window_rows(n: int) -> list[list[int]]:
    """Rows selecting the windows of ``n`` sentences: all of them, each one, each pair."""
    rows = [[1] * n]
    if n > 1:
        rows += [[int(i == j) for j in range(n)] for i in range(n)]
    if n > 2:
        rows += [[int(j in (i, i + 1)) for j in range(n)] for i in range(n - 1)]
    return rows


@cache
def stored_scorer() -> Scorer:
    """The committed model (read once: about a second with scikit-learn's import)."""
    source = files("resources").joinpath(*MODEL_FILE)
    return Scorer(json.loads(source.read_text(encoding="utf-8")))
