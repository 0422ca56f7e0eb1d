"""Consistency of authors or genres under KL divergence (sections 3.1 and 4.1 of the paper).

Classes are authors (section 3.1) or genres (section 4.1); ``X`` is one feature matrix
(n_docs, k) such as ``punctstyle.corpus.tables.feature_matrix(frame, "f3")`` and ``labels`` the
class of each row. Rows whose label is missing (``None``/``NaN``, e.g. a book without a
genre) belong to no class and are left out of every statistic.

Texts: with ``extraction.excerpt_marks`` a document is an excerpt of a text, and ``groups``
(:func:`punctstyle.corpus.tables.text_groups`, the ``source_id`` of each row) says which. Two excerpts
of one text are not two documents of an author in the paper's sense: **pairs of documents of
the same text are left out** of the within-class pairs and of the baseline's population, and
counted (``n_same_text_pairs`` per class; ``n_within_same_text``, ``n_cross_same_text`` in the
summary). ``groups=None`` (whole texts: every document its own text) leaves out nothing and
gives exactly the results of the paper's definitions below.

Consistency of a class ``a`` with documents ``D_a`` (equation (consistency))::

    C(a) = 1 / |P_a| * sum_{(k, k') in P_a} d_KL(f^k, f^k'),
    P_a = {(k, k') in D_a x D_a : k != k' and t(k) != t(k')}

the mean of the KL divergence over the *ordered* pairs of distinct documents from distinct
texts (``t(k)`` the text of document ``k``; with whole texts ``t(k) = k`` and ``|P_a| =
|D_a| (|D_a| - 1)``, the paper's equation). d_KL is asymmetric, so both ``d(k, k')`` and
``d(k', k)`` count; this equals the mean of the symmetrised divergence over unordered pairs.
Smaller is more consistent. The pairs left out number
``|D_a| (|D_a| - 1) - |P_a| = sum_t m_{a,t} (m_{a,t} - 1)`` (``m_{a,t}``: documents of text
``t`` in class ``a``); a class whose documents are all of one text has no pairs.

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
documents from distinct classes (and distinct texts), drawn uniformly at random from the set
of all such pairs, without replacement, with a seeded ``numpy.random.Generator``. The
population has ``m^2 - sum_c m_c^2 - sum_t m_t^2 + sum_{c,t} m_{c,t}^2`` ordered pairs
(``m`` labelled documents, ``m_c`` of class ``c``, ``m_t`` of text ``t``); a text's excerpts
share its author and genre, so no cross-class pair is of one text (``n_cross_same_text`` =
``sum_t m_t^2 - sum_{c,t} m_{c,t}^2`` = 0) and the draw is the one of whole texts. A
two-sample Kolmogorov--Smirnov test compares the pooled within-class values with the
cross-class ones.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Final

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from punctstyle.divergence import pairwise_kl

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

TEXT_COLUMNS: Final[tuple[str, ...]] = ("n_texts", "n_same_text_pairs")
"""Columns the per-class table gains when documents are excerpts (``groups`` given): the
class's texts and its ordered pairs of one text left out (not in ``n_pairs``)."""


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


def _group_codes(groups: ArrayLike | None, n_docs: int) -> np.ndarray | None:
    """Integer text code of each row (equal codes: same text), or None for whole texts."""
    if groups is None:
        return None
    series = pd.Series(groups)
    if series.ndim != 1 or len(series) != n_docs:
        raise ValueError(f"groups must be 1-D of length {n_docs} (rows of X), got {len(series)}")
    if series.isna().any():
        raise ValueError("groups (the text of each document) must not be missing")
    codes, _ = pd.factorize(series)
    return codes.astype(np.int64)


def class_indices(labels: ArrayLike) -> dict[Hashable, np.ndarray]:
    """Class -> row indices (ascending) of its documents; classes sorted; missing labels dropped."""
    array = pd.Series(labels).to_numpy(dtype=object)
    rows = np.flatnonzero(~pd.isna(array))
    codes, classes = pd.factorize(array[rows], sort=True)
    order = np.argsort(codes, kind="stable")
    bounds = np.cumsum(np.bincount(codes, minlength=len(classes)))[:-1]
    return dict(zip(classes, np.split(rows[order], bounds)))


