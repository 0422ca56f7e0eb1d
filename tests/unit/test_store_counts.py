"""The counts benchmarks/store_counts.py adds to stored evidence (docs/languages.md and
docs/performance.md quote them)."""

from __future__ import annotations

import pandas as pd
import pytest

from tests.conftest import load_benchmark as load


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
