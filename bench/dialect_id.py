"""Held-out accuracy of the dialect identifier (engine/text/dialect_id.py).

The recipe of ``scripts/train_dialect_id.py`` is trained on the Vashantor sentences whose
standard source is in the official train split and scored on the rest (test and
validation): the split is made by source sentence, so no parallel version of a test
sentence is seen in training. Scoring goes through the numpy reader the app uses, on the
stored (float16) form of the model.

    python bench/dialect_id.py [--data ../shared/data] [--quick]

Last line: one JSON object with accuracy, accuracy over the five dialects only, per-dialect
recall, the confusion matrix (rows: true class, columns: predicted, in ``classes`` order).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import numpy as np  # noqa: E402
from train_dialect_id import CLASSES, corpus, default_data, train  # noqa: E402

from engine.text.dialect_id import DialectModel, save_model  # noqa: E402


def trained_on_train_split(data: Path) -> tuple[DialectModel, list[dict]]:
    """The recipe trained on the official train split's sentences, read back from its
    stored form; and the held-out sentences (no source of theirs in training)."""
    rows = corpus(data)
    training = [r for r in rows if r["split"] == "train"]
    test = [r for r in rows if r["split"] != "train"]
    assert not {r["source"] for r in training} & {r["source"] for r in test}
    arrays = train([r["text"] for r in training], [r["dialect"] for r in training])
    buffer = io.BytesIO()
    save_model(buffer, **arrays)
    buffer.seek(0)
    with np.load(buffer, allow_pickle=False) as stored:
        model = DialectModel.from_arrays(stored)
    return model, test


def held_out(data: Path, *, quick: bool = False) -> dict:
    started = time.perf_counter()
    model, test = trained_on_train_split(data)
    trained = time.perf_counter() - started
    if quick:
        test = test[: len(test) // 4]
    buffer = io.BytesIO()
    save_model(
        buffer,
        classes=model.classes,
        vocabulary=list(model.vocabulary),
        idf=model.idf,
        coef=model.coef,
        intercept=model.intercept,
    )
    size = buffer.tell()

    probs = model.probabilities([r["text"] for r in test])
    predicted = [model.classes[i] for i in probs.argmax(axis=1)]
    truth = [r["dialect"] for r in test]
    index = {c: i for i, c in enumerate(CLASSES)}
    confusion = np.zeros((len(CLASSES), len(CLASSES)), dtype=int)
    for t, p in zip(truth, predicted, strict=True):
        confusion[index[t], index[p]] += 1
    right = np.diag(confusion)
    recall = {c: round(float(right[i] / confusion[i].sum()), 4) for i, c in enumerate(CLASSES)}
    dialects = [index[c] for c in CLASSES if c != "standard"]
    return {
        "accuracy": round(float(right.sum() / confusion.sum()), 4),
        "accuracy_dialects": round(float(right[dialects].sum() / confusion[dialects].sum()), 4),
        "recall": recall,
        "classes": list(CLASSES),
        "confusion": confusion.tolist(),
        "train_sentences": sum(r["split"] == "train" for r in corpus(data)),
        "test_sentences": len(test),
        "test_sources": len({r["source"] for r in test}),
        "features": len(model.idf),
        "model_bytes": size,
        "train_seconds": round(trained, 1),
        "goal": 0.85,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=default_data())
    parser.add_argument("--quick", action="store_true", help="score a quarter of the test set")
    args = parser.parse_args()
    if not (args.data / "vashantor").is_dir():
        print(json.dumps({"skipped": f"no Vashantor corpus under {args.data}"}))
        return 0
    print(json.dumps(held_out(args.data, quick=args.quick)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
