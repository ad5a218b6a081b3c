"""The dialect identifier and its "likely another dialect" flag, in-domain beside out of the
collection (engine/text/dialect_id.py, engine/translation/draft_checks.py).

The recipe of ``scripts/train_dialect_id.py`` is run from scratch: trained on the Vashantor
sentences whose standard source is in the official train split, calibrated (temperature and
the flag's confidence) on the validation split, and measured in its stored form on text it
was neither trained nor tuned on:

- in-domain: the test split (held out by source sentence, no parallel version of a test
  sentence in training), and its least familiar third (the sentences with the most words
  their dialect's training sentences never use);
- the same collection's other sentences: Vashantor's per-dialect files' rows whose source is
  not in the multiway table;
- out of the collection, standard Bengali only: BlanCK's questions and BanglaSocialBias's
  prompts, checked as drafts of each dialect (flagged when the model alone says another
  class, as a paraphrase would be; copies, chrF++ ≥ 90, by the copy rule).

Not measured: genuine dialect sentences from other collections (none is in the shared data).

    python bench/dialect_id.py [--data ../shared/data]

Last line: one JSON object. ``summary`` puts in-domain and out-of-collection accuracy and
false-flag rates side by side; ``figures`` are the full measurements; ``matches_shipped``
says whether the shipped model (resources/dialect_id/model.npz) is this run's.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import numpy as np  # noqa: E402
from train_dialect_id import build, default_data, stored  # noqa: E402

from engine.text.dialect_id import DialectModel, dialect_model  # noqa: E402

GOAL_FALSE_FLAGS = 0.05


def trained_on_train_split(data: Path) -> tuple[DialectModel, list[dict]]:
    """The recipe trained on the official train split's sentences and calibrated on the
    validation split, read back from its stored form; and the test split's sentences (no
    source of theirs in training or calibration)."""
    arrays, _model, test = build(data)
    return stored(arrays), test


def summary(f: dict) -> dict:
    """In-domain and out-of-collection figures side by side."""
    std = f["out_of_collection_standard"]
    return {
        "flag_confidence": f["flag_confidence"],
        "accuracy": {
            "in_domain_dialects": f["in_domain"]["accuracy"],
            "in_domain_six_classes": f["in_domain"]["accuracy_six_classes"],
            "in_domain_unfamiliar_third": f["in_domain_unfamiliar"]["accuracy"],
            "other_vashantor_files": f["other_vashantor_files"]["accuracy"],
            "out_of_collection_standard": {n: s["named_standard"] for n, s in std.items()},
            "out_of_collection_dialects": None,
        },
        "false_flags": {
            "in_domain": f["in_domain"]["false_flags"],
            "in_domain_unfamiliar_third": f["in_domain_unfamiliar"]["false_flags"],
            "other_vashantor_files": f["other_vashantor_files"]["false_flags"],
            "out_of_collection_dialects": None,
        },
        "false_flags_likeliest_rule": {
            "in_domain": f["in_domain"]["false_flags_likeliest_rule"],
            "in_domain_unfamiliar_third": f["in_domain_unfamiliar"]["false_flags_likeliest_rule"],
            "other_vashantor_files": f["other_vashantor_files"]["false_flags_likeliest_rule"],
        },
        "flagged_when_wrong": {
            "another_dialect_in_domain": f["in_domain"]["wrong_dialect_flagged"],
            "standard_paraphrase_in_domain": f["in_domain"]["standard"]["flagged_as_paraphrase"],
            "standard_paraphrase_out_of_collection": {
                n: s["flagged_as_paraphrase"] for n, s in std.items()
            },
            "copies_out_of_collection": {n: s["copies_flagged"] for n, s in std.items()},
        },
        "not_measured": f["not_measured"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=default_data())
    args = parser.parse_args()
    if not (args.data / "vashantor").is_dir():
        print(json.dumps({"skipped": f"no Vashantor corpus under {args.data}"}))
        return 0
    started = time.perf_counter()
    arrays, model, _test = build(args.data)
    figures = arrays["figures"]
    shipped = dialect_model()
    out = {
        "summary": summary(figures),
        "goal_false_flags": GOAL_FALSE_FLAGS,
        "goal_met_unfamiliar_third": (
            figures["in_domain_unfamiliar"]["false_flags"] <= GOAL_FALSE_FLAGS
        ),
        "figures": figures,
        "features": {"ngrams": len(model.idf), "words": len(model.words)},
        "temperature": round(model.temperature, 4),
        "matches_shipped": shipped.figures == figures and np.array_equal(shipped.coef, model.coef),
        "seconds": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(out, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
