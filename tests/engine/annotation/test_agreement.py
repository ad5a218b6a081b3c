"""Agreement coefficients checked against each other (1e-9) and a published worked example;
the workspace report equals the libraries on the same decisions."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.annotation.agreement import (
    agreement,
    chrf,
    cohen_kappa,
    fleiss_kappa,
    krippendorff_alpha,
    rouge_l,
)
from engine.annotation.assignment import assign
from engine.annotation.decisions import record_decision
from engine.annotation.settings import AgreementSettings


def _two_raters(seed=0, n=60, k=4):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, k, n)
    b = np.where(rng.random(n) < 0.7, a, rng.integers(0, k, n))
    return a, b


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cohen_sklearn_equals_statsmodels(seed):
    from statsmodels.stats.inter_rater import cohens_kappa, to_table

    a, b = _two_raters(seed)
    table, _ = to_table(np.stack([a, b], axis=1))
    assert cohen_kappa(a, b) == pytest.approx(cohens_kappa(table).kappa, abs=1e-9)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fleiss_equals_krippendorff_for_two_raters(seed):
    # two raters, no missing values: alpha = 1 - (1 - Fleiss/Scott pi) (2N - 1) / 2N
    a, b = _two_raters(seed)
    n = len(a)
    pi = fleiss_kappa([list(u) for u in zip(a, b, strict=True)])
    alpha = krippendorff_alpha(np.stack([a, b]).astype(float), "nominal")
    assert alpha == pytest.approx(1 - (1 - pi) * (2 * n - 1) / (2 * n), abs=1e-9)


def test_fleiss_matches_the_textbook_formula():
    rng = np.random.default_rng(4)
    units = rng.integers(0, 3, size=(50, 4))
    counts = np.stack([(units == c).sum(axis=1) for c in range(3)], axis=1)
    n = 4
    p_j = counts.sum(axis=0) / counts.sum()
    p_i = ((counts**2).sum(axis=1) - n) / (n * (n - 1))
    expected = (p_i.mean() - (p_j**2).sum()) / (1 - (p_j**2).sum())
    assert fleiss_kappa(units.tolist()) == pytest.approx(expected, abs=1e-9)


def test_krippendorff_published_example():
    # Krippendorff (2011), "Computing Krippendorff's alpha-reliability", 4 coders x 12 units
    nan = math.nan
    data = np.array(
        [
            [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
            [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
            [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
            [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
        ]
    )
    assert krippendorff_alpha(data, "nominal") == pytest.approx(0.743, abs=5e-4)
    assert krippendorff_alpha(data, "ordinal") == pytest.approx(0.815, abs=5e-4)
    assert krippendorff_alpha(data, "interval") == pytest.approx(0.849, abs=5e-4)


def test_undefined_is_nan_not_zero():
    assert math.isnan(cohen_kappa([1, 1, 1], [1, 1, 1]))
    assert math.isnan(krippendorff_alpha(np.ones((2, 5)), "nominal"))


def test_edit_similarity_on_bengali():
    same = "আমি ভাত খাই"
    assert chrf(same, same) == pytest.approx(100.0)
    assert rouge_l(same, same) == pytest.approx(1.0)
    assert 0 < rouge_l("আমি ভাত খাই", "আমি ভাত খাইছি") < 1  # whitespace tokens, not erased
    assert chrf("আমি ভাত খাই", "আমি রুটি খাই") < 100


def test_workspace_report_equals_the_libraries(ann_ws):
    import krippendorff
    from sklearn.metrics import cohen_kappa_score

    assign(ann_ws, "b", "variant", ["Karim", "Shuvo"], overlap=1.0, seed=2)
    items = [
        r[0]
        for r in ann_ws.conn.execute(
            "SELECT item_id FROM annotation_assignments GROUP BY item_id "
            "HAVING count(*) = 2 ORDER BY item_id"
        )
    ]
    assert len(items) == 12  # every Sylheti item, by both
    plan_k = ["accept", "accept", "edit", "reject", "accept", "flag"] * 2
    plan_s = ["accept", "edit", "edit", "reject", "accept", "accept"] * 2
    scores_k = [5, 4, 3, 1, 5, 2, 4, 4, 3, 1, 5, 3]
    scores_s = [5, 3, 3, 2, 5, 2, 4, 5, 2, 1, 4, 3]
    for i, item in enumerate(items):
        for who, plan, scores in (("Karim", plan_k, scores_k), ("Shuvo", plan_s, scores_s)):
            text = f"{who} লিখেছেন {i}" if plan[i] == "edit" else None
            record_decision(ann_ws, item, who, plan[i], text=text, score=scores[i])
    report = agreement(ann_ws, settings=AgreementSettings(resamples=200, seed=1)).as_dict()
    syl = report["by_dialect"]["sylhet"]
    codes = {"accept": 0, "edit": 1, "flag": 2, "reject": 3}
    a = [codes[x] for x in plan_k]
    b = [codes[x] for x in plan_s]
    (pair,) = syl["decision"]["cohen_kappa"]
    assert pair["pair"] == ["Karim", "Shuvo"] and pair["n"] == 12
    assert pair["value"] == pytest.approx(cohen_kappa_score(a, b), abs=1e-9)
    assert pair["low"] <= pair["value"] <= pair["high"]
    ref = krippendorff.alpha(reliability_data=[scores_k, scores_s], level_of_measurement="ordinal")
    assert syl["score"]["alpha_ordinal"]["value"] == pytest.approx(ref, abs=1e-9)
    ref = krippendorff.alpha(reliability_data=[a, b], level_of_measurement="nominal")
    assert syl["decision"]["alpha_nominal"]["value"] == pytest.approx(ref, abs=1e-9)
    assert syl["decision"]["fleiss_kappa"]["raters"] == 2
    assert syl["edits"]["pairs"] == 2 and syl["edits"]["chrf_scale"] == "0-100"
    assert report["by_dialect"]["all"]["decision"]["items"] == 12
    # seeded: the same call gives the same intervals
    assert agreement(ann_ws, settings=AgreementSettings(resamples=200, seed=1)).as_dict() == report
