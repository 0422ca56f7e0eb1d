"""Tests of punctstyle.divergence: KL divergence on the common support."""

from __future__ import annotations

import math

import numpy as np
import pytest

from punctstyle.divergence import (
    EMPTY_SUPPORT,
    ROUNDOFF_TOL,
    _clip_roundoff,
    kl_divergence,
    paired_kl,
    pairwise_kl,
)


def _random_rows(rng: np.random.Generator, n: int, k: int, zero_fraction: float) -> np.ndarray:
    """n random distributions of length k with about ``zero_fraction`` zero entries."""
    X = rng.gamma(0.7, size=(n, k)) * (rng.random((n, k)) >= zero_fraction)
    totals = X.sum(axis=1, keepdims=True)
    return np.divide(X, totals, out=np.zeros_like(X), where=totals > 0)


def _reference_matrix(P: np.ndarray, Q: np.ndarray) -> np.ndarray:
    return np.array([[kl_divergence(p, q) for q in Q] for p in P])


# --- the per-pair definition -----------------------------------------------------------


def test_hand_computed_full_support() -> None:
    # p = (1/2, 1/2), q = (1/4, 3/4): 1/2 log 2 + 1/2 log(2/3) = 1/2 log(4/3)
    assert kl_divergence([0.5, 0.5], [0.25, 0.75]) == pytest.approx(0.5 * math.log(4 / 3), abs=1e-15)


def test_hand_computed_common_support_rule() -> None:
    p = [0.6, 0.3, 0.1, 0.0]
    q = [0.2, 0.2, 0.0, 0.6]
    # common support {0, 1}: p~ = (2/3, 1/3), q~ = (1/2, 1/2)
    expected_pq = 2 / 3 * math.log(4 / 3) + 1 / 3 * math.log(2 / 3)
    expected_qp = 0.5 * math.log(0.75) + 0.5 * math.log(1.5)  # = 1/2 log(9/8)
    assert kl_divergence(p, q) == pytest.approx(expected_pq, abs=1e-15)
    assert kl_divergence(q, p) == pytest.approx(expected_qp, abs=1e-15)
    D = pairwise_kl(np.array([p, q]))
    assert D[0, 1] == pytest.approx(expected_pq, abs=1e-15)
    assert D[1, 0] == pytest.approx(expected_qp, abs=1e-15)


def test_renormalised_common_support_can_be_zero() -> None:
    # after restriction to {0, 1} both are (1/2, 1/2)
    assert kl_divergence([0.5, 0.5, 0.0], [0.25, 0.25, 0.5]) == 0.0


def test_scale_invariance() -> None:
    rng = np.random.default_rng(1)
    p, q = _random_rows(rng, 2, 12, 0.3)
    assert kl_divergence(7 * p, 0.01 * q) == pytest.approx(kl_divergence(p, q), abs=1e-13)
    D = pairwise_kl(np.array([3 * p]), np.array([1000 * q]))
    assert D[0, 0] == pytest.approx(kl_divergence(p, q), abs=1e-13)


def test_asymmetry() -> None:
    p, q = [0.5, 0.5], [0.9, 0.1]
    assert kl_divergence(p, q) != pytest.approx(kl_divergence(q, p), abs=1e-3)
    D = pairwise_kl(np.array([p, q]))
    assert abs(D[0, 1] - D[1, 0]) > 1e-3


@pytest.mark.parametrize(
    "p, q", [([1.0, 0.0], [0.0, 1.0]), ([0.0, 0.0], [0.5, 0.5]), ([0.0, 0.0], [0.0, 0.0])]
)
def test_empty_support_is_nan_in_both(p: list[float], q: list[float]) -> None:
    assert math.isnan(EMPTY_SUPPORT)
    assert math.isnan(kl_divergence(p, q))
    D = pairwise_kl(np.array([p]), np.array([q]))
    assert np.isnan(D[0, 0])
    assert np.isnan(paired_kl(np.array([p]), np.array([q]))[0])


def test_zero_row_in_self_pairs_has_nan_diagonal_and_row() -> None:
    X = np.array([[0.5, 0.5, 0.0], [0.0, 0.0, 0.0], [0.0, 0.2, 0.8]])
    D = pairwise_kl(X)
    assert np.isnan(D[1]).all() and np.isnan(D[:, 1]).all()
    assert D[0, 0] == 0.0 and D[2, 2] == 0.0
    # supports {0, 1} and {1, 2} share {1}: the divergence there is 0
    assert D[0, 2] == 0.0 and D[2, 0] == 0.0


