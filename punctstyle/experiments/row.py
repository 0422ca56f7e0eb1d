"""One experiment row of Tables 2-4 (a task, a class count, a seed): the documents' labels, ids
and text groups, and the row's class sample and split (:func:`punctstyle.experiments.splits.row_split`).

The groups (the text each document comes from, :func:`punctstyle.corpus.tables.text_groups`) are taken
from the corpus table when the row is built, so that every split of an excerpt corpus keeps the
excerpts of one text on one side; with whole texts there are none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.corpus.tables import text_groups
from punctstyle.experiments.splits import (
    GroupPairSplit,
    RowSplit,
    group_pair_split,
    grouped_split,
    row_split,
    stratified_split,
)


@dataclass(frozen=True)
class Row:
    """The documents of one row: ``labels`` (one per document), ``book_ids`` (same order) and
    ``groups`` (the text of each document; None: documents are whole texts)."""

    task: str
    n_classes: int
    seed: int
    labels: np.ndarray
    book_ids: np.ndarray | None = None
    groups: np.ndarray | None = None
    _splits: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def from_table(
        cls,
        table: pd.DataFrame,
        labels: Sequence[Any],
        *,
        task: str,
        n_classes: int,
        seed: int,
        book_ids: Sequence[Any] | None = None,
    ) -> Row:
        """The row of ``labels`` (one per document of ``book_ids``, or per row of ``table``), its
        groups read from ``table`` (:func:`punctstyle.corpus.tables.text_groups`)."""
        ids = None if book_ids is None else np.asarray(book_ids)
        return cls(task, int(n_classes), int(seed), np.asarray(labels, dtype=object), ids, text_groups(table, ids))

    @property
    def n_available(self) -> int:
        """The number of classes in the corpus (before the sample)."""
        return int(np.unique(self.labels).size)

    def split(self, test_fraction: float) -> RowSplit:
        """The row's class sample and closed-set split (:func:`punctstyle.experiments.splits.row_split`),
        whole groups on one side; the same for every classifier and feature set of the row."""
        if test_fraction not in self._splits:
            self._splits[test_fraction] = row_split(
                self.labels, self.n_classes, self.seed, self.task, test_fraction, groups=self.groups
            )
        return self._splits[test_fraction]


def documents_split(
    labels: Sequence[Any], groups: Sequence[Any] | None, test_fraction: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """A closed-set split of given documents (no class sample): (train indices, test indices).

    With ``groups`` (each document's text, when documents are excerpts) whole texts are split
    (:func:`punctstyle.experiments.splits.grouped_split`); without, documents are
    (:func:`punctstyle.experiments.splits.stratified_split`). Used for the inner hold-out of the f3 importance
    and for the attribution bundle's length curves, whose documents are not a sampled row."""
    y = np.asarray(labels, dtype=object)
    if groups is None:
        return stratified_split(y, test_fraction, rng)
    return grouped_split(y, groups, test_fraction, rng)


def group_pair_row(
    labels: Sequence[Any],
    groups: Sequence[Any],
    train_group: Any,
    test_group: Any,
    seed: int,
    *,
    min_docs: int = 2,
    test_fraction: float = 0.5,
) -> GroupPairSplit:
    """The group-split row kind (issue 25): train on ``train_group``, test on ``test_group``,
    against the same authors within ``test_group``
    (:func:`punctstyle.experiments.splits.group_pair_split`: no book of the test group in the
    cross training set, no test book in either training set)."""
    return group_pair_split(labels, groups, train_group, test_group, seed, min_docs=min_docs, test_fraction=test_fraction)
