"""The cross-class baseline of consistency: pair counts, sampled pairs, KS tests.

(Split from the former consistency.py.)"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from punctstyle.analyses.consistency import _check_matrix, _group_codes, _label_array, _nan_mean
from punctstyle.divergence import paired_kl


def _squared_counts(keys: np.ndarray) -> int:
    """``sum_v n_v^2`` over the distinct values ``v`` of ``keys`` (``n_v``: how often ``v`` occurs)."""
    return int(np.sum(np.unique(keys, return_counts=True)[1].astype(np.int64) ** 2))


@dataclass(frozen=True)
class PairCounts:
    """Ordered pairs ``(k, k')``, ``k != k'``, of the ``m`` labelled documents, by class and text.

    With ``m_c`` documents of class ``c``, ``m_t`` of text ``t`` and ``m_{c,t}`` of both
    (whole texts: ``t(k) = k``, so ``sum_{c,t} m_{c,t}^2 = sum_t m_t^2 = m``)::

        within           = sum_c m_c^2 - sum_{c,t} m_{c,t}^2                  (the pairs P_a, all a)
        within_same_text = sum_{c,t} m_{c,t}^2 - m                            (left out)
        cross            = m^2 - sum_c m_c^2 - sum_t m_t^2 + sum_{c,t} m_{c,t}^2 (baseline population)
        cross_same_text  = sum_t m_t^2 - sum_{c,t} m_{c,t}^2                  (left out)
    """

    within: int
    within_same_text: int
    cross: int
    cross_same_text: int


def pair_counts(labels: ArrayLike, groups: ArrayLike | None = None) -> PairCounts:
    """The :class:`PairCounts` of the labelled rows (``groups``: the text of each row, or None)."""
    array = pd.Series(labels).to_numpy(dtype=object)
    rows = ~pd.isna(array)
    codes, _ = pd.factorize(array[rows])
    m = int(codes.size)
    texts = _group_codes(groups, array.shape[0])
    texts = np.arange(m, dtype=np.int64) if texts is None else texts[rows]
    by_class, by_text = _squared_counts(codes), _squared_counts(texts)
    by_both = _squared_counts(codes * (int(texts.max(initial=0)) + 1) + texts)
    return PairCounts(
        within=by_class - by_both,
        within_same_text=by_both - m,
        cross=m * m - by_class - by_text + by_both,
        cross_same_text=by_text - by_both,
    )


def available_cross_pairs(labels: ArrayLike, groups: ArrayLike | None = None) -> int:
    """Ordered pairs of labelled documents from distinct classes and distinct texts (the
    baseline's population): ``m^2 - sum_c m_c^2 - sum_t m_t^2 + sum_{c,t} m_{c,t}^2``."""
    return pair_counts(labels, groups).cross


def sample_cross_class_pairs(
    labels: ArrayLike,
    n_pairs: int = 1000,
    seed: int | np.random.Generator = 0,
    groups: ArrayLike | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``n_pairs`` distinct ordered pairs (i, j) of labelled rows with different labels
    (and, with ``groups``, of different texts: ``t(i) != t(j)``).

    Uniform over the set of all such ordered pairs (:func:`available_cross_pairs`), without
    replacement (rejection sampling from uniform pairs, vectorised in batches); deterministic
    for an integer seed, and the same draw with or without ``groups`` when no text has two
    classes. Raises ``ValueError`` if fewer than ``n_pairs`` such pairs exist.
    """
    if n_pairs < 1:
        raise ValueError(f"n_pairs must be >= 1, got {n_pairs}")
    array = pd.Series(labels).to_numpy(dtype=object)
    docs = np.flatnonzero(~pd.isna(array))
    codes, _ = pd.factorize(array[docs])
    texts = _group_codes(groups, array.shape[0])
    texts = docs if texts is None else texts[docs]
    m, available = docs.size, available_cross_pairs(array, groups)
    if available < n_pairs:
        raise ValueError(f"only {available} ordered cross-class pairs exist, {n_pairs} requested")
    rng = np.random.default_rng(seed)
    accept = available / (m * m)
    chosen = np.empty(0, dtype=np.int64)
    while chosen.size < n_pairs:
        draw = min(int(np.ceil(2 * (n_pairs - chosen.size) / accept)) + 16, 10_000_000)
        a = rng.integers(0, m, draw)
        b = rng.integers(0, m, draw)
        keep = (codes[a] != codes[b]) & (texts[a] != texts[b])
        combined = np.concatenate([chosen, a[keep] * m + b[keep]])
        _, first = np.unique(combined, return_index=True)
        chosen = combined[np.sort(first)][:n_pairs]
    return docs[chosen // m], docs[chosen % m]


def cross_class_baseline(
    X: ArrayLike,
    labels: ArrayLike,
    n_pairs: int = 1000,
    seed: int | np.random.Generator = 0,
    groups: ArrayLike | None = None,
) -> tuple[float, np.ndarray]:
    """Consistency baseline: (nan-aware mean, values) of KL over random cross-class pairs.

    The pairs are :func:`sample_cross_class_pairs` (``n_pairs`` ordered pairs of documents
    from distinct classes and, with ``groups``, distinct texts, seeded); the values (NaN
    kept) are in draw order.
    """
    X_arr = _check_matrix(X)
    label_array = _label_array(labels, X_arr.shape[0])
    i, j = sample_cross_class_pairs(label_array, n_pairs, seed, groups)
    values = paired_kl(X_arr[i], X_arr[j])
    return _nan_mean(values), values


def ks_within_vs_cross(within: ArrayLike, cross: ArrayLike) -> tuple[float, float]:
    """Two-sample two-sided Kolmogorov--Smirnov test (statistic, p-value); NaN values dropped."""
    w = np.asarray(within, dtype=np.float64)
    c = np.asarray(cross, dtype=np.float64)
    w, c = w[~np.isnan(w)], c[~np.isnan(c)]
    if w.size == 0 or c.size == 0:
        raise ValueError("KS test needs at least one finite value in each sample")
    # lazy: scipy.stats costs a second of import in every figure and table job that imports this
    # module's readers without testing anything (issue 37)
    from scipy import stats

    result = stats.ks_2samp(w, c)
    return float(result.statistic), float(result.pvalue)
