"""Token fertility per model and script, from the model's own tokenizer, and the
native−Romanized gap regressed on token inflation (paper 001 §4, "token fragmentation").

- fertility: tokens per character and per word of the inputs a model was shown, per script;
- inflation of an item: tokens of its Romanized input / tokens of its native input;
- regression: item gap (native score − Romanized score, 0–100) = α + β·inflation (ordinary
  least squares, scipy.stats.linregress): β, its 95 % CI (t distribution) and p.

Only local GGUF models have a tokenizer here; endpoint models are reported without one. The
model file is memory-mapped, so loading it for its vocabulary costs little.
"""

from __future__ import annotations

import logging

import numpy as np

from engine.llm.models.settings import LoadOptions
from engine.llm.runtime.native_model import NativeModel
from engine.workspace.store import Workspace

log = logging.getLogger(__name__)


def _tokenizer(model_row: dict):
    return NativeModel(model_row["path"], LoadOptions())


def fertility(ws: Workspace, runs: list[dict], gaps: list[dict]) -> list[dict]:
    """``runs``: task-stats runs (with their ``items``); ``gaps``: the paired comparisons."""
    out = []
    models = {r["model"] for r in runs}
    for name in sorted(m for m in models if m):
        rows = ws.query("SELECT * FROM models WHERE name = ?", (name,))
        if not rows or rows[0]["kind"] != "gguf":
            out.append({"model": name, "tokenizer": None, "reason": "no local tokenizer"})
            continue
        model = _tokenizer(rows[0])
        run_ids = [r["run_id"] for r in runs if r["model"] == name]
        inputs = ws.query(
            "SELECT item_key, script, input_text FROM task_run_items WHERE run_id IN "
            f"({','.join('?' * len(run_ids))})",
            tuple(run_ids),
        )
        counts: dict[tuple[str, str], int] = {}
        per_script: dict[str, dict] = {}
        for row in inputs:
            key = (row["item_key"], row["script"])
            if key in counts:
                continue
            counts[key] = len(model.tokenize(row["input_text"]))
            entry = per_script.setdefault(row["script"], {"tokens": 0, "chars": 0, "words": 0})
            entry["tokens"] += counts[key]
            entry["chars"] += len(row["input_text"])
            entry["words"] += len(row["input_text"].split())
        result: dict = {
            "model": name,
            "tokenizer": rows[0]["path"],
            "per_script": {
                s: {
                    "tokens_per_char": e["tokens"] / max(e["chars"], 1),
                    "tokens_per_word": e["tokens"] / max(e["words"], 1),
                    "inputs": sum(1 for k in counts if k[1] == s),
                }
                for s, e in sorted(per_script.items())
            },
            "gap_on_inflation": [],
        }
        for gap in (g for g in gaps if g["model"] == name):
            result["gap_on_inflation"].append(
                {"task": gap["task"], "regime": gap["regime"], **_regress(gap, counts)}
            )
        out.append(result)
    return out


def _regress(gap: dict, counts: dict[tuple[str, str], int]) -> dict:
    keys = [
        k
        for k in gap["item_gaps"]
        if counts.get((k, "native")) and counts.get((k, "roman")) is not None
    ]
    if len(keys) < 3:
        return {"n": len(keys), "beta": None, "low": None, "high": None, "p": None}
    x = np.array([counts[(k, "roman")] / counts[(k, "native")] for k in keys])
    y = np.array([gap["item_gaps"][k] for k in keys])
    if np.ptp(x) == 0 or np.ptp(y) == 0:  # no variation: no slope can be estimated
        return {
            "n": len(keys),
            "beta": None,
            "low": None,
            "high": None,
            "p": None,
            "mean_inflation": float(x.mean()),
        }
    # lazy: scipy.stats is slow to import
    from scipy import stats

    fit = stats.linregress(x, y)
    t = stats.t.ppf(0.975, len(keys) - 2)
    return {
        "n": len(keys),
        "beta": float(fit.slope),
        "low": float(fit.slope - t * fit.stderr),
        "high": float(fit.slope + t * fit.stderr),
        "p": float(fit.pvalue),
        "mean_inflation": float(x.mean()),
    }
