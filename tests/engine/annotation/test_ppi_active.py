"""Active PPI draws: probabilities under a floor, an unbiased inverse-probability estimate,
the recorded design; and the Student-t interval beside PPI's at small n."""

from __future__ import annotations

import json

import numpy as np
import pytest

from engine.annotation.annotators import add_annotator
from engine.annotation.decisions import my_queue, record_decision
from engine.annotation.ppi import draw_subset, ppi_study
from engine.annotation.ppi_active import active_mean, inclusion_probabilities, poisson_draw
from engine.annotation.ppi_means import SMALL_N, ppi_mean, ppi_t_interval

from .helpers import build_judged_study


def test_probabilities_follow_the_uncertainty_under_a_floor_and_meet_the_budget():
    u = np.array([0.0, 0.1, 0.5, 1.0, 4.0, np.nan, 2.0, 0.0, 0.3, 8.0])
    pi = inclusion_probabilities(u, 3, 0.05)
    assert pi.sum() == pytest.approx(3, abs=1e-6)
    assert pi.min() >= 0.05 and pi.max() <= 1.0
    assert pi[9] == 1.0 and pi[0] == 0.05  # the surest one only at the floor
    assert np.all(np.diff(pi[[0, 1, 2, 3, 4]]) >= 0)
    # a floor at the uniform share is uniform
    assert np.allclose(inclusion_probabilities(u, 3, 0.3), 0.3)


def test_the_inverse_probability_estimate_is_unbiased():
    """A fixed population whose judge errs more where it is unsure: over 4000 seeded
    Poisson draws the estimates average to the population mean (within 3 Monte-Carlo
    standard errors) at a fixed λ and at the tuned one, and the 95 % interval covers."""
    rng = np.random.default_rng(7)
    big_n = 400
    sure = rng.uniform(0.2, 2.0, big_n)
    y = np.clip(rng.normal(6, 1.5, big_n), 0, 10)
    yhat = y + 0.8 + rng.normal(0, 1, big_n) * sure
    pi = inclusion_probabilities(sure, 40, 0.025)
    truth = y.mean()
    for lam in (0.7, None):
        draws = [poisson_draw(pi, rng) for _ in range(4000)]
        est = [active_mean(y, yhat, pi, m, lam=lam) for m in draws]
        values = np.array([e.estimate for e in est])
        assert abs(values.mean() - truth) < 3 * values.std() / np.sqrt(len(values))
        cover = np.mean([e.low <= truth <= e.high for e in est])
        assert 0.92 <= cover <= 0.98, cover


def test_at_lambda_zero_the_small_n_interval_is_scipys_t_interval():
    from scipy import stats

    rng = np.random.default_rng(3)
    y, yhat, yu = rng.normal(5, 1, 6), rng.normal(5, 1, 6), rng.normal(5, 1, 200)
    t = ppi_t_interval(y, yhat, yu, lam=0.0, alpha=0.05)
    low, high = stats.t.interval(0.95, len(y) - 1, loc=y.mean(), scale=stats.sem(y))
    assert (t.low, t.high) == pytest.approx((low, high), abs=1e-12)
    normal = ppi_mean(y, yhat, yu, lam=0.0)
    assert normal.high - normal.low < t.high - t.low  # the asymptotic one is narrower
    assert "fewer than 30" in t.note and t.method == "ppi++ (Student t)"


def _score_every_item(ws, truth):
    for who in ("Rina", "Karim"):
        for item in my_queue(ws, who):
            record_decision(ws, item["item_id"], who, "accept", score=truth[item["target_id"]])


def test_an_active_draw_records_its_design_and_estimates_the_cells(workspace):
    rng = np.random.default_rng(11)
    run, truth = build_judged_study(workspace, rng)
    add_annotator(workspace, "Rina", ["standard", "sylhet"])
    add_annotator(workspace, "Karim", ["standard", "sylhet"])
    workspace.conn.execute(  # the judge's stated confidence: its uncertainty here
        "UPDATE judgments SET confidence = 1 + id % 5"
    )
    drawn = draw_subset(workspace, "act", run, ["Rina", "Karim"], share=0.2, seed=4, active=True)
    assert drawn["design"] == "active" and 80 <= drawn["drawn"] <= 160
    params = json.loads(
        workspace.scalar("SELECT params FROM annotation_batches WHERE id = ?", (drawn["batch_id"],))
    )
    assert params["design"] == "active" and params["floor"] == pytest.approx(0.05)
    pi = params["probabilities"]
    assert len(pi) == 600 and min(pi.values()) >= 0.05
    # surer judgments (higher confidence) are drawn less often
    conf = dict(workspace.conn.execute("SELECT id, confidence FROM judgments").fetchall())
    assert (
        pi[str(next(j for j in conf if conf[j] == 1))]
        > pi[str(next(j for j in conf if conf[j] == 5))]
    )
    _score_every_item(workspace, truth)
    study = ppi_study(workspace, drawn["batch_id"])
    assert study["design"]["design"] == "active" and "probabilities" not in study["design"]
    true_means = {
        d: float(np.mean([truth[j] for j in truth if (j % 2 == 0) == (d == "sylhet")]))
        for d in ("standard", "sylhet")
    }
    for cell in study["cells"]:
        ppi = cell["ppi"]
        assert ppi["method"].startswith("active")
        assert ppi["low"] <= true_means[cell["dialect"]] <= ppi["high"]
        assert cell["ppi_t"] is None  # 30 labels or more
    again = draw_subset(workspace, "act2", run, ["Rina", "Karim"], share=0.2, seed=4, active=True)
    assert again["drawn"] == drawn["drawn"]  # seeded


def test_a_small_cell_shows_the_t_interval_beside(workspace):
    rng = np.random.default_rng(12)
    run, truth = build_judged_study(workspace, rng)
    add_annotator(workspace, "Rina", ["standard", "sylhet"])
    add_annotator(workspace, "Karim", ["standard", "sylhet"])
    drawn = draw_subset(workspace, "few", run, ["Rina", "Karim"], share=0.03, seed=1)
    _score_every_item(workspace, truth)
    study = ppi_study(workspace, drawn["batch_id"])
    for cell in study["cells"]:
        assert cell["ppi"]["n"] < SMALL_N
        t = cell["ppi_t"]
        assert t["low"] < cell["ppi"]["low"] and t["high"] > cell["ppi"]["high"]
        assert t["estimate"] == pytest.approx(cell["ppi"]["estimate"])
        assert "Student-t" in t["note"]
    assert study["design"]["design"] == "uniform"
