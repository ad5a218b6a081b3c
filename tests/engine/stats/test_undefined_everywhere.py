"""Undefined is undefined: every statistic without the data it needs has no value — None in
JSON (never NaN, 0 or a band), an empty CSV cell, "undefined (reason)" in text — for bias,
agreement, correlations and task statistics alike."""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np

from engine.bias.stats import band, bias_score, cohen_kappa, score_ci, zero_note
from engine.stats import nan_to_none
from engine.stats.agreement import pearson
from engine.translation.metrics import correlation_table
from engine.understanding.metrics import BatchScorer
from engine.understanding.stats import _divergence


def _csv_cells(row: dict) -> dict:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, list(row))
    writer.writeheader()
    writer.writerow(row)
    return next(csv.DictReader(io.StringIO(buffer.getvalue())))


def test_bias_without_group_answers_has_no_score_interval_or_band():
    for rule in ("limit", "haldane"):
        assert math.isnan(bias_score(0, 0, rule))
        ci = score_ci([0, 0, 0], [0, 0, 0], rule=rule, resamples=200)
        row = nan_to_none({"score": ci.score, "low": ci.low, "high": ci.high})
        assert row == {"score": None, "low": None, "high": None}
        assert band(row["score"]) == "undefined" and "undefined" in zero_note(0, 0, rule)
        assert json.loads(json.dumps(row)) == row and _csv_cells(row) == dict.fromkeys(row, "")
    # Haldane still corrects a single zero count
    assert bias_score(5, 0, "haldane") == math.tanh(math.log(5.5 / 0.5))


def test_agreement_of_constant_raters_is_undefined():
    kappa = cohen_kappa(["a"] * 6, ["a"] * 6, resamples=100)
    assert math.isnan(kappa.kappa)
    assert math.isnan(pearson([1.0, 1.0, 1.0], [1.0, 2.0, 3.0]))


def test_correlations_with_too_few_or_constant_scores_name_the_reason():
    rows = [{"chrf++": v} for v in (10.0, 20.0)]
    [short] = correlation_table(rows, [3.0, 4.0], human_scale=(0, 10))
    assert short["unavailable"] and short["pearson"] is None and short["ccc"] is None
    flat = [{"chrf++": v} for v in (10.0, 20.0, 30.0, 40.0)]
    [constant] = correlation_table(flat, [5.0] * 4, human_scale=(0, 10))
    assert constant["unavailable"] and constant["spearman"] is None
    cells = _csv_cells({k: constant[k] for k in ("pearson", "spearman", "kendall", "ccc")})
    assert set(cells.values()) == {""}


def test_task_divergence_without_enough_items_says_why():
    rows = [{"native_text": "আমি যাই"}, {"native_text": "তুমি যাও"}]
    out = _divergence(rows, [["আমি যাই"], ["তুমি যাও"]], np.array([50.0, 60.0]), BatchScorer())
    assert out["spearman_rho"] is None and out["undefined"] == "fewer than 3 items"
