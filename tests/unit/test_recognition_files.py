"""Round trips of the recognition row files (punctstyle.analyses.recognition_files)."""

from __future__ import annotations

import pandas as pd

from punctstyle.analyses.recognition import RESULT_COLUMNS
from punctstyle.analyses.recognition_files import read_per_class, read_results, write_row_files


def _row(tmp_path, name, results=None, per_class=None, confusion=None):
    paths = [tmp_path / f"{name}_results.csv", tmp_path / f"{name}_per_class.csv", tmp_path / f"{name}.parquet"]
    write_row_files(*paths, results, per_class, confusion)
    return paths


def test_rows_round_trip_and_empty_rows_are_skipped(tmp_path):
    results = pd.DataFrame([["author", 2, 0, "kl", "f1", 8, 2, 0.5, 0.5, 0, 0]], columns=RESULT_COLUMNS)
    per_class = pd.DataFrame({"n_classes": [2], "seed": [0], "method": ["kl"], "feature_set": ["f1"],
                              "class": ["A"], "n_test": [1], "accuracy": [1.0]})
    confusion = pd.DataFrame({"true": ["A"], "predicted": ["A"], "count": [1]})
    full = _row(tmp_path, "full", results, per_class, confusion)
    empty = _row(tmp_path, "empty")
    got = read_results([full[0], empty[0]])
    assert list(got.columns) == RESULT_COLUMNS and got["accuracy"].tolist() == [0.5]
    assert read_per_class([empty[1], full[1]])["class"].tolist() == ["A"]
    assert list(read_results([empty[0]]).columns) == RESULT_COLUMNS and read_results([empty[0]]).empty
    assert pd.read_parquet(empty[2]).columns.tolist() == ["true", "predicted", "count"]
    assert pd.read_parquet(full[2])["count"].tolist() == [1]
