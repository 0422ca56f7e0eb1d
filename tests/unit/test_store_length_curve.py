"""benchmarks/store_length_curve.py: the derived numbers docs/results.md quotes from the length
curve (share of the whole-book accuracy, times chance, differences paired by seed)."""

from __future__ import annotations


import numpy as np
import pandas as pd
import pytest

from tests.conftest import load_benchmark



@pytest.fixture(scope="module")
def store():
    return load_benchmark("store_length_curve")


def rows() -> pd.DataFrame:
    """Two methods, two lengths, three seeds; b is a + 0.1, 0.2, 0.3 at length 50."""
    a50, a_whole = [0.2, 0.3, 0.4], [0.6, 0.8, 1.0]
    b50, b_whole = [0.3, 0.5, 0.7], [0.5, 0.5, 0.5]
    frame = []
    for method, values in (("a", (a50, a_whole)), ("b", (b50, b_whole))):
        for length, accuracies in zip(("50", "whole"), values, strict=True):
            for seed, accuracy in enumerate(accuracies):
                frame.append({"n_classes": 10, "seed": seed, "method": method, "feature_set": "x", "length": length,
                              "accuracy": accuracy, "baseline": 0.1, "n_short_test": seed})  # fmt: skip
    return pd.DataFrame(frame)


def test_summary_divides_by_the_same_methods_whole_book_mean_and_by_chance(store):
    medians = pd.DataFrame({"n_classes": [10, 10], "length": ["50", "whole"], "median_words": [270.0, 55000.0]})
    summary = store.summarise(rows(), medians).set_index(["method", "length"])
    assert summary.loc[("a", "50"), "accuracy_mean"] == pytest.approx(0.3)
    assert summary.loc[("a", "50"), "accuracy_sd"] == pytest.approx(0.1)
    assert summary.loc[("a", "50"), "share_of_whole"] == pytest.approx(0.3 / 0.8)
    assert summary.loc[("b", "50"), "share_of_whole"] == pytest.approx(0.5 / 0.5)
    assert summary.loc[("b", "whole"), "times_chance"] == pytest.approx(5.0)
    assert summary.loc[("a", "50"), "n_short_test"] == pytest.approx(1.0)
    assert summary.loc[("a", "50"), "median_words"] == 270.0


def test_paired_differences_are_taken_seed_by_seed(store):
    table = store.paired(rows(), [(("b", "x"), ("a", "x")), (("c", "x"), ("a", "x"))])
    assert set(table["a"]) == {"b/x"}  # a pair with a method not in the rows is left out
    at50 = table[table["length"] == "50"].iloc[0]
    assert at50["difference_mean"] == pytest.approx(0.2)
    assert at50["difference_sd"] == pytest.approx(0.1)
    assert (at50["difference_least"], at50["difference_most"]) == pytest.approx((0.1, 0.3))
    assert at50["seeds_a_above"] == 3
    assert at50["ratio_of_means"] == pytest.approx(0.5 / 0.3)
    whole = table[table["length"] == "whole"].iloc[0]
    np.testing.assert_allclose(whole["difference_mean"], -0.3)
    assert whole["seeds_a_above"] == 0  # 0.5 - 0.6, 0.5 - 0.8, 0.5 - 1.0
