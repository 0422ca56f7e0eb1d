"""Consistency of authors or genres under KL divergence (sections 3.1 and 4.1 of the paper).

Classes are authors (section 3.1) or genres (section 4.1); ``X`` is one feature matrix
(n_docs, k) such as ``punctstyle.corpus.feature_matrix(frame, "f3")`` and ``labels`` the
class of each row. Rows whose label is missing (``None``/``NaN``, e.g. a book without a
genre) belong to no class and are left out of every statistic.

Consistency of a class ``a`` with documents ``D_a`` (equation (consistency))::

    C(a) = 1 / (|D_a| (|D_a| - 1)) * sum_{k != k' in D_a} d_KL(f^k, f^k')

the mean of the KL divergence over all ``|D_a| (|D_a| - 1)`` *ordered* pairs of distinct
documents (d_KL is asymmetric, so both ``d(k, k')`` and ``d(k', k)`` count; this equals
the mean of the symmetrised divergence over unordered pairs). Smaller is more consistent.

KL values come from :func:`punctstyle.divergence.pairwise_kl` (common-support rule). A
pair with an empty common support has the value NaN (``EMPTY_SUPPORT``): means and
standard deviations here are nan-aware, and the NaN pairs are counted and reported
(``n_empty_support``); statistics use the ``n_pairs - n_empty_support`` finite values.

Confidence interval: like the paper, we assume the KL values of a class are normally
distributed and report the 95% normal interval of the mean
``mean +- 1.96 * sd / sqrt(n)`` with ``sd`` the sample standard deviation (ddof=1) and
``n`` the number of finite values. (Ordered pairs sharing documents are not independent,
so this interval is the paper's approximation, not an exact one.)

Baseline: the mean KL divergence over ``n_pairs`` (1000 in the paper) ordered pairs of
documents from distinct classes, drawn uniformly at random from the set of all such pairs,
without replacement, with a seeded ``numpy.random.Generator``. A two-sample
Kolmogorov--Smirnov test compares the pooled within-class values with the cross-class ones.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Final

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy import stats

from punctstyle.divergence import paired_kl, pairwise_kl

Z_95: Final[float] = 1.96
"""Normal quantile of the paper's 95% confidence interval of the mean."""

TABLE_COLUMNS: Final[tuple[str, ...]] = (
    "class",
    "n_docs",
    "n_pairs",
    "n_empty_support",
    "consistency",
    "sd",
    "ci_low",
    "ci_high",
)


def _label_array(labels: ArrayLike, n_docs: int) -> np.ndarray:
    """Labels as an object array of length ``n_docs`` (missing labels become None)."""
    array = pd.Series(labels).to_numpy(dtype=object, copy=True)
    if array.ndim != 1 or array.shape[0] != n_docs:
        raise ValueError(f"labels must be 1-D of length {n_docs} (rows of X), got shape {array.shape}")
    array[pd.isna(array)] = None
    return array


def _check_matrix(X: ArrayLike) -> np.ndarray:
    array = np.asarray(X, dtype=np.float64)
    if array.ndim != 2:
        raise ValueError(f"X must be 2-dimensional (n_docs, k), got shape {array.shape}")
    return array


def class_indices(labels: ArrayLike) -> dict[Hashable, np.ndarray]:
    """Class -> row indices (ascending) of its documents; classes sorted; missing labels dropped."""
    array = pd.Series(labels).to_numpy(dtype=object)
    rows = np.flatnonzero(~pd.isna(array))
    codes, classes = pd.factorize(array[rows], sort=True)
    order = np.argsort(codes, kind="stable")
    bounds = np.cumsum(np.bincount(codes, minlength=len(classes)))[:-1]
    return dict(zip(classes, np.split(rows[order], bounds)))


def _off_diagonal(matrix: np.ndarray) -> np.ndarray:
    """Entries ``matrix[i, j]`` with ``i != j``, row-major."""
    n = matrix.shape[0]
    return matrix[~np.eye(n, dtype=bool)]


def within_class_kl(X: ArrayLike, labels: ArrayLike) -> dict[Hashable, np.ndarray]:
    """Class -> KL values of all ordered pairs of its distinct documents (row-major; NaN kept).

    One vectorised :func:`pairwise_kl` call per class block.
    """
    X_arr = _check_matrix(X)
    label_array = _label_array(labels, X_arr.shape[0])
    return {c: _off_diagonal(pairwise_kl(X_arr[idx])) for c, idx in class_indices(label_array).items()}


def _nan_mean(values: np.ndarray) -> float:
    finite = values[~np.isnan(values)]
    return float(finite.mean()) if finite.size else float("nan")


