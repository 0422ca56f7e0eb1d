"""The pure helpers of the measurement scripts in benchmarks/ that docs/results.md relies on."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def curve():
    return load("training_size_curve")


def test_nested_subsample_keeps_ceil_fraction_per_class_and_nests(curve):
    y = np.array(["a"] * 8 + ["b"] * 3 + ["c"] * 1, dtype=object)
    train = np.arange(12)
    kept = {f: curve.nested_subsample(train, y, f, seed=3) for f in (0.25, 0.5, 1.0)}
    # ceil(0.25 * 8) = 2, ceil(0.25 * 3) = 1, max(1, ceil(0.25 * 1)) = 1
    assert [int((y[kept[0.25]] == c).sum()) for c in "abc"] == [2, 1, 1]
    assert [int((y[kept[0.5]] == c).sum()) for c in "abc"] == [4, 2, 1]
    np.testing.assert_array_equal(kept[1.0], train)
    assert set(kept[0.25]) <= set(kept[0.5]) <= set(kept[1.0])
    np.testing.assert_array_equal(kept[0.5], curve.nested_subsample(train, y, 0.5, seed=3))
    assert not np.array_equal(kept[0.5], curve.nested_subsample(train, y, 0.5, seed=4))


def test_nested_subsample_only_draws_from_the_training_indices(curve):
    y = np.array(["a", "b"] * 6, dtype=object)
    train = np.array([0, 1, 2, 3, 4, 5, 6, 7])
    kept = curve.nested_subsample(train, y, 0.5, seed=0)
    assert set(kept) <= set(train)
    assert kept.size == 4


def test_slopes_recover_the_gain_per_doubling(curve):
    frame = pd.DataFrame(
        dict(
            n_classes=10,
            method="kl",
            feature_set="f3",
            train_docs_per_class=[2.0, 4.0, 8.0, 16.0],
            accuracy=[0.30, 0.35, 0.40, 0.45],
        )
    )
    row = curve.slopes(frame).iloc[0]
    assert row["gain_per_doubling"] == pytest.approx(0.05)
    assert row["intercept"] == pytest.approx(0.25)


def test_recognition_rows_plans_the_workflow_rows():
    rows = load("recognition_rows")
    table = pd.DataFrame({"author": ["a", "b", "c"] * 4, "genre": [None] * 12})
    planned = rows.planned_rows({"f1": table}, ["author", "genre"], ["2", "10", "all"], [0, 1])
    # 10 >= 3 authors duplicates the "all" row; genre has no labels
    assert planned == [("author", "2", 0), ("author", "2", 1), ("author", "all", 0), ("author", "all", 1)]
