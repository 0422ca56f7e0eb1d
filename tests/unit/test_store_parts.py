"""The paired comparisons of benchmarks/store_parts.py and bench_maps.py's words+punctuation map
(docs/results.md's parts, f3-importance and maps sections quote them)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from tests.conftest import load_benchmark as load


@pytest.fixture(scope="module")
def parts():
    return load("store_parts")


def test_paired_row_counts_the_parts_where_only_one_holds(parts):
    a = np.array([1, 1, 1, 0, 0, 1], bool)
    b = np.array([1, 0, 0, 0, 1, 1], bool)
    books = np.array([7, 7, 8, 8, 9, 9])
    row = parts.paired_row(a, b, books, 200, np.random.default_rng(0))
    assert (row["share_a"], row["share_b"]) == (4 / 6, 3 / 6)
    assert row["difference"] == pytest.approx(1 / 6)
    assert (row["only_a"], row["only_b"], row["n_books"], row["n_parts_total"]) == (2, 1, 3, 6)
    assert row["ci_low"] <= row["difference"] <= row["ci_high"]


def test_bootstrap_keeps_a_books_parts_together(parts):
    # book 1: differences +1 +1 (2 parts), book 2: -1 (1 part); every resample's ratio is a mix
    # of whole books: sum d / sum n over drawn books, never a single part of book 1
    diff = np.array([1, 1, -1])
    books = np.array([1, 1, 2])
    low, high = parts.bootstrap_interval(diff, books, 2000, np.random.default_rng(1))
    assert (low, high) == (-1.0, 1.0)
    possible = {(2 * i - j) / (2 * i + j) for i in range(3) for j in range(3) if i + j == 2}
    assert {low, high} <= possible


def test_parts_comparisons_pair_features_on_the_same_parts(parts):
    rows = []
    for book, part, f3_book, f1_book in [(1, 0, True, False), (1, 1, True, True), (2, 0, False, False), (2, 1, True, False)]:
        for feature, closer in (("f3", f3_book), ("f1", f1_book), ("f5", False)):
            rows.append({"book_id": book, "n_parts": 2, "part": part, "feature": feature, "kl_rest": 0.1,
                         "kl_own_author": 0.2 if closer else 0.05, "closer_to_own_book": closer,
                         "closer_to_own_author": False})  # fmt: skip
    table = parts.parts_comparisons(pd.DataFrame(rows), 100, 0)
    f3_f1 = table[table["comparison"] == "closer_to_own_book: f3 - f1"].iloc[0]
    assert (f3_f1["share_a"], f3_f1["share_b"], f3_f1["difference"]) == (0.75, 0.25, 0.5)
    assert (f3_f1["only_a"], f3_f1["only_b"]) == (2, 0)
    kl = table[(table["comparison"] == "kl_rest_below_own_author") & (table["feature"] == "f3")].iloc[0]
    assert kl["share_a"] == 0.75
    book = table[(table["comparison"] == "closer_to_own_book - closer_to_own_author") & (table["feature"] == "f1")]
    assert book.iloc[0]["difference"] == 0.25


def test_importance_differences_are_paired_by_seed(parts, tmp_path):
    folder = tmp_path / "f3_importance"
    folder.mkdir()
    accuracies = {0: {5: 0.5, 100: 0.8}, 1: {5: 0.7, 100: 0.6}}
    for seed, by_k in accuracies.items():
        top_k = [{"n_classes": 10, "method": "mlp", "k": k, "seed": seed, "accuracy": a} for k, a in by_k.items()]
        (folder / f"10_classes_seed{seed}.json").write_text(json.dumps({"top_k": top_k}))
    table = parts.importance_paired(folder).set_index("k")
    assert table.loc[5, "mean_difference"] == pytest.approx((-0.3 + 0.1) / 2)
    assert table.loc[5, "sd_difference"] == pytest.approx(np.std([-0.3, 0.1], ddof=1))
    assert (table.loc[5, "seeds_lower"], table.loc[100, "mean_difference"]) == (1, 0.0)


def test_words_and_punctuation_nearest_documents_paired_with_words():
    maps = load("bench_maps")
    authors = pd.Series(["a", "a", "b", "b"])
    # two documents of each author, each next to its pair: every nearest document the same author
    X = np.array([[0.0, 1.0], [0.1, 1.1], [5.0, 0.0], [5.1, 0.2]])
    hit = maps.same_author_nearest(X, authors)
    assert hit.tolist() == [True, True, True, True]
    other = np.array([True, False, False, True])
    table = maps.paired_nearest({"words": hit, "words+f3": other}).set_index("family")
    assert table.loc["words+f3", "difference"] == -0.5
    assert (table.loc["words+f3", "only_family"], table.loc["words+f3", "only_reference"]) == (0, 2)
