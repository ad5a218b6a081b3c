"""Writes the dialect identifier (resources/dialect_id/model.npz) from the shared Vashantor
corpus: every standard sentence and its five dialect versions (engine/text/dialect_id.py).

    python scripts/train_dialect_id.py [--data ../shared/data]   # write the model

Recipe: character 1-4-grams within words, TF-IDF (sublinear tf), multinomial logistic
regression; then only the features that weigh most in some class are kept and the model is
fitted again on them, so the file stays small. ``bench/dialect_id.py`` measures the same
recipe on sentences held out by source sentence.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.text.dialect_id import MODEL_FILE, NGRAMS, model_input, save_model  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "resources" / Path(*MODEL_FILE)
DIALECTS = ("barishal", "chittagong", "mymensingh", "noakhali", "sylhet")
CLASSES = ("standard", *DIALECTS)
KEEP_FEATURES = 12000  # features kept after the first fit
REGULARISATION = 10.0  # logistic regression's C


def default_data() -> Path:
    """../shared/data beside the checkout, or UPABHASHA_SHARED_DATA (as the tests)."""
    return Path(os.environ.get("UPABHASHA_SHARED_DATA", ROOT.parent / "shared" / "data"))


def corpus(data: Path) -> list[dict]:
    """One row per sentence: source (the standard sentence it belongs to), text, dialect,
    and the official Vashantor split of its source."""
    rows = []
    with (data / "vashantor" / "vashantor_multiway.csv").open(encoding="utf-8") as fh:
        for r in csv.DictReader(fh):
            source = model_input(r["bangla_speech"])
            for code in CLASSES:
                text = r["bangla_speech" if code == "standard" else code]
                rows.append(
                    {"source": source, "text": text, "dialect": code, "split": r["vashantor_split"]}
                )
    return rows


def train(texts: list[str], labels: list[str], keep: int = KEEP_FEATURES) -> dict:
    """The model's arrays (engine.text.dialect_id.save_model's arguments)."""
    import numpy as np
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    inputs = [model_input(t) for t in texts]

    def fit(vocabulary=None):
        vec = TfidfVectorizer(
            analyzer="char_wb",
            ngram_range=NGRAMS,
            sublinear_tf=True,
            min_df=2 if vocabulary is None else 1,
            vocabulary=vocabulary,
            dtype=np.float64,
        )
        x = vec.fit_transform(inputs)
        clf = LogisticRegression(C=REGULARISATION, max_iter=3000)
        clf.fit(x, labels)
        return vec, clf

    vec, clf = fit()
    names = vec.get_feature_names_out()
    weight = np.abs(clf.coef_).max(axis=0)
    kept = sorted(names[np.argsort(-weight)[:keep]])
    vec, clf = fit(kept)
    return {
        "classes": list(clf.classes_),
        "vocabulary": list(vec.get_feature_names_out()),
        "idf": vec.idf_,
        "coef": clf.coef_,
        "intercept": clf.intercept_,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=default_data())
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    rows = corpus(args.data)
    model = train([r["text"] for r in rows], [r["dialect"] for r in rows])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    save_model(args.out, **model)
    print(f"{args.out}: {len(model['vocabulary'])} features, {args.out.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
