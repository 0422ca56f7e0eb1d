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


# ------------------------------------------------ group splits (issue 25: across genres and forms)


@dataclass(frozen=True)
class GroupPairSplit:
    """One (train group -> test group) comparison of the same authors (indices into the corpus).

    ``classes``: the authors with at least ``min_docs`` books in each of the two groups;
    ``test_index``: their test-group books held out; ``within_train_index``: their other
    test-group books (the within-group training set); ``cross_train_index``: as many of their
    train-group books per author (the cross-group training set). Both training sets hold the
    same number of books of each author, so the two accuracies differ by the group only."""

    classes: np.ndarray
    cross_train_index: np.ndarray
    within_train_index: np.ndarray
    test_index: np.ndarray


def _take_per_class(labels: np.ndarray, n_take: np.ndarray, classes: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Positions of ``n_take[j]`` documents of each class ``classes[j]`` drawn at random (sorted)."""
    inverse = np.searchsorted(classes, labels)
    keys = rng.random(labels.size)
    order = np.lexsort((keys, inverse))
    counts = np.bincount(inverse, minlength=classes.size)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    rank = np.empty(labels.size, dtype=np.int64)
    rank[order] = np.arange(labels.size) - np.repeat(starts, counts)
    return np.flatnonzero(rank < n_take[inverse])


def group_pair_split(
    labels: Sequence[Any],
    groups: Sequence[Any],
    train_group: Any,
    test_group: Any,
    seed: int,
    *,
    min_docs: int = 2,
    test_fraction: float = 0.5,
    task: str = "cross_group",
) -> GroupPairSplit:
    """Train on ``train_group``, test on ``test_group``, against the same authors within
    ``test_group`` (:class:`GroupPairSplit`); no book of ``test_group`` is ever in the cross
    training set, and none of the test books in either training set.

    The authors are those with at least ``min_docs`` (>= 2) books in both groups. Their
    test-group books are split by :func:`stratified_split` (``test_fraction``, at least one
    book of each author on each side); then each author contributes
    ``n_a = min(|train-group books of a|, |within-group training books of a|)`` books, drawn at
    random, to both training sets. The generator is :func:`row_rng` of
    ``(seed, 0, "<task>:<train_group>-><test_group>")``."""
    if min_docs < 2:
        raise ValueError(f"min_docs must be at least 2 (one book to train, one to test), got {min_docs}")
    if train_group == test_group:
        raise ValueError(f"the train and test groups must differ, got {train_group!r} twice")
    y = np.asarray(labels, dtype=object)
    g = np.asarray(groups, dtype=object)
    if y.shape != g.shape:
        raise ValueError(f"labels and groups differ in length: {y.size} != {g.size}")
    rng = row_rng(seed, 0, f"{task}:{train_group}->{test_group}")
    in_train, in_test = g == train_group, g == test_group
    classes_a, counts_a = np.unique(y[in_train], return_counts=True)
    classes_b, counts_b = np.unique(y[in_test], return_counts=True)
    enough_a = set(classes_a[counts_a >= min_docs].tolist())
    classes = np.array(sorted(c for c in classes_b[counts_b >= min_docs].tolist() if c in enough_a), dtype=object)
    empty = np.zeros(0, dtype=np.int64)
    if classes.size == 0:
        return GroupPairSplit(classes, empty, empty, empty)
    test_members = np.flatnonzero(in_test & np.isin(y, classes))
    pool, test = stratified_split(y[test_members], test_fraction, rng)
    pool, test = test_members[pool], test_members[test]
    train_members = np.flatnonzero(in_train & np.isin(y, classes))
    n_pool = np.bincount(np.searchsorted(classes, y[pool]), minlength=classes.size)
    n_other = np.bincount(np.searchsorted(classes, y[train_members]), minlength=classes.size)
    n_take = np.minimum(n_pool, n_other)
    within = pool[_take_per_class(y[pool], n_take, classes, rng)]
    cross = train_members[_take_per_class(y[train_members], n_take, classes, rng)]
    return GroupPairSplit(classes, np.sort(cross), np.sort(within), np.sort(test))
