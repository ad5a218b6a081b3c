"""Writes the injection model (resources/injection/model.json) from the labelled rounds of
``bench/injection_detection.py`` (its ``TRAINING`` sets; see engine/judging/injection/model.py).

    python scripts/train_injection_model.py          # write the model
    python scripts/train_injection_model.py --check  # exit 1 when the stored model is not
                                                     # the one the committed rounds give
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from injection_detection import SETS, TRAINING  # noqa: E402

from engine.judging.injection.model import MODEL_FILE  # noqa: E402
from engine.judging.injection.training import train  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "resources" / Path(*MODEL_FILE)


def training_model(names=TRAINING) -> dict:
    attacks = [t for n in names for _, t in SETS[n][0]]
    legit = [t for n in names for _, t in SETS[n][1]]
    return train(attacks, legit)


def serialised(model: dict) -> str:
    return json.dumps(model, ensure_ascii=False, separators=(",", ":")) + "\n"


def same_model(stored: dict, fresh: dict, tolerance: float = 1e-4) -> bool:
    """Same vocabularies; weights equal up to ``tolerance`` (another BLAS may round the
    solver's last digits differently)."""

    def close(a: list[float], b: list[float]) -> bool:
        return len(a) == len(b) and all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))

    return (
        len(stored["parts"]) == len(fresh["parts"])
        and abs(stored["intercept"] - fresh["intercept"]) <= tolerance
        and all(
            s["vocabulary"] == f["vocabulary"]
            and close(s["idf"], f["idf"])
            and close(s["coef"], f["coef"])
            for s, f in zip(stored["parts"], fresh["parts"], strict=True)
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    model = training_model()
    text = serialised(model)
    if args.check:
        same = OUT.is_file() and same_model(json.loads(OUT.read_text(encoding="utf-8")), model)
        print(
            "model up to date" if same else f"{OUT} differs: run scripts/train_injection_model.py"
        )
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
