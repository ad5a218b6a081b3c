"""Judge agreement figures against independent computations."""

import math

import numpy as np
import pytest

from engine.stats.agreement import agreement, cbs, ccc, mae, pearson, spearman

X = np.array([2.0, 4.5, 6.1, 7.0, 8.4, 9.2, 3.3, 5.5, 10.0, 0.0])
Y = np.array([2.6, 4.0, 6.9, 6.2, 8.0, 9.8, 4.1, 4.9, 9.4, 1.2])


def test_ccc_matches_lins_formula_computed_by_hand():
    rho = np.corrcoef(X, Y)[0, 1]
    s1, s2 = X.std(ddof=0), Y.std(ddof=0)
    by_hand = 2 * rho * s1 * s2 / (s1**2 + s2**2 + (X.mean() - Y.mean()) ** 2)
    assert ccc(X, Y) == pytest.approx(by_hand, abs=1e-12)
    # an independent identity: CCC = 1 − E[(x − y)²] / (σ₁² + σ₂² + (μ₁ − μ₂)²)
    msd = np.mean((X - Y) ** 2)
    assert ccc(X, Y) == pytest.approx(
        1 - msd / (X.var() + Y.var() + (X.mean() - Y.mean()) ** 2), abs=1e-12
    )


def test_ccc_penalises_shifts_that_pearson_ignores():
    assert ccc(X, X) == pytest.approx(1.0)
    shifted = X + 1.5
    assert pearson(X, shifted) == pytest.approx(1.0)
    assert ccc(X, shifted) < 0.9
    assert ccc(X, -X) < 0


def test_pearson_spearman_and_mae_against_numpy():
    assert pearson(X, Y) == pytest.approx(np.corrcoef(X, Y)[0, 1], abs=1e-12)
    ranks = lambda a: np.argsort(np.argsort(a)).astype(float)  # no ties in X, Y
    assert spearman(X, Y) == pytest.approx(np.corrcoef(ranks(X), ranks(Y))[0, 1], abs=1e-12)
    assert mae(X, Y) == pytest.approx(np.abs(X - Y).sum() / len(X))


def test_undefined_values_are_nan_not_zero():
    assert math.isnan(pearson([5, 5, 5], [1, 2, 3]))
    assert math.isnan(spearman([1, 2], [3, 3]))
    assert math.isnan(ccc([4], [5]))
    assert math.isnan(ccc([5, 5], [5, 5]))
    assert math.isnan(mae([], []))
    with pytest.raises(ValueError):
        ccc([1, 2, 3], [1, 2])
    with pytest.raises(ValueError):
        mae([1, float("nan")], [1, 2])


def test_cbs_exactly_as_design_defines_it():
    primary = [2.0, 3.0, 5.0, 8.0, 1.0, 9.0, 4.0]
    secondary = [3.0, 5.0, 4.0, 7.0, 2.0, 9.0, 3.0]
    # critical set: primary < 4 → items 0, 1, 4 (4.0 itself is not below the threshold)
    # secondary also below 4 on items 0 and 4 → recall 2/3
    # MAE over all 7 items: (1 + 2 + 1 + 1 + 1 + 0 + 1) / 7 = 1
    result = cbs(primary, secondary, threshold=4.0)
    assert result.n_critical == 3 and result.n == 7
    assert result.recall == pytest.approx(2 / 3)
    assert result.mae == pytest.approx(1.0)
    assert result.cbs == pytest.approx(2 / 3 * (1 - 1.0 / 10))
    # the threshold is configurable; the primary judge defines the critical set
    assert cbs(primary, secondary, threshold=6.0).n_critical == 5
    assert cbs(secondary, primary, threshold=4.0).n_critical == 3


def test_cbs_with_no_critical_items_is_undefined():
    r = cbs([7, 8, 9], [1, 2, 3])
    assert r.n_critical == 0 and math.isnan(r.cbs) and math.isnan(r.recall)
    assert r.mae == pytest.approx(6.0)


def test_agreement_bundles_every_figure_with_its_n():
    a = agreement(X, Y, threshold=4.0)
    assert a.n == 10 and a.ccc == pytest.approx(ccc(X, Y))
    assert a.cbs == pytest.approx(cbs(X, Y).cbs)
    d = agreement([7, 7], [7, 7]).as_dict()
    assert d["pearson"] is None and d["cbs"] is None and d["n"] == 2 and d["mae"] == 0.0


def test_agreement_from_the_joint_table_equals_agreement_on_items():
    import numpy as np

    from engine.stats.agreement import agreement, agreement_from_counts

    rng = np.random.default_rng(3)
    grid = np.round(np.arange(0, 10.01, 0.5), 1)
    x = rng.choice(grid, 4000)
    y = np.clip(x + rng.choice([-1.5, -0.5, 0, 0, 0.5, 2.0], 4000), 0, 10)
    pairs, counts = np.unique(np.column_stack((x, y)), axis=0, return_counts=True)
    for threshold in (4.0, 0.0):  # 0: an empty critical set (NaN recall and CBS)
        want = agreement(x, y, threshold=threshold).as_dict()
        got = agreement_from_counts(pairs[:, 0], pairs[:, 1], counts, threshold).as_dict()
        assert got.keys() == want.keys()
        for key, value in want.items():
            assert got[key] == (value if value is None else pytest.approx(value, rel=1e-12)), key
    constant = agreement_from_counts([5.0], [6.0], [10]).as_dict()
    assert constant["pearson"] is None and constant["spearman"] is None and constant["n"] == 10
    assert agreement_from_counts([], [], []).n == 0
