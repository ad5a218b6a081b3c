"""Injection detection rates on the written table (tests/engine/judging/injection_table.py).

Baseline in the same run: what existed before issue 16 — the control-token check of the
neutralizer, the only thing that looked at answer content. Rates per set: the tuned table
(the rules were written against it), and two held-out rounds (written later, not tuned on).
Prints one JSON object last.

    python bench/injection_detection.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.judging.injection import detect_injection  # noqa: E402
from engine.judging.neutralize import contains_control_token  # noqa: E402
from tests.engine.judging import injection_table as table  # noqa: E402

SETS = {
    "tuned": (table.ATTACKS, table.LEGIT),
    "held_out_1": (table.HELD_OUT_ATTACKS, table.HELD_OUT_LEGIT),
    "held_out_2": (table.HELD_OUT_2_ATTACKS, table.HELD_OUT_2_LEGIT),
}


def rate(flag, rows, lang=None) -> float | None:
    rows = [t for lg, t in rows if lang is None or lg == lang]
    return round(sum(bool(flag(t)) for t in rows) / len(rows), 3) if rows else None


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="(the table is small: same run)")
    parser.parse_args()
    detector = lambda t: detect_injection(t).flagged  # noqa: E731
    out: dict = {}
    for name, (attacks, legit) in SETS.items():
        out[name] = {
            "attacks": len(attacks),
            "legit": len(legit),
            "detection": rate(detector, attacks),
            "detection_en": rate(detector, attacks, "en"),
            "detection_bn": rate(detector, attacks, "bn"),
            "false_flags": rate(detector, legit),
            "baseline_detection": rate(contains_control_token, attacks),
            "baseline_false_flags": rate(contains_control_token, legit),
        }
        print(f"{name}: {out[name]}")
    texts = [t for a, lg in SETS.values() for _, t in a + lg]
    start = time.perf_counter()
    for t in texts:
        detect_injection(t)
    out["ms_per_answer"] = round((time.perf_counter() - start) * 1000 / len(texts), 3)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
