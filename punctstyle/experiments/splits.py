"""Closed-set samples and splits of the recognition experiments (section 2.4 of the paper).

Every experiment row (task, number of classes, seed) draws a uniform sample of ``n_classes``
classes and splits their documents 80/20, stratified by class, so that every class of the
testing set is also in the training set. The random generator of a row depends only on the
row itself (:func:`row_rng`), never on which other rows are configured.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


def row_rng(seed: int, n_classes: int, task: str = "") -> np.random.Generator:
    """The random generator of one experiment row, from (task, n_classes, seed).

    ``SeedSequence([seed, n_classes, crc32(task)])``: the task enters through a CRC-32 of its
    name, so that author and genre recognition never share a split.
    """
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")
    return np.random.default_rng(np.random.SeedSequence([seed, n_classes, zlib.crc32(task.encode())]))


def effective_class_size(size: int | str, n_available: int) -> int:
    """A requested number of classes capped by ``n_available``: ``min(size, n_available)``, ``"all"`` -> all."""
    if size == "all":
        return n_available
    if isinstance(size, (int, np.integer)) and not isinstance(size, bool) and size >= 1:
        return min(int(size), n_available)
    raise ValueError(f"bad class size {size!r}: expected a positive integer or 'all'")


def effective_class_sizes(class_sizes: Iterable[int | str], n_available: int) -> list[int]:
    """Requested numbers of classes capped by ``n_available`` (``"all"`` -> all), duplicates dropped."""
    sizes: list[int] = []
    for size in class_sizes:
        n = effective_class_size(size, n_available)
        if n not in sizes:
            sizes.append(n)
    return sizes


def sample_classes(labels: Sequence[Any], n_classes: int, rng: np.random.Generator) -> np.ndarray:
    """``n_classes`` distinct classes drawn uniformly without replacement, sorted.

    All classes (no random draw) when ``n_classes`` is at least the number of classes.
    """
    classes = np.unique(np.asarray(labels, dtype=object))
    if n_classes >= classes.size:
        return classes
    return np.sort(rng.choice(classes, size=n_classes, replace=False))


def _round_half_up(x: np.ndarray) -> np.ndarray:
    return np.floor(np.asarray(x, dtype=np.float64) + 0.5 + 1e-9).astype(np.int64)


def stratified_split(
    labels: Sequence[Any], test_fraction: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Closed-set split: (train indices, test indices), both sorted.

    A class with ``n`` documents puts ``min(round(test_fraction * n), n - 1)`` of them,
    drawn at random, in the test set (rounding half up), so every test class keeps at
    least one training document; a class with one document goes to training only.
    """
    if not 0.0 <= test_fraction < 1.0:
        raise ValueError(f"test_fraction must lie in [0, 1), got {test_fraction}")
    y = np.asarray(labels, dtype=object)
    classes, inverse, counts = np.unique(y, return_inverse=True, return_counts=True)
    n_test = np.minimum(_round_half_up(test_fraction * counts), counts - 1)
    # A random key per document; within each class the n_test smallest keys go to test.
    keys = rng.random(y.size)
    order = np.lexsort((keys, inverse))
    rank = np.empty(y.size, dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    rank[order] = np.arange(y.size) - np.repeat(starts, counts)
    is_test = rank < n_test[inverse]
    return np.flatnonzero(~is_test), np.flatnonzero(is_test)


def grouped_split(
    labels: Sequence[Any], groups: Sequence[Any], test_fraction: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Closed-set split of documents that come in groups (excerpts of one text): (train
    indices, test indices), both sorted; a group is never split.

    The groups are split by :func:`stratified_split` on their labels (a class with ``g``
    groups puts ``min(round(test_fraction * g), g - 1)`` of them in the test set), then each
    document follows its group. Every document of a group must have the group's label.
    """
    y = np.asarray(labels, dtype=object)
    g = np.asarray(groups, dtype=object)
    if y.shape != g.shape:
        raise ValueError(f"labels and groups differ in length: {y.size} != {g.size}")
    group_ids, first, inverse = np.unique(g, return_index=True, return_inverse=True)
    group_labels = y[first]
    if np.any(group_labels[inverse] != y):
        bad = group_ids[inverse[np.flatnonzero(group_labels[inverse] != y)[0]]]
        raise ValueError(f"group {bad!r} holds documents of more than one class")
    _, test_groups = stratified_split(group_labels, test_fraction, rng)
    is_test = np.isin(inverse, test_groups)
    return np.flatnonzero(~is_test), np.flatnonzero(is_test)


@dataclass(frozen=True)
class RowSplit:
    """The class sample and the split of one experiment row (indices into the corpus)."""

    classes: np.ndarray
    train_index: np.ndarray
    test_index: np.ndarray


def row_split(
    labels: Sequence[Any],
    n_classes: int,
    seed: int,
    task: str,
    test_fraction: float,
    groups: Sequence[Any] | None = None,
) -> RowSplit:
    """Sample ``n_classes`` classes and split their documents (closed set), for one row.

    With ``groups`` (one per document: the text an excerpt comes from), whole groups are
    split (:func:`grouped_split`); without, documents are (:func:`stratified_split`)."""
    y = np.asarray(labels, dtype=object)
    rng = row_rng(seed, n_classes, task)
    classes = sample_classes(y, n_classes, rng)
    members = np.flatnonzero(np.isin(y, classes))
    if groups is None:
        train, test = stratified_split(y[members], test_fraction, rng)
    else:
        train, test = grouped_split(y[members], np.asarray(groups, dtype=object)[members], test_fraction, rng)
    return RowSplit(classes, members[train], members[test])
