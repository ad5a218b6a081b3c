"""PPI: equal to ppi-python to 1e-9, covers the truth at the nominal rate in simulation, and the
study estimates from a workspace where the truth is known."""

from __future__ import annotations

import numpy as np
import pytest

from engine.annotation.annotators import add_annotator
from engine.annotation.decisions import my_queue, record_decision
from engine.annotation.ppi import classical_mean, draw_subset, labels_for_width, ppi_mean, ppi_study
from engine.annotation.settings import PPISettings

from .helpers import build_judged_study


def _simulate(rng, n=80, big_n=1500, bias=1.2, noise=0.8, truth=6.0):
    y_all = np.clip(rng.normal(truth, 1.5, n + big_n), 0, 10)
    yhat_all = np.clip(y_all + bias + rng.normal(0, noise, n + big_n), 0, 10)
    return y_all[:n], yhat_all[:n], yhat_all[n:], y_all


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("lam", [None, 1.0, 0.0, 0.4])
def test_equals_ppi_python(seed, lam):
    ppi_py = pytest.importorskip("ppi_py", reason="ppi-python is the reference (test extra)")
    y, yhat, yu, _ = _simulate(np.random.default_rng(seed))
    ours = ppi_mean(y, yhat, yu, alpha=0.1, lam=lam)
    point = ppi_py.ppi_mean_pointestimate(y, yhat, yu, lam=lam)
    low, high = ppi_py.ppi_mean_ci(y, yhat, yu, alpha=0.1, lam=lam)
    assert ours.estimate == pytest.approx(float(np.squeeze(point)), abs=1e-9)
    assert ours.low == pytest.approx(float(np.squeeze(low)), abs=1e-9)
    assert ours.high == pytest.approx(float(np.squeeze(high)), abs=1e-9)


def test_coverage_at_the_nominal_rate():
    """1000 simulated studies with a biased judge: the 90 % PPI interval covers the true
    mean ~90 % of the time; the judge-only interval almost never does."""
    rng = np.random.default_rng(2026)
    truth_mean = None
    covered, judge_covered, reps = 0, 0, 1000
    # the population mean of the clipped normal, by a very large draw
    truth_mean = float(np.clip(np.random.default_rng(9).normal(6.0, 1.5, 2_000_000), 0, 10).mean())
    for _ in range(reps):
        y, yhat, yu, _ = _simulate(rng)
        est = ppi_mean(y, yhat, yu, alpha=0.1)
        covered += est.low <= truth_mean <= est.high
        judge = classical_mean(np.concatenate([yhat, yu]), alpha=0.1)
        judge_covered += judge.low <= truth_mean <= judge.high
    rate = covered / reps
    # binomial sd at 0.9 over 1000 runs is 0.0095: allow about 3 sd
    assert 0.87 <= rate <= 0.93, rate
    assert judge_covered / reps < 0.05


def test_labels_for_width_shrinks_the_interval():
    y, yhat, yu, _ = _simulate(np.random.default_rng(5), n=60)
    est = ppi_mean(y, yhat, yu)
    need = labels_for_width(y, yhat, yu, (est.high - est.low) / 2)
    assert need > 3 * len(y)  # half the width needs roughly four times the labels
    rng = np.random.default_rng(6)
    y2, yh2, yu2, _ = _simulate(rng, n=int(need), big_n=len(yu))
    assert ppi_mean(y2, yh2, yu2).high - ppi_mean(y2, yh2, yu2).low < (est.high - est.low) * 0.6


def test_study_from_a_workspace(workspace):
    rng = np.random.default_rng(11)
    run, truth = build_judged_study(workspace, rng)
    add_annotator(workspace, "Rina", ["standard", "sylhet"])
    add_annotator(workspace, "Karim", ["standard", "sylhet"])
    drawn = draw_subset(workspace, "ppi-1", run, ["Rina", "Karim"], share=0.2, seed=42)
    assert drawn["drawn"] == 120 and drawn["seed"] == 42
    # the annotators score blind (no judge score shown) and give the true human score
    for who in ("Rina", "Karim"):
        for item in my_queue(workspace, who):
            assert "judge_score" not in item["content"]
            record_decision(
                workspace, item["item_id"], who, "accept", score=truth[item["target_id"]]
            )
    study = ppi_study(workspace, drawn["batch_id"], PPISettings(alpha=0.05, width=0.5))
    cells = {c["dialect"]: c for c in study["cells"]}
    true_means = {
        d: float(np.mean([truth[j] for j in truth if (j % 2 == 0) == (d == "sylhet")]))
        for d in ("standard", "sylhet")
    }
    for dialect, cell in cells.items():
        assert cell["ppi"]["n"] == 60 and cell["ppi"]["N"] == 240
        assert cell["ppi"]["low"] <= true_means[dialect] <= cell["ppi"]["high"]
        assert cell["labels_for_width"] is not None
    # the judge alone overstates Sylheti and so understates the gap; PPI corrects it
    judge_syl = cells["sylhet"]["judge_only"]
    assert judge_syl["low"] > true_means["sylhet"]
    (gap,) = study["gaps"]
    true_gap = true_means["sylhet"] - true_means["standard"]
    assert gap["low"] <= true_gap <= gap["high"]
    # the draw is reproducible from its seed
    again = draw_subset(workspace, "ppi-2", run, ["Rina", "Karim"], share=0.2, seed=42)
    picked = "SELECT target_id FROM annotation_items WHERE batch_id = ? ORDER BY target_id"
    assert workspace.query(picked, (drawn["batch_id"],)) == workspace.query(
        picked, (again["batch_id"],)
    )
