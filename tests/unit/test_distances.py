"""The z-scores, Burrows' Delta and the symmetrised KL divergence (punctstyle.distances):
worked examples computed by hand (dyadic numbers, so the expected values are exact)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from punctstyle.distances import column_zscores, delta, symmetrised_kl, varying_columns, zscore_statistics, zscores


def test_zscore_statistics_sample_sd_and_unit_scale_for_constant_columns():
    # column 0: 1, 3, 5 (mean 3, sample sd sqrt((4 + 0 + 4) / 2) = 2); column 1 constant 5 -> sd 1
    mean, sd = zscore_statistics(np.array([[1.0, 5.0], [3.0, 5.0], [5.0, 5.0]]))
    assert mean.tolist() == [3.0, 5.0] and sd.tolist() == [2.0, 1.0]
    mean, sd = zscore_statistics(np.array([[2.0, 7.0]]))  # one row: no spread, sd 1
    assert mean.tolist() == [2.0, 7.0] and sd.tolist() == [1.0, 1.0]


def test_a_constant_column_of_a_value_floats_cannot_hold_is_constant():
    """Three rows of 0.1: numpy's rounded mean leaves a sample sd of about 1e-17, which would make a
    test value of 0.2 a z-score near 1e16; the column is constant, so its sd is 1 and 0.2 scores
    0.1."""
    X = np.column_stack([np.full(3, 0.1), np.arange(3.0)])
    assert X[:, 0].std(ddof=1) > 0  # the rounding this guards against
    mean, sd = zscore_statistics(X)
    assert sd[0] == 1.0 and varying_columns(X).tolist() == [False, True]
    assert abs(zscores(np.array([[0.2, 0.0]]), mean, sd)[0, 0] - 0.1) < 1e-15


def test_zscores_with_given_and_own_statistics():
    assert zscores(np.array([[5.0, 1.0]]), np.array([3.0, 2.0]), np.array([2.0, 4.0])).tolist() == [[1.0, -0.25]]
    assert column_zscores(np.array([[1.0, 5.0], [3.0, 5.0], [5.0, 5.0]])).tolist() == [[-1.0, 0.0], [0.0, 0.0], [1.0, 0.0]]


def test_delta_is_the_mean_absolute_difference():
    # (|0 - 1| + |0 + 1| + |3 - 0|) / 3 = 5/3 and (0 + 0 + 3) / 3 = 1
    D = delta(np.array([[0.0, 0.0, 3.0]]), np.array([[1.0, -1.0, 0.0], [0.0, 0.0, 0.0]]))
    assert D.tolist() == [[5 / 3, 1.0]]


def test_weighted_delta_one_value_per_row_of_weights():
    # a = (1, 2); b1 = (3, 2): w1 = (1/2, 1/4) -> 2/2 + 0 = 1, w2 = (1, 0) -> 2
    #             b2 = (1, 6): w1 -> 0 + 4/4 = 1, w2 -> 0
    D = delta(np.array([[1.0, 2.0]]), np.array([[3.0, 2.0], [1.0, 6.0]]), np.array([[0.5, 0.25], [1.0, 0.0]]))
    assert D.shape == (1, 2, 2) and D.tolist() == [[[1.0, 2.0], [1.0, 0.0]]]
    # weights of each row of A: row 0 (0, 0) with w = (1, 0) -> 1; row 1 (1, 1) with w = (0, 1) -> |1 - 3| = 2
    D = delta(np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([[1.0, 3.0]]), np.array([[[1.0, 0.0]], [[0.0, 1.0]]]))
    assert D.tolist() == [[[1.0]], [[2.0]]]


def test_weighted_delta_is_delta_of_the_z_scores():
    # sigma = (2, 4), F = both features: w = 1 / (|F| sigma) = (1/4, 1/8);
    # |1 - 3| / 4 + |2 - 10| / 8 = 1.5 = mean(|0.5 - 1.5|, |0.5 - 2.5|) of the z-scores (means cancel)
    a, b, sd = np.array([[1.0, 2.0]]), np.array([[3.0, 10.0]]), np.array([2.0, 4.0])
    weighted = delta(a, b, np.array([[0.25, 0.125]]))
    plain = delta(zscores(a, 0.0, sd), zscores(b, 0.0, sd))
    assert weighted[0, 0, 0] == plain[0, 0] == 1.5


@pytest.mark.parametrize("order", ["C", "F"])
def test_delta_batches_do_not_change_the_values(order):
    rng = np.random.default_rng(3)
    A = np.asarray(rng.normal(size=(23, 11)), order=order)
    B = np.asarray(rng.normal(size=(5, 11)), order=order)
    W = rng.random((4, 11))
    assert np.array_equal(delta(A, B, max_cells=60), delta(A, B))
    assert np.array_equal(delta(A, B, W, max_cells=60), delta(A, B, W))
    assert delta(A[:0], B).shape == (0, 5) and delta(A[:0], B, W).shape == (0, 5, 4)
    with pytest.raises(ValueError, match="same width"):
        delta(A, B[:, :3])


P = np.array([0.5, 0.5, 0.0])
Q = np.array([0.25, 0.5, 0.25])
# d(p, q) on the common support {0, 1}: q~ = (1/3, 2/3), 0.5 log(1.5) + 0.5 log(0.75);
# d(q, p) on {0, 1}: q~ = (1/3, 2/3), p~ = (1/2, 1/2), 1/3 log(2/3) + 2/3 log(4/3)
EXPECTED = 0.5 * ((0.5 * math.log(1.5) + 0.5 * math.log(0.75)) + (math.log(2 / 3) / 3 + 2 * math.log(4 / 3) / 3))


def test_symmetrised_kl_every_pair():
    D = symmetrised_kl(np.array([P, Q]))
    assert D[0, 0] == D[1, 1] == 0.0 and D[0, 1] == D[1, 0]
    assert D[0, 1] == pytest.approx(EXPECTED, rel=1e-12)
    assert symmetrised_kl(P[None], Q[None])[0, 0] == pytest.approx(EXPECTED, rel=1e-12)
    assert np.isnan(symmetrised_kl(np.eye(2))[0, 1])  # disjoint supports: NaN


def test_symmetrised_kl_matched_rows():
    D = symmetrised_kl(np.array([P, P, [1.0, 0.0, 0.0]]), np.array([Q, P, [0.0, 1.0, 0.0]]), matched=True)
    assert D.shape == (3,) and D[0] == pytest.approx(EXPECTED, rel=1e-12)
    assert D[1] == 0.0 and np.isnan(D[2])  # equal rows: exactly 0; disjoint supports: NaN
    with pytest.raises(ValueError, match="needs Q"):
        symmetrised_kl(np.array([P]), matched=True)
