"""Active against uniform PPI draws at equal label budgets (engine/annotation/ppi_active.py).

Design-based: the human labels of a population are simulated once from a stated noise
model, then 500 seeded draws of each design label about the same number of items, and each
draw's interval is checked against the population's true mean.

- uniform: ``budget`` items without replacement, the PPI++ mean (engine.annotation.ppi);
- active: a Poisson draw with π ∝ the judge's uncertainty under a floor, expected size
  ``budget``, the inverse-probability PPI++ mean.

Populations:
- ``demo``: the demo study's primary judge (engine.samples.study, 108 judged answers), the
  uncertainty its spread from the secondary judge on the same answer. Two human models:
  ``consensus`` (the person scores near the two judges' mean, sd 0.5: the spread says how
  wrong the primary judge is) and ``independent`` (the person is the primary judge plus
  noise of sd 1 everywhere: the spread says nothing);
- ``dialect``: the question a reviewer answers about a draft — is it in its target
  dialect? — on the Vashantor test split, held out by source sentence (bench/dialect_id.py's
  split; 2,094): 80 % of items ask about the sentence's own dialect, 20 % about another one;
  the judge is the dialect identifier's probability of the target, its uncertainty
  √(p(1 − p)) (a Bernoulli's SD); the person answers correctly but for 3 % of items.

    python bench/active_ppi.py [--draws 500] [--quick]
    python bench/active_ppi.py --scale paper [--width 0.2] [--quick]

``--scale paper``: 4,000 questions x 9 dialects x 3 models, human labels from a noise
model whose error grows with the judge's uncertainty, and one whose error does not; labels
each design needs at equal width, and coverage (bench/active_ppi_paper.py).

Last line: one JSON object, per population the median interval width of each design, the
width gain (1 − active/uniform), the coverage of each and the mean labels drawn.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import numpy as np  # noqa: E402

from engine.annotation.ppi import ppi_mean  # noqa: E402
from engine.annotation.ppi_active import (  # noqa: E402
    FLOOR_SHARE,
    active_mean,
    inclusion_probabilities,
    poisson_draw,
)


def compare(yhat, u, y, budget: int, draws: int, floor: float, seed: int = 0) -> dict:
    """Median widths, gain and coverage of both designs on one population."""
    yhat, u, y = (np.asarray(v, dtype=float) for v in (yhat, u, y))
    truth = float(y.mean())
    rng = np.random.default_rng(seed)
    pi = inclusion_probabilities(u, budget, floor)
    flat = np.full(len(y), budget / len(y))
    widths: dict[str, list[float]] = {"uniform": [], "uniform_ipw": [], "active": []}
    covered = dict.fromkeys(widths, 0)
    drawn = []
    for _ in range(draws):
        picked = rng.choice(len(y), size=budget, replace=False)
        mask = np.zeros(len(y), dtype=bool)
        mask[picked] = True
        e = ppi_mean(y[mask], yhat[mask], yhat[~mask])
        widths["uniform"].append(e.high - e.low)
        covered["uniform"] += e.low <= truth <= e.high
        for design, p in (("uniform_ipw", flat), ("active", pi)):
            mask = poisson_draw(p, rng)
            if design == "active":
                drawn.append(int(mask.sum()))
            e = active_mean(y, yhat, p, mask)
            widths[design].append(e.high - e.low)
            covered[design] += e.low <= truth <= e.high
    uniform, flat_ipw, active = (float(np.median(widths[k])) for k in widths)
    return {
        "N": len(y),
        "budget": budget,
        "mean_drawn_active": round(float(np.mean(drawn)), 1),
        "width_uniform": round(uniform, 4),
        "width_active": round(active, 4),
        "width_uniform_ipw": round(flat_ipw, 4),
        "gain": round(1 - active / uniform, 4),
        "gain_same_estimator": round(1 - active / flat_ipw, 4),
        "coverage_uniform": round(covered["uniform"] / draws, 4),
        "coverage_uniform_ipw": round(covered["uniform_ipw"] / draws, 4),
        "coverage_active": round(covered["active"] / draws, 4),
        "residual_uncertainty_corr": round(float(np.corrcoef(np.abs(y - yhat), u)[0, 1]), 3),
    }


def with_oracle(result: dict, yhat, u, y, budget: int, draws: int, floor: float) -> dict:
    """``result`` and the gain of a judge whose uncertainty is its actual error (the ceiling
    of the design on this population)."""
    error = np.abs(np.asarray(y, dtype=float) - np.asarray(yhat, dtype=float)) + 1e-3
    oracle = compare(yhat, error, y, budget, draws, floor, seed=1)
    return result | {"gain_oracle": oracle["gain"], "coverage_oracle": oracle["coverage_active"]}


def demo_population(seed: int = 1) -> dict[str, tuple]:
    from engine.samples.study import build_sample_study
    from engine.workspace.store import Workspace

    with tempfile.TemporaryDirectory() as tmp:
        path = build_sample_study(Path(tmp) / "demo.sqlite")
        with Workspace(path) as ws:
            rows = ws.query(
                "SELECT a.final AS a, b.final AS b FROM judgments a JOIN judgments b "
                "ON b.response_id = a.response_id AND b.run_id = 2 WHERE a.run_id = 1 "
                "AND a.final IS NOT NULL AND b.final IS NOT NULL ORDER BY a.id"
            )
    a = np.array([r["a"] for r in rows])
    b = np.array([r["b"] for r in rows])
    rng = np.random.default_rng(seed)
    spread = np.abs(a - b)
    consensus = np.clip((a + b) / 2 + rng.normal(0, 0.5, len(a)), 0, 10)
    independent = np.clip(a + rng.normal(0, 1.0, len(a)), 0, 10)
    return {
        "demo_consensus": (a, spread, consensus),
        "demo_independent": (a, spread, independent),
    }


def dialect_population(data: Path, seed: int = 2) -> tuple:
    from dialect_id import trained_on_train_split
    from train_dialect_id import CLASSES

    model, test = trained_on_train_split(data)
    rng = np.random.default_rng(seed)
    targets = []
    for r in test:
        other = [c for c in CLASSES if c != r["dialect"]]
        targets.append(r["dialect"] if rng.random() < 0.8 else other[rng.integers(len(other))])
    probs = model.probabilities([r["text"] for r in test])
    column = {c: i for i, c in enumerate(model.classes)}
    p = np.array([probs[i, column[t]] for i, t in enumerate(targets)])
    right = np.array([r["dialect"] == t for r, t in zip(test, targets, strict=True)], dtype=float)
    flip = rng.random(len(right)) < 0.03
    y = np.where(flip, 1 - right, right)
    return p, np.sqrt(p * (1 - p)), y


def main() -> int:
    from train_dialect_id import default_data

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=500)
    parser.add_argument(
        "--floor-share",
        type=float,
        default=FLOOR_SHARE,
        help="the floor as a share of the uniform probability (engine's default)",
    )
    parser.add_argument("--data", type=Path, default=default_data())
    parser.add_argument("--quick", action="store_true", help="100 draws, demo study only")
    parser.add_argument("--scale", choices=("demo", "paper"), default="demo")
    parser.add_argument("--width", type=float, default=0.2, help="paper: target CI width")
    parser.add_argument("--pilot", type=int, default=60, help="paper: pilot labels per cell")
    args = parser.parse_args()
    if args.scale == "paper":
        from active_ppi_paper import paper

        draws = 40 if args.quick else 200
        print(json.dumps(paper(args.width, draws, args.pilot)))
        return 0
    draws = 100 if args.quick else args.draws
    out: dict = {"draws": draws, "floor_share": args.floor_share}
    populations = [(name, pop, 0.2) for name, pop in demo_population().items()]
    if not args.quick and (args.data / "vashantor").is_dir():
        populations.append(("dialect_check", dialect_population(args.data), 0.1))
    for name, (yhat, u, y), share in populations:
        budget, floor = round(share * len(y)), args.floor_share * share
        out[name] = with_oracle(
            compare(yhat, u, y, budget, draws, floor), yhat, u, y, budget, draws, floor
        )
    gains = [v["gain"] for v in out.values() if isinstance(v, dict)]
    out["median_gain"] = round(float(np.median(gains)), 4)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