def pair_mask(texts: np.ndarray | None, n_docs: int) -> np.ndarray:
    """``(n, n)`` mask of the ordered pairs ``(k, k')`` counted: ``k != k'`` and ``t(k) != t(k')``.

    ``texts``: the text code of each of the ``n`` documents, or None (whole texts: ``t(k) = k``,
    the mask is the off-diagonal).
    """
    mask = ~np.eye(n_docs, dtype=bool)
    if texts is not None:
        mask &= texts[:, None] != texts[None, :]
    return mask


def within_class_kl(X: ArrayLike, labels: ArrayLike, groups: ArrayLike | None = None) -> dict[Hashable, np.ndarray]:
    """Class -> KL values of its ordered pairs ``P_a`` (module docstring; row-major; NaN kept).

    One vectorised :func:`pairwise_kl` call per class block, masked by :func:`pair_mask`:
    with ``groups`` (the text of each row), pairs of documents of one text are left out.
    """
    X_arr = _check_matrix(X)
    label_array = _label_array(labels, X_arr.shape[0])
    texts = _group_codes(groups, X_arr.shape[0])
    return {
        c: pairwise_kl(X_arr[idx])[pair_mask(None if texts is None else texts[idx], idx.size)]
        for c, idx in class_indices(label_array).items()
    }


def same_text_pairs(labels: ArrayLike, groups: ArrayLike) -> dict[Hashable, tuple[int, int]]:
    """Class -> (texts, ordered pairs of one text) ``(#{t}, sum_t m_{a,t} (m_{a,t} - 1))``.

    The second number is what :func:`within_class_kl` leaves out of the class's
    ``|D_a| (|D_a| - 1)`` ordered pairs.
    """
    label_array = pd.Series(labels).to_numpy(dtype=object)
    texts = _group_codes(groups, label_array.shape[0])
    out = {}
    for c, idx in class_indices(label_array).items():
        counts = np.unique(texts[idx], return_counts=True)[1].astype(np.int64)
        out[c] = (int(counts.size), int(np.sum(counts * (counts - 1))))
    return out


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


def _table(
    values_by_class: dict[Hashable, np.ndarray],
    sizes: dict[Hashable, int],
    texts: dict[Hashable, tuple[int, int]] | None = None,
) -> pd.DataFrame:
    rows = [{"class": c, "n_docs": sizes[c], **summarise_values(v)} for c, v in values_by_class.items()]
    columns = list(TABLE_COLUMNS)
    if texts is not None:
        columns += list(TEXT_COLUMNS)
        for row in rows:
            row["n_texts"], row["n_same_text_pairs"] = texts[row["class"]]
    table = pd.DataFrame(rows, columns=columns)
    return rank_by_consistency(table)


def class_consistency(X: ArrayLike, labels: ArrayLike, groups: ArrayLike | None = None) -> pd.DataFrame:
    """Per-class consistency table, ranked (most consistent first).

    Columns: ``class, n_docs, n_pairs`` (= |P_a|, the n_docs (n_docs - 1) ordered pairs less
    those of one text), ``n_empty_support`` (pairs whose KL is NaN), ``consistency``
    (nan-aware mean KL), ``sd`` (ddof=1), ``ci_low, ci_high`` (mean -+ 1.96 sd / sqrt(n
    finite)); with ``groups`` (the text of each row) also :data:`TEXT_COLUMNS` (``n_texts``,
    ``n_same_text_pairs``: the pairs left out). A class with one document (or one text) has no
    pairs and NaN statistics (ranked last).
    """
    X_arr = _check_matrix(X)
    label_array = _label_array(labels, X_arr.shape[0])
    values = within_class_kl(X_arr, label_array, groups)
    sizes = {c: idx.size for c, idx in class_indices(label_array).items()}
    texts = None if groups is None else same_text_pairs(label_array, groups)
    return _table(values, sizes, texts)


def within_class_values(X: ArrayLike, labels: ArrayLike, groups: ArrayLike | None = None) -> np.ndarray:
    """All within-class KL values pooled (classes in sorted order, NaN kept: count them);
    with ``groups``, pairs of documents of one text are left out."""
    values = list(within_class_kl(X, labels, groups).values())
    return np.concatenate(values) if values else np.empty(0)
