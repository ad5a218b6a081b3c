"""Which Bengali dialect a sentence is written in: character n-grams and logistic regression.

The model is data, ``resources/dialect_id/model.npz`` (vocabulary, idf weights,
coefficients, the calibrating temperature, the flag's confidence and the figures measured
when it was built — arrays that numpy reads without pickle), trained by
``scripts/train_dialect_id.py`` on the Vashantor corpus's five dialects and their standard
Bengali sources, calibrated and measured on sentences held out by source sentence and on
standard Bengali from other collections (``bench/dialect_id.py`` repeats it). Reading it
needs numpy alone: the features are scikit-learn's ``char_wb`` n-grams (each word padded
with one space on both sides) and TF-IDF with sublinear term frequency and l2 rows, written
out here and checked against scikit-learn by the tests.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
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
    per code of ``classes``, calibrated by ``temperature``; ``flags_other`` says where
    another class is likely enough, at ``flag_confidence``, to flag a text."""

    classes: tuple[str, ...]
    vocabulary: dict[str, int]
    idf: np.ndarray
    coef: np.ndarray  # classes x features (the n-grams', then the words')
    intercept: np.ndarray
    words: dict[str, int] = field(default_factory=dict)  # whole words: dialect markers
    word_idf: np.ndarray = field(default_factory=lambda: np.zeros(0))
    temperature: float = 1.0
    flag_confidence: float = 0.5
    figures: dict = field(default_factory=dict, compare=False)  # measured when built

    @classmethod
    def from_arrays(cls, arrays) -> DialectModel:
        vocab = [str(t) for t in arrays["vocabulary"]]
        words = [str(t) for t in arrays["words"]] if "words" in arrays else []

        def scalar(name: str, default: float) -> float:
            return float(arrays[name]) if name in arrays else default

        return cls(
            tuple(str(c) for c in arrays["classes"]),
            {t: i for i, t in enumerate(vocab)},
            np.asarray(arrays["idf"], dtype=np.float64),
            np.asarray(arrays["coef"], dtype=np.float64),
            np.asarray(arrays["intercept"], dtype=np.float64),
            {t: i for i, t in enumerate(words)},
            np.asarray(arrays["word_idf"] if words else [], dtype=np.float64),
            scalar("temperature", 1.0),
            scalar("flag_confidence", 0.5),
            json.loads(str(arrays["figures"])) if "figures" in arrays else {},
        )

    def features(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """(feature columns, TF-IDF values) of one text, the few features present: the
        n-grams' block and the words' block, each l2-normalised (scikit-learn's
        ``FeatureUnion`` of two ``TfidfVectorizer``)."""
        seen = model_input(text)
        cols, values = _tfidf(char_ngrams(seen), self.vocabulary, self.idf)
        if not self.words:
            return cols, values
        word_cols, word_values = _tfidf(seen.split(), self.words, self.word_idf)
        return (
            np.concatenate([cols, word_cols + len(self.vocabulary)]),
            np.concatenate([values, word_values]),
        )

    def logits(self, texts: list[str]) -> np.ndarray:
        """The uncalibrated scores, one row per text."""
        logits = np.tile(self.intercept, (len(texts), 1))
        for row, text in enumerate(texts):
            cols, values = self.features(text)
            logits[row] += self.coef[:, cols] @ values
        return logits

    def probabilities(self, texts: list[str]) -> np.ndarray:
        logits = self.logits(texts) / self.temperature
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=1, keepdims=True)

    def flags_other(
        self, probs: np.ndarray, targets: list[str], confidence: float | None = None
    ) -> np.ndarray:
        """Per row of ``probs``: is a class other than its target the likeliest, with at
        least ``confidence`` (the model's :attr:`flag_confidence` by default)?"""
        limit = self.flag_confidence if confidence is None else confidence
        likeliest = probs.argmax(axis=1)
        target = np.array([self.classes.index(t) if t in self.classes else -1 for t in targets])
        return (target >= 0) & (likeliest != target) & (probs.max(axis=1) >= limit)

    def probability_of(self, text: str) -> dict[str, float]:
        """dialect code -> probability for one text."""
        row = self.probabilities([text])[0]
        return {c: float(p) for c, p in zip(self.classes, row, strict=True)}


def _tfidf(terms: list[str], vocabulary: dict[str, int], idf: np.ndarray):
    """Sublinear TF-IDF of ``terms`` over ``vocabulary``, l2-normalised: (columns, values)."""
    counts: dict[int, int] = {}
    for term in terms:
        col = vocabulary.get(term)
        if col is not None:
            counts[col] = counts.get(col, 0) + 1
    cols = np.fromiter(counts, dtype=np.int64, count=len(counts))
    values = (1.0 + np.log(np.fromiter(counts.values(), dtype=np.float64))) * idf[cols]
    norm = float(np.sqrt(values @ values))
    return cols, values / norm if norm else values


@cache
def dialect_model() -> DialectModel:
    """The shipped model (read once)."""
    path = files("resources").joinpath(*MODEL_FILE)
    with path.open("rb") as fh, np.load(fh, allow_pickle=False) as arrays:
        model = DialectModel.from_arrays(arrays)
    log.debug("dialect model: %d classes, %d features", len(model.classes), len(model.idf))
    return model


def save_model(
    path,
    *,
    classes,
    vocabulary,
    idf,
    coef,
    intercept,
    words=(),
    word_idf=(),
    temperature: float = 1.0,
    flag_confidence: float = 0.5,
    figures: dict | None = None,
) -> None:
    """Write a model as plain arrays (coefficients in float16: the file stays small and the
    probabilities move by less than 1e-3; the figures as one JSON string)."""
    np.savez_compressed(
        path,
        classes=np.asarray(classes, dtype=str),
        vocabulary=np.asarray(vocabulary, dtype=str),
        idf=np.asarray(idf, dtype=np.float32),
        coef=np.asarray(coef, dtype=np.float16),
        intercept=np.asarray(intercept, dtype=np.float32),
        words=np.asarray(list(words), dtype=str),
        word_idf=np.asarray(word_idf, dtype=np.float32),
        temperature=np.asarray(temperature, dtype=np.float64),
        flag_confidence=np.asarray(flag_confidence, dtype=np.float64),
        figures=np.asarray(json.dumps(figures or {}, ensure_ascii=False), dtype=str),
    )
