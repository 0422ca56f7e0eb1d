"""One consistency run: the per-class table, baseline, tests and KL matrices together.

(Split from the former consistency.py.)"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from punctstyle.analyses.consistency import (
    _check_matrix,
    _group_codes,
    _label_array,
    _nan_mean,
    _table,
    class_indices,
    rank_by_consistency,
    same_text_pairs,
    within_class_kl,
)
from punctstyle.analyses.cross_class import available_cross_pairs, cross_class_baseline, ks_within_vs_cross, pair_counts
from punctstyle.divergence import pairwise_kl


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
    n_texts: int | None = None
    """Texts of the labelled documents (None: whole texts, no ``groups``)."""
    n_within_same_text: int | None = None
    """Within-class ordered pairs of one text, left out of ``within`` (None: whole texts)."""
    n_cross_same_text: int | None = None
    """Cross-class ordered pairs of one text, left out of the baseline's population (None: whole texts)."""

    def summary(self) -> dict[str, float | int]:
        """The scalar results, e.g. for a JSON file; with texts (excerpt documents) also
        ``n_texts``, ``n_within_same_text`` and ``n_cross_same_text`` (the pairs left out)."""
        summary = {
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
        if self.n_texts is not None:
            summary.update(
                n_texts=self.n_texts,
                n_within_same_text=self.n_within_same_text,
                n_cross_same_text=self.n_cross_same_text,
            )
        return summary


def consistency_report(
    X: ArrayLike,
    labels: ArrayLike,
    *,
    n_pairs: int = 1000,
    seed: int | np.random.Generator = 0,
    groups: ArrayLike | None = None,
) -> ConsistencyReport:
    """Consistency table, within/cross-class KL values, baseline and KS test for one feature.

    ``groups``: the text of each row (excerpt documents), or None (whole texts). With it,
    pairs of documents of one text are left out of the within-class pairs and of the
    baseline's population, and counted (:class:`ConsistencyReport` ``n_within_same_text``,
    ``n_cross_same_text``). Raises ``ValueError`` when there are no finite within-class values
    (every class has one document, or one text) or fewer than ``n_pairs`` cross-class pairs.
    """
    X_arr = _check_matrix(X)
    label_array = _label_array(labels, X_arr.shape[0])
    values = within_class_kl(X_arr, label_array, groups)
    sizes = {c: idx.size for c, idx in class_indices(label_array).items()}
    within = np.concatenate(list(values.values())) if values else np.empty(0)
    baseline_mean, cross = cross_class_baseline(X_arr, label_array, n_pairs, seed, groups)
    ks_statistic, ks_pvalue = ks_within_vs_cross(within, cross)
    texts = None if groups is None else same_text_pairs(label_array, groups)
    text_counts = {}
    if texts is not None:
        counts = pair_counts(label_array, groups)
        labelled = ~pd.isna(label_array)
        text_counts = {
            "n_texts": int(np.unique(_group_codes(groups, X_arr.shape[0])[labelled]).size),
            "n_within_same_text": counts.within_same_text,
            "n_cross_same_text": counts.cross_same_text,
        }
    return ConsistencyReport(
        table=_table(values, sizes, texts),
        within=within,
        cross=cross,
        within_mean=_nan_mean(within),
        baseline_mean=baseline_mean,
        n_within_empty_support=int(np.isnan(within).sum()),
        n_cross_empty_support=int(np.isnan(cross).sum()),
        ks_statistic=ks_statistic,
        ks_pvalue=ks_pvalue,
        **text_counts,
    )


def consistency_run(
    X: ArrayLike,
    labels: ArrayLike,
    *,
    groups: ArrayLike | None = None,
    baseline_pairs: int = 1000,
    seed: int = 0,
    top_k: Sequence[int] = (),
) -> tuple[ConsistencyReport, int, dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]]:
    """What rule ``consistency`` computes for one (task, feature): ``(report, n_pairs, heatmaps)``.

    ``n_pairs = min(baseline_pairs, available_cross_pairs(labels, groups))`` (small corpora);
    ``report`` is :func:`consistency_report` (same-text pairs left out with ``groups``);
    ``heatmaps[k]`` is :func:`top_consistent_kl_matrix` for each ``min(k, ranked classes)`` of
    ``top_k``. Without ``groups`` this is :func:`punctstyle.analyses.paper.consistency_analysis`.
    Raises ``ValueError`` for fewer than 2 classes.
    """
    X_arr = _check_matrix(X)
    label_array = _label_array(labels, X_arr.shape[0])
    n_classes = len(class_indices(label_array))
    if n_classes < 2:
        raise ValueError(f"consistency needs at least 2 classes, got {n_classes}")
    n_pairs = min(baseline_pairs, available_cross_pairs(label_array, groups))
    report = consistency_report(X_arr, label_array, n_pairs=n_pairs, seed=seed, groups=groups)
    n_ranked = int(report.table["consistency"].notna().sum())
    heatmaps = {
        k: top_consistent_kl_matrix(X_arr, label_array, report.table, k)
        for k in sorted({min(k, n_ranked) for k in top_k if n_ranked})
    }
    return report, n_pairs, heatmaps
