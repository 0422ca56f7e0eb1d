"""Kullback--Leibler divergence with the paper's common-support rule (section 2.3).

Definition (the issue's precise form of the paper's rule)
---------------------------------------------------------
For two non-negative vectors ``p`` and ``q`` of the same length, let the *common support*
be ``C = {i : p_i > 0 and q_i > 0}``. Restrict both vectors to ``C`` and renormalise::

    S_p = sum_{i in C} p_i,     S_q = sum_{i in C} q_i,
    p~_i = p_i / S_p,           q~_i = q_i / S_q          (i in C)

    d(p, q) = sum_{i in C} p~_i log(p~_i / q~_i)          (natural log, nats)

Because of the renormalisation the inputs need not sum to 1 (``d(a p, b q) = d(p, q)`` for
``a, b > 0``); they must only be finite and non-negative. When ``p`` and ``q`` are mutually
absolutely continuous this is the ordinary KL divergence, so ``d >= 0``, ``d(p, p) = 0``
and ``d`` is asymmetric.

Empty common support
--------------------
When ``C`` is empty (e.g. a zero vector, or disjoint supports) the divergence is undefined.
It is returned as :data:`EMPTY_SUPPORT` (``NaN``), never as a silent ``0``. **Every caller
must handle it**: use nan-aware means (``np.nanmean``), exclude NaN from arg-min searches
(``np.nanargmin``; a row of all NaN has no nearest neighbour), and count and report how
many values were NaN.

Round-off
---------
Mathematically ``d >= 0``; in floating point a value can come out as a tiny negative
number (about ``1e-16`` times the magnitude of the log terms). Values in
``[-ROUNDOFF_TOL, 0)`` are set to ``0``; a value below ``-ROUNDOFF_TOL`` would be a bug and
raises ``FloatingPointError``. ``pairwise_kl(P)`` (``Q`` omitted or ``Q is P``) sets the
diagonal ``d(p, p)`` to exactly ``0`` (``NaN`` for a zero row, whose support is empty).
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

EMPTY_SUPPORT: Final[float] = np.nan
"""Value of ``d(p, q)`` when p and q have no common support: NaN. Callers must handle it."""

ROUNDOFF_TOL: Final[float] = 1e-9
"""Negative results down to ``-ROUNDOFF_TOL`` are round-off and are clipped to 0."""

DEFAULT_BLOCK_ROWS: Final[int] = 512
"""Rows of P processed per block by :func:`pairwise_kl` (temporaries ~ 3 x 8 x rows x n_q bytes)."""


def _check_distributions(values: ArrayLike, name: str, ndim: int) -> np.ndarray:
    """``values`` as a float64 array of ``ndim`` dimensions; finite and non-negative."""
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} contains NaN or infinite values")
    if np.any(array < 0):
        raise ValueError(f"{name} contains negative values")
    return array


def _clip_roundoff(d: np.ndarray, scratch: np.ndarray | None = None) -> np.ndarray:
    """Set values in ``[-ROUNDOFF_TOL, 0)`` to 0 in place; raise below; NaN stays NaN.

    ``scratch``: optional boolean array of ``d``'s shape, reused to avoid an allocation.
    """
    below = np.less(d, -ROUNDOFF_TOL, out=scratch)
    if below.any():
        raise FloatingPointError(f"KL divergence below -{ROUNDOFF_TOL}: {np.nanmin(d)!r}")
    np.maximum(d, 0.0, out=d)  # np.maximum propagates NaN
    return d


def kl_divergence(p: ArrayLike, q: ArrayLike) -> float:
    """KL divergence ``d(p, q)`` of two vectors on their common support (the reference).

    ``d(p, q) = sum_{i in C} p~_i log(p~_i / q~_i)`` with ``C = {i : p_i > 0, q_i > 0}``
    and ``p~ = p|_C / sum(p|_C)``, ``q~ = q|_C / sum(q|_C)`` (natural log). Returns
    :data:`EMPTY_SUPPORT` (NaN) when ``C`` is empty. Plain per-pair definition: the
    reference that :func:`pairwise_kl` is tested against.
    """
    p_arr = _check_distributions(p, "p", 1)
    q_arr = _check_distributions(q, "q", 1)
    if p_arr.shape != q_arr.shape:
        raise ValueError(f"p and q differ in length: {p_arr.shape} vs {q_arr.shape}")
    common = (p_arr > 0) & (q_arr > 0)
    if not common.any():
        return EMPTY_SUPPORT
    p_c = p_arr[common] / p_arr[common].sum()
    q_c = q_arr[common] / q_arr[common].sum()
    d = np.array([np.sum(p_c * np.log(p_c / q_c))])
    return float(_clip_roundoff(d)[0])


def _normalise_rows(X: np.ndarray) -> np.ndarray:
    """Rows divided by their sums (zero rows stay zero): keeps every log term bounded."""
    totals = X.sum(axis=1, keepdims=True)
    return np.divide(X, totals, out=np.zeros_like(X), where=totals > 0)


def _log_terms(X: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mask ``X > 0`` (float), ``X log X`` and ``log X``, the last two 0 where ``X == 0``."""
    mask = X > 0
    log_x = np.zeros_like(X)
    np.log(X, out=log_x, where=mask)
    return mask.astype(np.float64), X * log_x, log_x


