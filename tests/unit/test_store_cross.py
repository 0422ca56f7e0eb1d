"""benchmarks/store_cross.py: the summaries and paired comparisons of the cross analyses that
docs/results.md quotes (issue 35 item 1)."""

from __future__ import annotations


import numpy as np
import pandas as pd
import pytest

from tests.conftest import load_benchmark


@pytest.fixture(scope="module")
def store():
    return load_benchmark("store_cross")


def records() -> pd.DataFrame:
    """Two runs (seeds 0, 1 of one direction), two methods, within and across."""
    rows = []
    accuracy = {("a", 0): (0.8, 0.5), ("a", 1): (0.6, 0.6), ("b", 0): (0.7, 0.6), ("b", 1): (0.9, 0.5)}
    for (method, seed), (within, cross) in accuracy.items():
        for condition, value in (("within", within), ("cross", cross)):
            rows.append({"grouping": "form", "train_group": "x", "test_group": "y", "seed": seed, "method": method,
                         "input": method, "condition": condition, "accuracy": value,
                         "chosen_k": 10 if method == "a" else 0})  # fmt: skip
    return pd.DataFrame(rows)


def test_method_differences_are_paired_on_the_same_run(store):
    table = store.method_differences(records()).set_index(["method", "against", "measure"])
    # drops: a = (0.3, 0.0), b = (0.1, 0.4); a - b = (0.2, -0.4)
    row = table.loc[("a", "b", "drop")]
    assert row["diff_mean"] == pytest.approx(-0.1)
    assert row["diff_sd"] == pytest.approx(np.std([0.2, -0.4], ddof=1))
    assert (row["runs_higher"], row["runs_lower"], row["n_runs"]) == (1, 1, 2)
    assert table.loc[("b", "a", "within"), "diff_mean"] == pytest.approx(0.1)
    assert table.loc[("a", "b", "cross"), "diff_mean"] == pytest.approx(0.0)


def test_chosen_k_counts_the_records_that_choose_one(store):
    assert store.chosen_k(records()).to_dict("records") == [{"input": "a", "chosen_k": 10, "runs": 4}]


def test_seed_summary_and_differences(store):
    frame = pd.DataFrame({"seed": [0, 1, 0, 1], "method": ["kl", "kl", "delta", "delta"],
                          "accuracy": [0.5, 0.7, 0.8, 0.8], "baseline": 0.1})  # fmt: skip
    summary = store.seed_summary(frame, ["method"], ["baseline"]).set_index("method")
    assert summary.loc["kl", "accuracy_mean"] == pytest.approx(0.6)
    assert summary.loc["kl", "accuracy_sd"] == pytest.approx(np.std([0.5, 0.7], ddof=1))
    assert summary.loc["delta", "seeds"] == 2
    (row,) = store.seed_differences(frame, "method", [("delta", "kl")], label="x")
    assert row["diff_mean"] == pytest.approx(0.2)
    assert row["diff_sd"] == pytest.approx(np.std([0.3, 0.1], ddof=1))
    assert (row["label"], row["runs_higher"], row["n_runs"]) == ("x", 2, 2)


def test_weibull_books_and_decreasing_hazard(store):
    fits = pd.DataFrame({"author": ["u", "u", "v"], "zero_gaps": [1, 3, 0], "n_gaps": [3, 1, 4],
                         "p": [0.1, 0.2, 0.3], "beta": [0.9, 1.2, 0.8], "ks": [0.01, 0.06, 0.02],
                         "sentence_p": [0.1, 0.1, 0.1], "sentence_beta": [1.1, 1.1, 1.1],
                         "sentence_ks": [0.01, 0.01, 0.01]})  # fmt: skip
    books = store.weibull_books(fits).set_index("quantity")
    assert books.loc["zero_share", "mean"] == pytest.approx((0.25 + 0.75 + 0) / 3)
    assert books.loc["beta", "books_below_1"] == 2
    assert books.loc["beta", "least"] == pytest.approx(0.8)
    assert books.loc["ks", "books_above_0.05"] == 1
    assert books.loc["ks", "median"] == pytest.approx(0.02)
    hazard = store.decreasing_hazard(fits)
    assert hazard.to_dict("records") == [{"author": "u", "books_beta_below_1": 1, "books": 2},
                                         {"author": "v", "books_beta_below_1": 1, "books": 1}]  # fmt: skip