# --- pairwise_kl against the definition ------------------------------------------------


@pytest.mark.parametrize("zero_fraction", [0.0, 0.6, 0.9])
def test_pairwise_matches_reference(zero_fraction: float) -> None:
    rng = np.random.default_rng(42)
    P = _random_rows(rng, 25, 30, zero_fraction)
    Q = _random_rows(rng, 17, 30, zero_fraction)
    expected = _reference_matrix(P, Q)
    got = pairwise_kl(P, Q, block_rows=7)
    assert got.shape == (25, 17)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9, equal_nan=True)
    if zero_fraction == 0.9:
        assert np.isnan(expected).any()  # the sparse case exercises empty supports


def test_self_pairs_match_reference_and_are_non_negative() -> None:
    rng = np.random.default_rng(7)
    X = _random_rows(rng, 40, 100, 0.6)
    D = pairwise_kl(X)
    np.testing.assert_allclose(D, _reference_matrix(X, X), rtol=0, atol=1e-9, equal_nan=True)
    assert np.all(D[~np.isnan(D)] >= 0)
    np.testing.assert_array_equal(np.diag(D), np.zeros(40))


def test_diagonal_exactly_zero_when_q_is_p() -> None:
    rng = np.random.default_rng(3)
    X = _random_rows(rng, 30, 100, 0.5)
    for D in (pairwise_kl(X), pairwise_kl(X, X)):
        assert np.all(np.diag(D) == 0.0)


def test_identical_rows_give_zero_off_diagonal() -> None:
    rng = np.random.default_rng(5)
    row = _random_rows(rng, 1, 50, 0.5)[0]
    D = pairwise_kl(np.vstack([row, row, 2 * row]))
    np.testing.assert_allclose(D, 0.0, atol=1e-12)
    assert np.all(D >= 0)


def test_block_rows_and_float32_do_not_change_result() -> None:
    rng = np.random.default_rng(11)
    X = _random_rows(rng, 33, 20, 0.4)
    full = pairwise_kl(X, block_rows=1000)
    for rows in (1, 4, 32, 33):
        # BLAS may sum in another order for another block shape: round-off only
        np.testing.assert_allclose(pairwise_kl(X, block_rows=rows), full, rtol=0, atol=1e-12)
    single = pairwise_kl(X, dtype=np.float32)
    assert single.dtype == np.float32
    np.testing.assert_allclose(single, full, rtol=1e-6, atol=1e-7, equal_nan=True)


def test_paired_matches_reference() -> None:
    rng = np.random.default_rng(13)
    P = _random_rows(rng, 200, 100, 0.6)
    Q = _random_rows(rng, 200, 100, 0.6)
    expected = np.array([kl_divergence(p, q) for p, q in zip(P, Q)])
    np.testing.assert_allclose(paired_kl(P, Q), expected, rtol=0, atol=1e-9, equal_nan=True)


def test_roundoff_clipping_and_guard() -> None:
    d = np.array([-0.5 * ROUNDOFF_TOL, -0.0, np.nan, 0.25])
    clipped = _clip_roundoff(d)
    assert clipped[0] == 0.0 and clipped[1] == 0.0 and np.isnan(clipped[2]) and clipped[3] == 0.25
    with pytest.raises(FloatingPointError):
        _clip_roundoff(np.array([-1e-3]))


@pytest.mark.parametrize(
    "bad, message",
    [
        ([[0.5, -0.1]], "negative"),
        ([[np.nan, 1.0]], "NaN"),
        ([[np.inf, 1.0]], "infinite"),
        ([0.5, 0.5], "2-dimensional"),
    ],
)
def test_invalid_input_rejected(bad: list, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pairwise_kl(bad)


def test_shape_mismatch_rejected() -> None:
    with pytest.raises(ValueError, match="width"):
        pairwise_kl(np.ones((2, 3)), np.ones((2, 4)))
    with pytest.raises(ValueError, match="length"):
        kl_divergence([0.5, 0.5], [1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="block_rows"):
        pairwise_kl(np.ones((2, 3)), block_rows=0)
