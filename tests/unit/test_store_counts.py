"""benchmarks/store_counts.py: the counts and settings stored beside evidence folders (issue 35: the
whole numbers of the record traced), each derived from a stored table, the run or the config."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from punctstyle.settings import schema_defaults
from tests.conftest import load_benchmark

EVIDENCE = Path(__file__).resolve().parents[2] / "docs" / "evidence"


@pytest.fixture(scope="module")
def store():
    return load_benchmark("store_counts")


def values(frame: pd.DataFrame) -> dict[str, float]:
    return frame.set_index("quantity")["value"].to_dict()


def test_length_settings_are_the_curves_lengths_sizes_and_short_books(store):
    curve = pd.DataFrame({"length": ["50", "whole", "400", "50"], "feature_set": ["f1", "words100", "words20", "all"]})
    found = store.length_settings(curve, np.array([30, 60, 399, 400, 5000]))
    assert found[found["quantity"] == "length_marks"]["value"].tolist() == [50, 400]
    assert found[found["quantity"] == "word_vocabulary_k"]["value"].tolist() == [20, 100]
    got = values(found)
    assert (got["books_shorter_than_50"], got["books_shorter_than_400"]) == (1, 3)
    assert got["share_shorter_than_400"] == pytest.approx(0.6)


def test_protocol_counts_count_the_cells_beyond_their_sd(store):
    effect = pd.DataFrame({"task": ["genre"] * 3 + ["author"], "n_classes": [10, 10, 14, 10],
                           "effect": [-0.06, 0.01, 0.04, 0.0], "effect_sd": [0.05, 0.02, 0.03, 0.1]})  # fmt: skip
    got = values(store.protocol_counts(effect, {"recognition": {"mlp": {"max_epochs": 7, "patience": 3,
                                                                        "validation_fraction": 0.2}}}))  # fmt: skip
    assert (got["genre_10_cells"], got["genre_10_cells_effect_beyond_sd"], got["genre_10_cells_within_sd"]) == (2, 1, 1)
    assert (got["genre_10_cells_effect_at_least_0"], got["genre_all_cells_effect_beyond_sd"]) == (1, 2)
    assert got["genre_all_cells"] == 3
    assert (got["author_10_cells_effect_at_least_0"], got["max_epochs"], got["validation_fraction"]) == (1, 7, 0.2)


def test_mark_totals_sum_each_mark_over_the_books(store):
    books = pd.DataFrame({"book_id": [1, 2], "ours !": [3, 4], "theirs !": [3, 5], "same_marks": [True, True]})
    assert values(store.mark_totals(books)) == {"total ours !": 7, "total theirs !": 8}


def test_the_stored_counts_are_those_of_the_stored_tables(store):
    """Re-derived from the folders' own tables: protocol_rows/counts.csv and authors_code/counts.csv
    are what the script writes from protocol_effect.csv and books.csv."""
    effect = pd.read_csv(EVIDENCE / "protocol_rows" / "protocol_effect.csv")
    stored = pd.read_csv(EVIDENCE / "protocol_rows" / "counts.csv")
    derived = store.protocol_counts(effect, schema_defaults())
    assert values(stored) == pytest.approx(values(derived))
    books = pd.read_csv(EVIDENCE / "authors_code" / "books.csv")
    assert values(pd.read_csv(EVIDENCE / "authors_code" / "counts.csv")) == values(store.mark_totals(books))