def _kl_operands(
    P: ArrayLike, Q: ArrayLike | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The operands of :func:`pairwise_kl`, rows normalised to sum 1 (``Q = None``: ``Q = P``):
    ``P``, its mask ``M = [P > 0]``, ``left = [P L_P, P]`` (n_p, 2k), ``right_t = [N, -L_Q].T``
    (2k, n_q), ``N.T`` and ``Q.T`` (contiguous), so that ``A - B = left @ right_t``."""
    P_arr = _normalise_rows(_check_distributions(P, "P", 2))
    Q_arr = P_arr if Q is None else _normalise_rows(_check_distributions(Q, "Q", 2))
    if P_arr.shape[1] != Q_arr.shape[1]:
        raise ValueError(f"P and Q differ in width: {P_arr.shape[1]} vs {Q_arr.shape[1]}")
    M, P_log_P, L_P = _log_terms(P_arr)
    if Q is None:
        N, L_Q = M, L_P
    else:
        N, _, L_Q = _log_terms(Q_arr)
    left = np.hstack([P_log_P, P_arr])  # (n_p, 2k)
    right_t = np.ascontiguousarray(np.hstack([N, -L_Q]).T)  # (2k, n_q)
    return P_arr, M, left, right_t, np.ascontiguousarray(N.T), np.ascontiguousarray(Q_arr.T)


def pairwise_kl(
    P: ArrayLike,
    Q: ArrayLike | None = None,
    *,
    block_rows: int = DEFAULT_BLOCK_ROWS,
    dtype: DTypeLike = np.float64,
) -> np.ndarray:
    """All-pairs KL divergence ``D[i, j] = d(P[i], Q[j])`` on common supports, vectorised.

    ``P`` is (n_p, k), ``Q`` is (n_q, k) (``Q=None`` means ``Q = P``); rows are
    non-negative vectors (need not be normalised). Returns an (n_p, n_q) array of ``dtype``
    (float64, or float32 to halve the output; the arithmetic is float64 either way).

    Formula. With masks ``M = [P > 0]``, ``N = [Q > 0]``, ``L_P = log P`` and
    ``L_Q = log Q`` (both set to 0 where the entry is 0) and ``C = supp p ∩ supp q``::

        d(p, q) = sum_C (p_i / S_p) [log p_i - log q_i - log S_p + log S_q]
                = (A - B) / S_p - log S_p + log S_q
                = (A - B) / S_p + log(S_q / S_p)

    where every common-support sum is a matrix product (``p_i log p_i = 0`` where
    ``p_i = 0`` and ``N`` zeroes the entries with ``q_i = 0``)::

        S_p = P @ N.T              mass of p on C
        S_q = M @ Q.T              mass of q on C
        A   = (P * L_P) @ N.T      sum_C p_i log p_i
        B   = P @ L_Q.T            sum_C p_i log q_i

    ``A - B`` is one product ``[P L_P, P] @ [N, -L_Q].T``. An empty ``C`` gives
    ``S_p = S_q = A = B = 0`` and the result :data:`EMPTY_SUPPORT` (NaN). Values in
    ``[-ROUNDOFF_TOL, 0)`` are clipped to 0; when ``Q`` is omitted or ``Q is P`` the
    diagonal is exactly 0 (NaN for a zero row).

    Rows are first divided by their sums (which leaves ``d`` unchanged) so that every log
    term is bounded. Rows of ``P`` are processed in blocks of ``block_rows`` through BLAS
    (``np.matmul``); no Python loop over pairs. Peak memory is the output plus about
    ``3 * 8 * block_rows * n_q`` bytes of block temporaries (one more block for float32
    output) and a few (n, 2k) arrays: 15,000 x 15,000 float64 needs about 2 GB.
    """
    if block_rows < 1:
        raise ValueError(f"block_rows must be >= 1, got {block_rows}")
    same = Q is None or Q is P
    P_arr, M, left, right_t, N_t, Q_t = _kl_operands(P, None if same else Q)
    n_p, n_q = P_arr.shape[0], Q_t.shape[1]
    out = np.empty((n_p, n_q), dtype=dtype)
    if not np.issubdtype(out.dtype, np.floating):
        raise ValueError(f"dtype must be a floating type, got {out.dtype}")
    _kl_blocks(out, left, right_t, P_arr, N_t, M, Q_t, block_rows)
    if same:
        idx = np.arange(n_p)
        out[idx, idx] = np.where(M.any(axis=1), 0.0, EMPTY_SUPPORT)
    return out


def _kl_blocks(
    out: np.ndarray,
    left: np.ndarray,
    right_t: np.ndarray,
    P_arr: np.ndarray,
    N_t: np.ndarray,
    M: np.ndarray,
    Q_t: np.ndarray,
    block_rows: int,
) -> None:
    """Fill ``out`` (n_p, n_q) with ``d = (A - B) / S_p + log(S_q / S_p)``, ``block_rows`` rows
    of ``P`` at a time (:func:`pairwise_kl`: ``A - B = left @ right_t``, ``S_p = P @ N.T``,
    ``S_q = M @ Q.T``); :data:`EMPTY_SUPPORT` where ``S_p = 0``, roundoff clipped. A float64
    ``out`` is computed in place, another float type through one float64 block."""
    n_p, n_q = out.shape
    direct = out.dtype == np.float64  # compute straight into the output rows
    rows = min(block_rows, max(n_p, 1))
    diff = None if direct else np.empty((rows, n_q))
    s_p = np.empty((rows, n_q))
    s_q = np.empty((rows, n_q))
    flag = np.empty((rows, n_q), dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        for start in range(0, n_p, rows):
            stop = min(start + rows, n_p)
            b = stop - start
            d = out[start:stop] if diff is None else diff[:b]
            sp, sq, empty = s_p[:b], s_q[:b], flag[:b]
            np.matmul(left[start:stop], right_t, out=d)  # A - B
            np.matmul(P_arr[start:stop], N_t, out=sp)  # S_p
            np.matmul(M[start:stop], Q_t, out=sq)  # S_q
            np.divide(d, sp, out=d)
            np.divide(sq, sp, out=sq)
            np.log(sq, out=sq)
            np.add(d, sq, out=d)
            np.copyto(d, EMPTY_SUPPORT, where=np.equal(sp, 0.0, out=empty))
            _clip_roundoff(d, empty)
            if diff is not None:
                out[start:stop] = d


def paired_kl(P: ArrayLike, Q: ArrayLike) -> np.ndarray:
    """Row-by-row KL divergence ``d(P[i], Q[i])`` of two (n, k) arrays, vectorised.

    Same definition, formula and NaN/round-off rules as :func:`pairwise_kl`, but only the
    n matched pairs (e.g. sampled document pairs), with the sums taken along rows.
    """
    P_arr = _normalise_rows(_check_distributions(P, "P", 2))
    Q_arr = _normalise_rows(_check_distributions(Q, "Q", 2))
    if P_arr.shape != Q_arr.shape:
        raise ValueError(f"P and Q differ in shape: {P_arr.shape} vs {Q_arr.shape}")
    M, P_log_P, _ = _log_terms(P_arr)
    N, _, L_Q = _log_terms(Q_arr)
    s_p = np.sum(P_arr * N, axis=1)
    s_q = np.sum(M * Q_arr, axis=1)
    a_minus_b = np.sum(P_log_P * N - P_arr * L_Q, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        d = a_minus_b / s_p + np.log(s_q / s_p)
    d[s_p == 0] = EMPTY_SUPPORT
    return _clip_roundoff(d)