def summarise_values(values: np.ndarray) -> dict[str, float | int]:
    """n_pairs, n_empty_support (NaN count), nan-aware mean, sd (ddof=1) and 95% normal CI."""
    finite = values[~np.isnan(values)]
    n = finite.size
    mean = _nan_mean(finite)
    sd = float(finite.std(ddof=1)) if n > 1 else float("nan")
    half = Z_95 * sd / np.sqrt(n) if n > 1 else float("nan")
    return {
        "n_pairs": int(values.size),
        "n_empty_support": int(values.size - n),
        "consistency": mean,
        "sd": sd,
        "ci_low": mean - half,
        "ci_high": mean + half,
    }


def rank_by_consistency(table: pd.DataFrame) -> pd.DataFrame:
    """Rows ordered by consistency, most consistent (smallest) first; NaN last; ties by class."""
    by_class = table.sort_values("class", key=lambda s: s.astype(str), kind="mergesort")
    ranked = by_class.sort_values("consistency", kind="mergesort", na_position="last")
    return ranked.reset_index(drop=True)


def _table(values_by_class: dict[Hashable, np.ndarray], sizes: dict[Hashable, int]) -> pd.DataFrame:
    rows = [{"class": c, "n_docs": sizes[c], **summarise_values(v)} for c, v in values_by_class.items()]
    table = pd.DataFrame(rows, columns=list(TABLE_COLUMNS))
    return rank_by_consistency(table)


def class_consistency(X: ArrayLike, labels: ArrayLike) -> pd.DataFrame:
    """Per-class consistency table, ranked (most consistent first).

    Columns: ``class, n_docs, n_pairs`` (= n_docs (n_docs - 1) ordered pairs),
    ``n_empty_support`` (pairs whose KL is NaN), ``consistency`` (nan-aware mean KL),
    ``sd`` (ddof=1), ``ci_low, ci_high`` (mean -+ 1.96 sd / sqrt(n finite)). A class with one
    document has no pairs and NaN statistics (ranked last).
    """
    X_arr = _check_matrix(X)
    label_array = _label_array(labels, X_arr.shape[0])
    values = within_class_kl(X_arr, label_array)
    sizes = {c: idx.size for c, idx in class_indices(label_array).items()}
    return _table(values, sizes)


def within_class_values(X: ArrayLike, labels: ArrayLike) -> np.ndarray:
    """All within-class KL values pooled (classes in sorted order, NaN kept: count them)."""
    values = list(within_class_kl(X, labels).values())
    return np.concatenate(values) if values else np.empty(0)


