"""Failure analytics of understanding tasks (paper 001 §4), per output and per group.

Thresholds (the paper names the categories, not their cut-offs; ours, on sentence chrF++
0–100 against the best reference):

- taxonomy: **Success** ≥ 50, **Partial** 20–50, **Complete** mistranslation < 20; an empty
  or unparseable output is Complete (it delivered nothing);
- a zero-shot output is **correct** when it is a Success; a few-shot output of the same item
  (same model and script) is **unrelated** when it is Complete, or when its chrF++ against one
  of its own demonstrations' references is higher than against its item's references
  (demonstration interference). Flip rate = correct→unrelated items / items in both runs.
  Classification: correct→wrong label;
- output-script drift: the answer's share of Bengali letters is below 0.5 where the target
  script is Bengali (above 0.5 where it is Latin), as a share of the *parsed* answers (an
  unparseable output, a copied placeholder included, has no script to drift); every rate
  carries its denominator (``denominators``);
- native − Romanized gap: per item (sentence chrF++, or 100 × correct for classification),
  paired by item, mean with a bootstrap 95 % CI (engine.stats.bootstrap, item = cluster).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine.stats.bootstrap import clustered_mean_ci
from engine.text.textnorm import bengali_share
from engine.understanding.parsing import EMPTY, PLACEHOLDER, UNPARSEABLE, Parsed

SUCCESS_AT = 50.0
PARTIAL_AT = 20.0
DRIFT_SHARE = 0.5
TAXONOMY = ("success", "partial", "complete")


def taxonomy(chrf: float, parsed: Parsed) -> str:
    if not parsed.ok or chrf < PARTIAL_AT:
        return "complete"
    return "success" if chrf >= SUCCESS_AT else "partial"


def drifted(parsed: Parsed, target_script: str) -> bool:
    if not parsed.ok or not target_script:
        return False
    share = bengali_share(parsed.answer)
    return share < DRIFT_SHARE if target_script == "bengali" else share > DRIFT_SHARE


def rates(parsed: Sequence[Parsed], target_script: str = "") -> dict:
    """Shares (0–1) of unparseable (placeholders among them) and empty outputs over all
    outputs, and of script-drifted answers over the parsed ones; ``denominators`` says
    which count each share divides by."""
    n = len(parsed)
    ok = sum(p.ok for p in parsed)
    if not n:
        return {"n": 0, "unparseable": None, "empty": None, "script_drift": None}
    return {
        "n": n,
        "parsed": ok,
        "unparseable": sum(p.status == UNPARSEABLE for p in parsed) / n,
        "placeholder": sum(p.reason == PLACEHOLDER for p in parsed) / n,
        "empty": sum(p.status == EMPTY for p in parsed) / n,
        "script_drift": sum(drifted(p, target_script) for p in parsed) / ok if ok else None,
        "denominators": {
            "unparseable": n,
            "placeholder": n,
            "empty": n,
            "script_drift": ok,
        },
        "scale": "0-1",
    }


def taxonomy_shares(categories: Sequence[str]) -> dict:
    n = len(categories)
    return {c: (sum(x == c for x in categories) / n if n else None) for c in TAXONOMY}


def flip_rate(zero: dict[str, dict], few: dict[str, dict]) -> dict:
    """``zero``/``few``: item key -> {"correct": bool, "unrelated": bool}."""
    common = sorted(set(zero) & set(few))
    flips = [k for k in common if zero[k]["correct"] and few[k]["unrelated"]]
    return {
        "items": len(common),
        "correct_zero": sum(zero[k]["correct"] for k in common),
        "flips": len(flips),
        "flip_rate": len(flips) / len(common) if common else None,
        "examples": flips[:10],
    }


def paired_gap(
    native: dict[str, float],
    roman: dict[str, float],
    *,
    seed: int,
    resamples: int,
    level: float,
) -> dict:
    """Mean native − Romanized difference over the items scored in both, with its CI (the
    bootstrap of :class:`engine.understanding.stats.TaskStatsSettings`)."""
    common = sorted(set(native) & set(roman))
    diffs = np.array([native[k] - roman[k] for k in common], dtype=float)
    ci = clustered_mean_ci(diffs, common, level=level, seed=seed, resamples=resamples)
    return {
        "items": len(common),
        "item_gaps": {k: float(d) for k, d in zip(common, diffs)},
        "native_mean": float(np.mean([native[k] for k in common])) if common else None,
        "roman_mean": float(np.mean([roman[k] for k in common])) if common else None,
        "gap": ci.as_dict(),
    }
