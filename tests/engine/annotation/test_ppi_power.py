"""Labels a cell needs before a draw: the prediction from a pilot reaches the target width
in simulation under a known noise model, for uniform and active draws, and a workspace
without a pilot says how large a pilot it needs."""

from __future__ import annotations

import numpy as np

from engine.annotation.annotators import add_annotator
from engine.annotation.decisions import my_queue, record_decision
from engine.annotation.ppi import draw_subset, ppi_mean
from engine.annotation.ppi_active import (
    FLOOR_SHARE,
    active_mean,
    inclusion_probabilities,
    poisson_draw,
)
from engine.annotation.ppi_power import PILOT_MIN, cell_needs, labels_needed
from engine.annotation.settings import PPISettings

from .helpers import build_judged_study


def _cell(rng, noise_tracks_uncertainty: bool, big_n=3000):
    f = np.clip(rng.normal(3.2, 0.9, big_n), 1, 5) + rng.normal(0, 0.2, big_n)
    u = rng.lognormal(-1.0, 0.8, big_n)
    sd = 0.1 + 0.9 * u
    if not noise_tracks_uncertainty:
        sd = np.full(big_n, float(np.sqrt(np.mean(sd**2))))
    return f, u, f + 0.3 + rng.normal(0, sd)


def _median_width(f, u, y, n, active, rng, draws=150):
    big_n, widths = len(f), []
    pi = inclusion_probabilities(u, n, FLOOR_SHARE * n / big_n)
    for _ in range(draws):
        if active:
            e = active_mean(y, f, pi, poisson_draw(pi, rng))
        else:
            mask = np.zeros(big_n, dtype=bool)
            mask[rng.choice(big_n, n, replace=False)] = True
            e = ppi_mean(y[mask], f[mask], f[~mask])
        widths.append(e.high - e.low)
    return float(np.median(widths))


def test_predicted_labels_reach_the_width_under_a_known_noise_model():
    rng = np.random.default_rng(3)
    f, u, y = _cell(rng, noise_tracks_uncertainty=True)
    pilot = rng.choice(len(f), 400, replace=False)
    uniform, active = cell_needs(f, u, y[pilot], f[pilot], u[pilot], 0.2)
    assert uniform is not None and active is not None
    # the judge's error grows with its uncertainty: active draws need fewer labels
    assert active < 0.85 * uniform
    for n, is_active in ((uniform, False), (active, True)):
        assert abs(_median_width(f, u, y, n, is_active, rng) - 0.2) < 0.02


def test_where_uncertainty_says_nothing_active_draws_are_predicted_to_cost_more():
    rng = np.random.default_rng(4)
    f, u, y = _cell(rng, noise_tracks_uncertainty=False)
    pilot = rng.choice(len(f), 400, replace=False)
    uniform, active = cell_needs(f, u, y[pilot], f[pilot], u[pilot], 0.2)
    assert uniform is not None and active is not None and active > uniform
    assert abs(_median_width(f, u, y, active, True, rng) - 0.2) < 0.025


def test_a_width_the_judge_side_alone_exceeds_is_unreachable():
    rng = np.random.default_rng(5)
    f, u, y = _cell(rng, True, big_n=200)
    assert cell_needs(f, u, y[:50], f[:50], u[:50], 0.01) == (None, None)


def test_the_workspace_asks_for_a_pilot_then_sizes_each_cell(workspace):
    rng = np.random.default_rng(11)
    run, truth = build_judged_study(workspace, rng)
    before = labels_needed(workspace, run, PPISettings(width=0.5))
    assert before["pilot_batch"] is None and before["pilot_min"] == PILOT_MIN
    assert {c["state"] for c in before["cells"]} == {"pilot"}
    assert f"at least {PILOT_MIN} human labels" in before["cells"][0]["note"]
    add_annotator(workspace, "Rina", ["standard", "sylhet"])
    drawn = draw_subset(workspace, "pilot", run, ["Rina"], share=0.1, seed=7)
    for item in my_queue(workspace, "Rina"):
        record_decision(
            workspace, item["item_id"], "Rina", "accept", score=truth[item["target_id"]]
        )
    after = labels_needed(workspace, run, PPISettings(width=0.5))
    assert after["pilot_batch"] == drawn["batch_id"]
    for cell in after["cells"]:
        assert cell["pilot"] == 30 and cell["N"] == 300
        assert cell["state"] is None and 2 <= cell["uniform"] <= 300 and 2 <= cell["active"] <= 300


def test_an_active_pilot_is_read_with_its_inverse_probability_weights(workspace):
    rng = np.random.default_rng(12)
    run, truth = build_judged_study(workspace, rng)
    workspace.conn.execute("UPDATE judgments SET confidence = 1 + id % 5")
    add_annotator(workspace, "Rina", ["standard", "sylhet"])
    drawn = draw_subset(workspace, "act", run, ["Rina"], share=0.2, seed=8, active=True)
    for item in my_queue(workspace, "Rina"):
        record_decision(
            workspace, item["item_id"], "Rina", "accept", score=truth[item["target_id"]]
        )
    plan = labels_needed(workspace, run, PPISettings(width=0.5))
    assert plan["pilot_batch"] == drawn["batch_id"]
    assert sum(c["pilot"] for c in plan["cells"]) == drawn["drawn"]
    for cell in plan["cells"]:
        assert cell["state"] is None and cell["uniform"] and cell["active"]
