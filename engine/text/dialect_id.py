"""Which Bengali dialect a sentence is written in: character n-grams and logistic regression.

The model is data, ``resources/dialect_id/model.npz`` (vocabulary, idf weights,
coefficients — arrays that numpy reads without pickle), trained by
``scripts/train_dialect_id.py`` on the Vashantor corpus's five dialects and their standard
Bengali sources; ``bench/dialect_id.py`` measures it on sentences held out by source
sentence. Reading it needs numpy alone: the features are scikit-learn's ``char_wb``
n-grams (each word padded with one space on both sides) and TF-IDF with sublinear term
frequency and l2 rows, written out here and checked against scikit-learn by the tests.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

import numpy as np

from engine.text.textnorm import normalize_text

log = logging.getLogger(__name__)

MODEL_FILE = ("dialect_id", "model.npz")
NGRAMS = (1, 4)
_SPACE = re.compile(r"\s\s+")


def model_input(text: str) -> str:
    """The form the model reads and is trained on: the stored form (NFC), lower-cased."""
    return normalize_text(text or "").lower()


def char_ngrams(text: str, low: int = NGRAMS[0], high: int = NGRAMS[1]) -> list[str]:
    """scikit-learn's ``char_wb`` analyzer on already pre-processed text."""
    out: list[str] = []
    for word in _SPACE.sub(" ", text).split():
        padded = f" {word} "
        width = len(padded)
        for n in range(low, high + 1):
            offset = 0
            out.append(padded[offset : offset + n])
            while offset + n < width:
                offset += 1
                out.append(padded[offset : offset + n])
            if offset == 0:  # a word shorter than n counts once
                break
    return out


@dataclass(frozen=True)
class DialectModel:
    """A trained dialect identifier: ``probabilities`` gives one row per text, one column
    per code of ``classes``."""

    classes: tuple[str, ...]
    vocabulary: dict[str, int]
    idf: np.ndarray
    coef: np.ndarray  # classes x features
    intercept: np.ndarray

    @classmethod
    def from_arrays(cls, arrays) -> DialectModel:
        vocab = [str(t) for t in arrays["vocabulary"]]
        return cls(
            tuple(str(c) for c in arrays["classes"]),
            {t: i for i, t in enumerate(vocab)},
            np.asarray(arrays["idf"], dtype=np.float64),
            np.asarray(arrays["coef"], dtype=np.float64),
            np.asarray(arrays["intercept"], dtype=np.float64),
        )

    def features(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """(feature columns, TF-IDF values) of one text, the few features present."""
        counts: dict[int, int] = {}
        for gram in char_ngrams(model_input(text)):
            col = self.vocabulary.get(gram)
            if col is not None:
                counts[col] = counts.get(col, 0) + 1
        cols = np.fromiter(counts, dtype=np.int64, count=len(counts))
        values = (1.0 + np.log(np.fromiter(counts.values(), dtype=np.float64))) * self.idf[cols]
        norm = float(np.sqrt(values @ values))
        return cols, values / norm if norm else values

    def probabilities(self, texts: list[str]) -> np.ndarray:
        logits = np.tile(self.intercept, (len(texts), 1))
        for row, text in enumerate(texts):
            cols, values = self.features(text)
            logits[row] += self.coef[:, cols] @ values
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=1, keepdims=True)

    def probability_of(self, text: str) -> dict[str, float]:
        """dialect code -> probability for one text."""
        row = self.probabilities([text])[0]
        return {c: float(p) for c, p in zip(self.classes, row, strict=True)}


@cache
def dialect_model() -> DialectModel:
    """The shipped model (read once)."""
    path = files("resources").joinpath(*MODEL_FILE)
    with path.open("rb") as fh, np.load(fh, allow_pickle=False) as arrays:
        model = DialectModel.from_arrays(arrays)
    log.debug("dialect model: %d classes, %d features", len(model.classes), len(model.idf))
    return model


def save_model(path, *, classes, vocabulary, idf, coef, intercept) -> None:
    """Write a model as plain arrays (coefficients in float16: the file stays small and the
    probabilities move by less than 1e-3)."""
    np.savez_compressed(
        path,
        classes=np.asarray(classes, dtype=str),
        vocabulary=np.asarray(vocabulary, dtype=str),
        idf=np.asarray(idf, dtype=np.float32),
        coef=np.asarray(coef, dtype=np.float16),
        intercept=np.asarray(intercept, dtype=np.float32),
    )
