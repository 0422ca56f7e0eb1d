"""Distances between documents' feature vectors, each formula once: the z-scores and Burrows'
Delta (Burrows 2002) of every Delta in the package, and the symmetrised KL divergence (the KL
divergence itself, with the paper's common-support rule, is :mod:`punctstyle.divergence`).

Z-scores (:func:`zscore_statistics`, :func:`zscores`, :func:`column_zscores`)
----------------------------------------------------------------------------
Over the rows of an (n, d) matrix ``X``, ``mu_i`` the mean and ``sigma_i`` the sample standard
deviation (``ddof = 1``) of column ``i``; a column whose values are all equal (constant over
the rows: ``max - min = 0``, tested exactly, since the rounded mean of a column of 0.1s leaves a
sample sd of about 1e-17 rather than 0), or a single row, gets ``sigma_i = 1``::

    z_i(x) = (x_i - mu_i) / sigma_i

Burrows' Delta (:func:`delta`)
------------------------------
Of two z-scored vectors ``a`` and ``b`` of ``d`` features, the mean absolute difference::

    Delta(a, b) = (1/d) sum_i |a_i - b_i|

In its weighted form ``Delta_w(a, b) = sum_i w_i |a_i - b_i|`` on the raw vectors: with
``w_i = [i in F] / (|F| sigma_i)`` it is the Delta of the z-scores restricted to the features
``F`` (the means cancel), the form of the General Imposters iterations
(:mod:`punctstyle.attribution.verification`), whose statistics change with each iteration and
test text. The package's Deltas all call :func:`delta`: the ``delta`` classifier's three
variants (:mod:`punctstyle.classifiers.delta`: to author centroids, to the nearest training
text, to pooled author profiles; z-scores over the training rows or over all rows), the
bundle's word methods (:mod:`punctstyle.attribution.bundle_words`), the maps of the corpus
(:mod:`punctstyle.descriptive.maps`: between every two documents, z-scores over the documents), the
translators' word distances (:mod:`punctstyle.training.translators`: constant columns left out)
and the imposters' scores.

Symmetrised KL (:func:`symmetrised_kl`)
---------------------------------------
With ``d`` the KL divergence on common supports (:mod:`punctstyle.divergence`)::

    D_s(p, q) = (d(p, q) + d(q, p)) / 2

symmetric, 0 for ``p = q``, NaN where ``p`` and ``q`` have no common support; of every pair of
two sets of vectors (the maps of the corpus) or of matched pairs (:mod:`punctstyle.analyses.editions`).
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numpy.typing import ArrayLike

from punctstyle.divergence import paired_kl, pairwise_kl

DEFAULT_MAX_CELLS: Final[int] = 16_000_000
"""Differences ``|a_i - b_i|`` held at once by :func:`delta` (128 MB of float64)."""


def zscore_statistics(X: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """``(mu, sigma)``: each column's mean and sample standard deviation (``ddof = 1``) over the
    rows of ``X``; a constant column (all its values equal: :func:`varying_columns` false) or a
    single row gives ``sigma_i = 1``."""
    X = np.asarray(X, dtype=np.float64)
    sd = X.std(axis=0, ddof=1) if X.shape[0] > 1 else np.zeros(X.shape[1])
    return X.mean(axis=0), np.where(varying_columns(X) & (sd > 0), sd, 1.0)


def varying_columns(X: ArrayLike) -> np.ndarray:
    """Whether each column of ``X`` holds two different values (``max_i - min_i > 0``, exact; a
    sample sd can be 1e-17 for a constant column of a value binary floats cannot hold)."""
    X = np.asarray(X, dtype=np.float64)
    return np.ptp(X, axis=0) > 0 if X.shape[0] else np.zeros(X.shape[1], dtype=bool)


def zscores(X: ArrayLike, mean: np.ndarray, sd: np.ndarray) -> np.ndarray:
    """``z_i(x) = (x_i - mu_i) / sigma_i`` of each row of ``X`` with given statistics."""
    return (np.asarray(X, dtype=np.float64) - mean) / sd


def column_zscores(X: ArrayLike) -> np.ndarray:
    """The rows of ``X`` z-scored with their own statistics (:func:`zscore_statistics`)."""
    return zscores(X, *zscore_statistics(X))


def delta(
    A: ArrayLike, B: ArrayLike, weights: ArrayLike | None = None, *, max_cells: int = DEFAULT_MAX_CELLS
) -> np.ndarray:
    """Burrows' Delta of every row of ``A`` (m, d) to every row of ``B`` (n, d).

    Without ``weights`` (``A`` and ``B`` z-scored): ``D[k, j] = (1/d) sum_i |A[k, i] - B[j, i]|``,
    an (m, n) array. With ``weights`` (K, d), or (m, K, d) for weights that change with the row
    of ``A``: ``D[k, j, t] = sum_i W[(k,) t, i] |A[k, i] - B[j, i]|``, an (m, n, K) array (one
    Delta per row of weights; module docstring). Rows of ``A`` go in batches of at most
    ``max_cells`` differences; the values do not depend on the batches.
    """
    A = np.asarray(A, dtype=np.float64)
    B = np.asarray(B, dtype=np.float64)
    W = None if weights is None else np.asarray(weights, dtype=np.float64)
    if A.ndim != 2 or B.ndim != 2 or A.shape[1] != B.shape[1]:
        raise ValueError(f"Delta needs two matrices of the same width, got shapes {A.shape} and {B.shape}")
    per_row = W is not None and W.ndim == 3
    batch = max(1, max_cells // max(1, B.size))
    parts = []
    for start in range(0, A.shape[0], batch):
        # a fresh array, not a reused buffer: its memory order follows the inputs' (C or
        # Fortran), and so does the order of the sums below, to the last bit
        differences = np.abs(A[start : start + batch, None, :] - B[None, :, :])
        if W is None:
            parts.append(differences.mean(axis=2))
        else:
            parts.append(differences @ np.swapaxes(W[start : start + batch] if per_row else W, -1, -2))
    if parts:
        return np.concatenate(parts)
    return np.zeros((0, B.shape[0]) if W is None else (0, B.shape[0], W.shape[-2]))


def symmetrised_kl(P: ArrayLike, Q: ArrayLike | None = None, *, matched: bool = False) -> np.ndarray:
    """``D_s(p, q) = (d(p, q) + d(q, p)) / 2``, ``d`` the KL divergence on common supports
    (:mod:`punctstyle.divergence`; NaN where a pair has no common support).

    Every pair (:func:`punctstyle.divergence.pairwise_kl`): ``D_s[i, j] = D_s(P[i], Q[j])``,
    (n_p, n_q); ``Q`` omitted means ``Q = P``, a symmetric matrix with a diagonal of 0 (NaN for
    a zero row). ``matched``: row by row (:func:`punctstyle.divergence.paired_kl`), ``D_s[i] =
    D_s(P[i], Q[i])`` of two (n, k) arrays, (n,); 0 for two equal rows.
    """
    if matched:
        if Q is None:
            raise ValueError("symmetrised_kl(matched=True) needs Q, the rows matched with P's")
        forward, backward = paired_kl(P, Q), paired_kl(Q, P)
    else:
        forward = pairwise_kl(P, Q)
        backward = forward.T if Q is None else pairwise_kl(Q, P).T
    return (forward + backward) / 2.0
