"""The counts benchmarks/store_counts.py adds to stored evidence (issue 35: the whole numbers of the
record traced), each derived from a stored table, the run, the config or the package."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from punctstyle.settings import schema_defaults
from tests.conftest import load_benchmark as load

EVIDENCE = Path(__file__).resolve().parents[2] / "docs" / "evidence"


@pytest.fixture(scope="module")
def counts():
    return load("store_counts")


def as_dict(frame: pd.DataFrame) -> dict[str, float]:
    return dict(zip(frame["quantity"], frame["value"], strict=True))


def test_class_counts_count_excerpts_and_their_novels(counts, tmp_path):
    (tmp_path / "corpus").mkdir()
    pd.DataFrame({"book_id": [1, 2, 3, 4, 5], "source_id": [10, 10, 11, 12, 12],
                  "author": ["a", "a", "a", "b", "b"], "time_slot": ["T1", "T1", "T2", "T2", "T2"],
                  "gender": ["F", "F", "F", "M", None]}).to_parquet(tmp_path / "corpus" / "f1.parquet")
    got = as_dict(counts.class_counts(tmp_path))
    assert (got["documents"], got["texts"], got["authors"]) == (5, 3, 2)
    assert (got["documents time_slot=T1"], got["texts time_slot=T1"]) == (2, 1)
    assert (got["documents time_slot=T2"], got["texts time_slot=T2"]) == (3, 2)
    assert (got["documents gender=F"], got["texts gender=F"], got["documents gender=M"]) == (3, 2, 1)


def test_class_counts_of_whole_texts_count_book_ids(counts, tmp_path):
    (tmp_path / "corpus").mkdir()
    pd.DataFrame({"book_id": [1, 2, 3], "author": ["a", "b", "b"], "time_slot": ["T1", "T4", "T4"],
                  "gender": ["M", "F", "F"]}).to_parquet(tmp_path / "corpus" / "f1.parquet")
    got = as_dict(counts.class_counts(tmp_path))
    assert (got["texts"], got["texts time_slot=T4"], got["texts gender=F"]) == (3, 2, 2)


def test_metadata_counts_read_the_table_and_the_files(counts, tmp_path):
    collection = tmp_path / "ELTeC-xxx"
    (collection / "level1").mkdir(parents=True)
    (collection / "level1" / "XXX1.xml").write_text("<TEI/>")
    pd.DataFrame({"reference-year": ["1850", "1901", "NA"], "time-slot": ["T1", "T4", "T4"],
                  "author-gender": ["F", "M", "M"]}).to_csv(collection / "ELTeC-xxx_metadata.tsv", sep="\t", index=False)
    got = as_dict(counts.metadata_counts(collection))
    assert (got["ELTeC-xxx rows"], got["ELTeC-xxx files"]) == (3, 1)
    assert (got["ELTeC-xxx first reference year"], got["ELTeC-xxx last reference year"]) == (1850, 1901)
    assert (got["ELTeC-xxx rows time-slot=T4"], got["ELTeC-xxx rows author-gender=F"]) == (2, 1)


def test_fused_adam_counts(counts):
    networks = pd.DataFrame({"n_classes": [10, 10, 50], "seed": [0, 1, 0], "feature_set": ["f1", "f3", "f1"],
                             "accuracy_difference": [0.0, 0.0, 0.01]})
    got = as_dict(counts.fused_adam_counts(networks))
    assert (got["pairs"], got["feature sets"], got["seeds"], got["pairs with another accuracy"]) == (3, 2, 2, 1)
    assert (got["pairs at 10 classes"], got["pairs at 50 classes"]) == (2, 1)


def test_command_options_keep_each_number_of_each_option(counts):
    run = {"command": "python b.py RESULTS --sizes 10 50 --task genre --rate 0.5 --seed 0 --evidence OUT"}
    got = counts.command_options(run)
    assert list(zip(got["quantity"], got["value"], strict=True)) == [
        ("--sizes", 10), ("--sizes", 50), ("--rate", 0.5), ("--seed", 0)]
    both = counts.command_options({"commands": [{"command": "x --n 3"}, {"command": "y --n 4"}]})
    assert both["value"].tolist() == [3, 4]


def test_length_settings_are_the_curves_lengths_sizes_and_short_books(counts):
    curve = pd.DataFrame({"length": ["50", "whole", "400", "50"], "feature_set": ["f1", "words100", "words20", "all"]})
    found = counts.length_settings(curve, np.array([30, 60, 399, 400, 5000]))
    assert found[found["quantity"] == "length_marks"]["value"].tolist() == [50, 400]
    assert found[found["quantity"] == "word_vocabulary_k"]["value"].tolist() == [20, 100]
    got = as_dict(found)
    assert (got["books_shorter_than_50"], got["books_shorter_than_400"]) == (1, 3)
    assert got["share_shorter_than_400"] == pytest.approx(0.6)


def test_protocol_counts_count_the_cells_beyond_their_sd(counts):
    effect = pd.DataFrame({"task": ["genre"] * 3 + ["author"], "n_classes": [10, 10, 14, 10],
                           "effect": [-0.06, 0.01, 0.04, 0.0], "effect_sd": [0.05, 0.02, 0.03, 0.1]})  # fmt: skip
    got = as_dict(counts.protocol_counts(effect, {"recognition": {"mlp": {"max_epochs": 7, "patience": 3,
                                                                        "validation_fraction": 0.2}}}))  # fmt: skip
    assert (got["genre_10_cells"], got["genre_10_cells_effect_beyond_sd"], got["genre_10_cells_within_sd"]) == (2, 1, 1)
    assert (got["genre_10_cells_effect_at_least_0"], got["genre_all_cells_effect_beyond_sd"]) == (1, 2)
    assert got["genre_all_cells"] == 3
    assert (got["author_10_cells_effect_at_least_0"], got["max_epochs"], got["validation_fraction"]) == (1, 7, 0.2)


def test_mark_totals_sum_each_mark_over_the_books(counts):
    books = pd.DataFrame({"book_id": [1, 2], "ours !": [3, 4], "theirs !": [3, 5], "same_marks": [True, True]})
    assert as_dict(counts.mark_totals(books)) == {"total ours !": 7, "total theirs !": 8}


def test_the_stored_counts_are_those_of_the_stored_tables(counts):
    """Re-derived from the folders' own tables: protocol_rows/counts.csv and authors_code/counts.csv
    are what the script writes from protocol_effect.csv and books.csv."""
    effect = pd.read_csv(EVIDENCE / "protocol_rows" / "protocol_effect.csv")
    stored = pd.read_csv(EVIDENCE / "protocol_rows" / "counts.csv")
    derived = counts.protocol_counts(effect, schema_defaults())
    assert as_dict(stored) == pytest.approx(as_dict(derived))
    books = pd.read_csv(EVIDENCE / "authors_code" / "books.csv")
    assert as_dict(pd.read_csv(EVIDENCE / "authors_code" / "counts.csv")) == as_dict(counts.mark_totals(books))