def sample_cross_class_pairs(
    labels: ArrayLike, n_pairs: int = 1000, seed: int | np.random.Generator = 0
) -> tuple[np.ndarray, np.ndarray]:
    """``n_pairs`` distinct ordered pairs (i, j) of labelled rows with different labels.

    Uniform over the set of all such ordered pairs, without replacement (rejection
    sampling from uniform pairs, vectorised in batches); deterministic for an integer
    seed. Raises ``ValueError`` if fewer than ``n_pairs`` such pairs exist.
    """
    if n_pairs < 1:
        raise ValueError(f"n_pairs must be >= 1, got {n_pairs}")
    array = pd.Series(labels).to_numpy(dtype=object)
    docs = np.flatnonzero(~pd.isna(array))
    codes, _ = pd.factorize(array[docs])
    m = docs.size
    available = m * m - int(np.sum(np.bincount(codes).astype(np.int64) ** 2)) if m else 0
    if available < n_pairs:
        raise ValueError(f"only {available} ordered cross-class pairs exist, {n_pairs} requested")
    rng = np.random.default_rng(seed)
    accept = available / (m * m)
    chosen = np.empty(0, dtype=np.int64)
    while chosen.size < n_pairs:
        draw = min(int(np.ceil(2 * (n_pairs - chosen.size) / accept)) + 16, 10_000_000)
        a = rng.integers(0, m, draw)
        b = rng.integers(0, m, draw)
        keep = codes[a] != codes[b]
        combined = np.concatenate([chosen, a[keep] * m + b[keep]])
        _, first = np.unique(combined, return_index=True)
        chosen = combined[np.sort(first)][:n_pairs]
    return docs[chosen // m], docs[chosen % m]


def cross_class_baseline(
    X: ArrayLike, labels: ArrayLike, n_pairs: int = 1000, seed: int | np.random.Generator = 0
) -> tuple[float, np.ndarray]:
    """Consistency baseline: (nan-aware mean, values) of KL over random cross-class pairs.

    The pairs are :func:`sample_cross_class_pairs` (``n_pairs`` ordered pairs of documents
    from distinct classes, seeded); the values (NaN kept) are in draw order.
    """
    X_arr = _check_matrix(X)
    label_array = _label_array(labels, X_arr.shape[0])
    i, j = sample_cross_class_pairs(label_array, n_pairs, seed)
    values = paired_kl(X_arr[i], X_arr[j])
    return _nan_mean(values), values


def ks_within_vs_cross(within: ArrayLike, cross: ArrayLike) -> tuple[float, float]:
    """Two-sample two-sided Kolmogorov--Smirnov test (statistic, p-value); NaN values dropped."""
    w = np.asarray(within, dtype=np.float64)
    c = np.asarray(cross, dtype=np.float64)
    w, c = w[~np.isnan(w)], c[~np.isnan(c)]
    if w.size == 0 or c.size == 0:
        raise ValueError("KS test needs at least one finite value in each sample")
    result = stats.ks_2samp(w, c)
    return float(result.statistic), float(result.pvalue)


def class_order_index(labels: ArrayLike, classes: list[Hashable]) -> np.ndarray:
    """Row indices of the documents of ``classes``, grouped by class in the given order."""
    indices = class_indices(labels)
    missing = [c for c in classes if c not in indices]
    if missing:
        raise ValueError(f"class {missing[0]!r} has no documents in labels")
    return np.concatenate([indices[c] for c in classes]) if classes else np.empty(0, dtype=np.intp)


def top_consistent_kl_matrix(
    X: ArrayLike, labels: ArrayLike, consistency_table: pd.DataFrame, k: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Document-by-document KL matrix of the ``k`` most consistent classes (for heat maps).

    Classes with a finite consistency are ranked (:func:`rank_by_consistency`); to exclude
    a class (as the paper does for the Warren Commission), drop its row from the table.
    Returns ``(matrix, ordered_labels, block_edges)``: ``matrix`` is ``pairwise_kl`` of the
    documents grouped by class, most consistent class first (rows within a class in their
    original order; :func:`class_order_index` gives those row indices), ``ordered_labels``
    the class of each row, and ``block_edges`` the k + 1 boundaries: class ``c`` occupies
    rows and columns ``block_edges[c]:block_edges[c + 1]`` (the outlined diagonal blocks).
    """
    X_arr = _check_matrix(X)
    label_array = _label_array(labels, X_arr.shape[0])
    ranked = rank_by_consistency(consistency_table)
    ranked = ranked[ranked["consistency"].notna()]
    if not 1 <= k <= len(ranked):
        raise ValueError(f"k must be in 1..{len(ranked)} (classes with a consistency), got {k}")
    classes = list(ranked["class"].iloc[:k])
    index = class_order_index(label_array, classes)
    groups = class_indices(label_array)
    sizes = [groups[c].size for c in classes]
    block_edges = np.concatenate([[0], np.cumsum(sizes)]).astype(np.intp)
    return pairwise_kl(X_arr[index]), label_array[index], block_edges


@dataclass(frozen=True)
class ConsistencyReport:
    """Consistency analysis of one feature (figures "consistency" and "distribution of KL")."""

    table: pd.DataFrame
    """Per-class table of :func:`class_consistency`, most consistent first."""
    within: np.ndarray
    """Pooled within-class KL values (NaN kept)."""
    cross: np.ndarray
    """Cross-class KL values of the baseline pairs (NaN kept)."""
    within_mean: float
    baseline_mean: float
    n_within_empty_support: int
    n_cross_empty_support: int
    ks_statistic: float
    ks_pvalue: float

    def summary(self) -> dict[str, float | int]:
        """The scalar results, e.g. for a JSON file."""
        return {
            "n_classes": int(len(self.table)),
            "n_within_pairs": int(self.within.size),
            "n_within_empty_support": self.n_within_empty_support,
            "within_mean": self.within_mean,
            "n_cross_pairs": int(self.cross.size),
            "n_cross_empty_support": self.n_cross_empty_support,
            "baseline_mean": self.baseline_mean,
            "ks_statistic": self.ks_statistic,
            "ks_pvalue": self.ks_pvalue,
        }


def consistency_report(
    X: ArrayLike, labels: ArrayLike, *, n_pairs: int = 1000, seed: int | np.random.Generator = 0
) -> ConsistencyReport:
    """Consistency table, within/cross-class KL values, baseline and KS test for one feature.

    Raises ``ValueError`` when there are no finite within-class values (every class has
    one document) or fewer than ``n_pairs`` cross-class pairs.
    """
    X_arr = _check_matrix(X)
    label_array = _label_array(labels, X_arr.shape[0])
    values = within_class_kl(X_arr, label_array)
    sizes = {c: idx.size for c, idx in class_indices(label_array).items()}
    within = np.concatenate(list(values.values())) if values else np.empty(0)
    baseline_mean, cross = cross_class_baseline(X_arr, label_array, n_pairs, seed)
    ks_statistic, ks_pvalue = ks_within_vs_cross(within, cross)
    return ConsistencyReport(
        table=_table(values, sizes),
        within=within,
        cross=cross,
        within_mean=_nan_mean(within),
        baseline_mean=baseline_mean,
        n_within_empty_support=int(np.isnan(within).sum()),
        n_cross_empty_support=int(np.isnan(cross).sum()),
        ks_statistic=ks_statistic,
        ks_pvalue=ks_pvalue,
    )
