"""The shape of the gaps: a discrete Weibull law for the words between punctuation marks
(Stanisz, Drożdż and Kwapień 2023).

The number of words ``k`` between two consecutive marks follows the discrete Weibull law
(type I, Nakagawa and Osaki) on the support ``k = 1, 2, ...``::

    F(k) = 1 - (1 - p)^(k^β),   S(k) = 1 - F(k) = exp(-θ k^β),   θ = -log(1 - p),
    P(K = k) = S(k - 1) - S(k),
    h(k) = P(K = k | K >= k) = 1 - exp(-θ (k^β - (k - 1)^β))       (the hazard).

``β = 1`` is the geometric law (a constant hazard ``p``); ``β > 1`` an increasing hazard (the
longer a run of words, the likelier a mark); ``β < 1`` a decreasing one.

Gaps of 0 words (two adjacent marks, as ``."`` or ``),``) lie outside the support: they are
dropped, so that adjacent marks count as one break (:func:`word_gaps`). Sentence lengths are
the words between consecutive sentence-ending marks (``. ? ! ...``), again without zeros
(:func:`sentence_lengths`).

The fit is the maximum-likelihood estimate over ``(log θ, log β)`` (L-BFGS-B on the
log-likelihood written with the counts of the distinct gap values, so a book of thousands of
gaps costs a handful of vector operations per step).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize

from punctstyle.marks import SENTENCE_END_CODES

@dataclass(frozen=True)
class WeibullFit:
    """A discrete Weibull fit: ``p``, ``beta``, the number of gaps ``n``, the mean
    log-likelihood per gap and the Kolmogorov distance ``ks = max_k |F_emp(k) - F(k)|``."""

    p: float
    beta: float
    n: int
    mean_log_likelihood: float
    ks: float


def word_gaps(gaps: np.ndarray) -> np.ndarray:
    """The word gaps between consecutive marks without the zeros: ``gaps[gaps > 0]`` (int64)."""
    g = np.asarray(gaps, dtype=np.int64)
    return g[g > 0]


def sentence_lengths(marks: np.ndarray, gaps: np.ndarray) -> np.ndarray:
    """Words between consecutive sentence-ending marks (``. ? ! ...``), zeros dropped.

    With ``W_i = gaps[0] + ... + gaps[i]`` the words read up to mark ``i`` and ``e_1 < e_2 < ...``
    the sentence-ending marks, the lengths are ``W_{e_{j+1}} - W_{e_j}`` (the text before the
    first ending mark is not a whole sentence and is left out)."""
    codes = np.asarray(sorted(SENTENCE_END_CODES))
    ends = np.flatnonzero(np.isin(np.asarray(marks), codes))
    words = np.cumsum(np.asarray(gaps, dtype=np.int64))
    lengths = np.diff(words[ends])
    return lengths[lengths > 0]


def _neg_log_likelihood(params: np.ndarray, values: np.ndarray, counts: np.ndarray) -> tuple[float, np.ndarray]:
    """``-sum_k c_k log P(k)`` with ``log P(k) = -θ (k-1)^β + log(1 - exp(-θ Δ_k))``,
    ``Δ_k = k^β - (k-1)^β``, and its gradient in ``(log θ, log β)``."""
    theta, beta = np.exp(params)
    log_k = np.log(values)
    log_km1 = np.log(np.maximum(values - 1.0, 1.0))  # (k-1)^β log(k-1) is 0 at k = 1
    upper = values**beta
    lower = (values - 1.0) ** beta
    delta = upper - lower
    tail = -np.expm1(-theta * delta)
    log_p = -theta * lower + np.log(tail)
    ratio = np.exp(-theta * delta) / tail  # e^{-θΔ} / (1 - e^{-θΔ})
    d_theta = -lower + ratio * delta
    d_beta = -theta * lower * log_km1 + theta * ratio * (upper * log_k - lower * log_km1)
    gradient = -np.array([np.sum(counts * d_theta) * theta, np.sum(counts * d_beta) * beta])
    return float(-np.sum(counts * log_p)), gradient


def survival(k: np.ndarray, p: float, beta: float) -> np.ndarray:
    """``S(k) = (1 - p)^(k^β)`` (``S(0) = 1``)."""
    return np.exp(np.log1p(-p) * np.asarray(k, dtype=np.float64) ** beta)


def cdf(k: np.ndarray, p: float, beta: float) -> np.ndarray:
    """``F(k) = 1 - (1 - p)^(k^β)``."""
    return 1.0 - survival(k, p, beta)


def hazard(k: np.ndarray, p: float, beta: float) -> np.ndarray:
    """``h(k) = 1 - (1 - p)^(k^β - (k-1)^β)`` for ``k >= 1`` (``h(1) = p``)."""
    k = np.asarray(k, dtype=np.float64)
    return -np.expm1(np.log1p(-p) * (k**beta - (k - 1.0) ** beta))


def sample(p: float, beta: float, size: int, rng: np.random.Generator) -> np.ndarray:
    """``size`` draws of the discrete Weibull law: ``K = ceil((E / θ)^(1/β))``, ``E ~ Exp(1)``
    (``P(K > k) = P(E > θ k^β) = S(k)``)."""
    theta = -np.log1p(-p)
    draws = np.ceil((rng.exponential(size=size) / theta) ** (1.0 / beta)).astype(np.int64)
    return np.maximum(draws, 1)


def fit_discrete_weibull(values: np.ndarray) -> WeibullFit:
    """The maximum-likelihood ``(p, β)`` of positive integer ``values`` (module docstring).

    Started at the geometric fit (``β = 1``, ``p = 1 / mean``); NaNs for fewer than 2 values or
    when every value is the same (the likelihood has no finite maximum)."""
    v = np.asarray(values, dtype=np.int64)
    if v.size and v.min() < 1:
        raise ValueError(f"the discrete Weibull support is k >= 1, got a value {int(v.min())}")
    if v.size < 2 or v.min() == v.max():
        return WeibullFit(np.nan, np.nan, int(v.size), np.nan, np.nan)
    unique, counts = np.unique(v, return_counts=True)
    unique = unique.astype(np.float64)
    counts = counts.astype(np.float64)
    p0 = min(max(1.0 / float(v.mean()), 1e-6), 1 - 1e-6)
    start = np.array([np.log(-np.log1p(-p0)), 0.0])
    result = minimize(
        _neg_log_likelihood,
        start,
        args=(unique, counts),
        method="L-BFGS-B",
        jac=True,
        bounds=[(-30.0, 5.0), (np.log(0.05), np.log(20.0))],
    )
    theta, beta = np.exp(result.x)
    p = float(-np.expm1(-theta))
    empirical = np.cumsum(counts) / counts.sum()
    ks = float(np.max(np.abs(empirical - cdf(unique, p, beta))))
    return WeibullFit(p, float(beta), int(v.size), float(-result.fun / v.size), ks)

