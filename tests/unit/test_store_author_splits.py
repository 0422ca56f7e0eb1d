"""benchmarks/store_author_splits.py: the counts of a split of excerpts, and the check against
the stored results."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from punctstyle.experiments.driver import Documents, Split
from tests.conftest import load_benchmark as load


@pytest.fixture(scope="module")
def splits():
    return load("store_author_splits")


def _documents() -> Documents:
    # authors a (novels 1, 2, 3: 4, 2, 2 excerpts) and b (novels 4, 5, 6: 1 excerpt each)
    labels = np.array(["a"] * 8 + ["b"] * 3, dtype=object)
    groups = np.array([1, 1, 1, 1, 2, 2, 3, 3, 4, 5, 6], dtype=object)
    return Documents(labels, groups, np.arange(11))


def test_split_counts_of_a_hand_split(splits):
    documents = _documents()
    # novel 3 of a and novel 5 of b in test, one excerpt of novel 1 wrongly in test too
    split = Split("author", 2, 7, np.array(["a", "b"], dtype=object), np.array([0, 1, 2, 4, 5, 8, 10]),
                  np.array([3, 6, 7, 9]))
    counts = splits.split_counts(documents, split)
    assert counts["n_train"] == 7 and counts["n_test"] == 4
    assert counts["train_novels"] == 4 and counts["test_novels"] == 3
    assert counts["novels_on_both_sides"] == 1  # novel 1
    assert counts["least_test_novels_per_author"] == 1 and counts["most_test_novels_per_author"] == 2
    assert counts["chance"] == 0.5
    # the largest training author is a (5 of 7): 3 of the 4 test excerpts are a's
    assert counts["largest_training_author_share"] == 0.75


def test_checked_splits_keep_novels_whole_and_match_the_stored_sizes(splits):
    documents = _documents()
    frame = splits.checked_splits(documents, [0, 1], 0.34, _stored(splits, documents, [0, 1]))
    assert frame["novels_on_both_sides"].tolist() == [0, 0]
    assert (frame["n_train"] + frame["n_test"]).tolist() == [11, 11]
    stored = _stored(splits, documents, [0, 1])
    stored.loc[0, "n_test"] += 1
    with pytest.raises(SystemExit, match="differ"):
        splits.checked_splits(documents, [0, 1], 0.34, stored)


def _stored(splits, documents: Documents, seeds: list[int]) -> pd.DataFrame:
    rows = []
    for seed in seeds:
        split = splits.row_split(documents, task="author", n_classes=2, seed=seed, test_fraction=0.34)
        rows.append({"task": "author", "n_classes": 2, "seed": seed, "n_train": split.train_index.size,
                     "n_test": split.test_index.size})
    return pd.DataFrame(rows)
