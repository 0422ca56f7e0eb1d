"""The experiment driver (punctstyle/experiments/driver.py): worked examples on six documents."""

from __future__ import annotations

import numpy as np
import pytest

from punctstyle.experiments.driver import (
    KEY_FIELDS,
    Documents,
    Estimator,
    FitCache,
    View,
    grid_splits,
    matrix_views,
    records_frame,
    run_experiments,
    seeded_splits,
)
from punctstyle.experiments.fit_store import FitKey
from punctstyle.experiments.row import Row, documents_split
from punctstyle.experiments.runner import RECORD_FIELDS

LABELS = np.array(list("aabbcc"), dtype=object)


class NearestMean:
    """Toy classifier: the class whose training mean of the one column is nearest (ties: first class)."""

    def __init__(self, seed: int, view: str) -> None:
        self.seed, self.view = seed, view

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        x = np.asarray(X, dtype=float)[:, 0]
        self.means_ = np.array([x[y == c].mean() for c in self.classes_])
        return self

    def predict(self, X):
        x = np.asarray(X, dtype=float)[:, 0]
        return self.classes_[np.argmin(np.abs(x[:, None] - self.means_[None, :]), axis=1)]

    def diagnostics(self):
        return {"epochs": 7}


def test_groups_are_a_required_argument():
    with pytest.raises(TypeError):
        Documents(LABELS)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="5 groups for 6 labels"):
        Documents(LABELS, np.arange(5))
    with pytest.raises(ValueError, match="null"):
        Documents(np.array(["a", None], dtype=object), None)


def test_grid_splits_are_the_rows_splits_in_grid_order():
    documents = Documents(LABELS, None)
    splits = list(grid_splits(documents, task="author", class_sizes=[2, 3, "all"], seeds=[0, 1], test_fraction=0.5))
    # "all" caps to 3, a duplicate of 3: dropped
    assert [(s.n_classes, s.seed) for s in splits] == [(2, 0), (2, 1), (3, 0), (3, 1)]
    for s in splits:
        expected = Row("author", s.n_classes, s.seed, LABELS).split(0.5)
        assert np.array_equal(s.train_index, expected.train_index)
        assert np.array_equal(s.test_index, expected.test_index)
        assert list(s.classes) == list(expected.classes)
    # the worked example: 3 classes, seed 0, one document of each class in each set
    assert splits[2].train_index.tolist() == [1, 3, 5] and splits[2].test_index.tolist() == [0, 2, 4]


def test_a_texts_excerpts_stay_on_one_side():
    labels = np.array(list("aaabbb"), dtype=object)
    groups = np.array([0, 0, 1, 2, 3, 4])  # documents 0 and 1: two excerpts of text 0
    for s in grid_splits(Documents(labels, groups), task="author", class_sizes=[2], seeds=range(8), test_fraction=0.5):
        assert (0 in s.train_index) == (1 in s.train_index)


def test_whole_texts_split_as_one_group_per_document():
    one_each = Documents(LABELS, np.arange(6))
    whole = Documents(LABELS, None)
    for a, b in zip(grid_splits(whole, task="t", class_sizes=[3], seeds=range(5), test_fraction=0.5),
                    grid_splits(one_each, task="t", class_sizes=[3], seeds=range(5), test_fraction=0.5)):  # fmt: skip
        assert a.train_index.tolist() == b.train_index.tolist() and a.test_index.tolist() == b.test_index.tolist()


def test_seeded_splits_split_every_document():
    (split,) = seeded_splits(Documents(LABELS, None), task="t", seeds=[0], test_fraction=0.5)
    assert split.n_classes == 3 and list(split.classes) == ["a", "b", "c"]
    assert sorted([*split.train_index, *split.test_index]) == list(range(6))
    assert np.unique(LABELS[split.test_index]).size == 3  # one test document per class


def test_seeded_splits_take_the_analysis_generator():
    """``rng``: an analysis that draws its splits with its own generator keeps its splits (the
    across-languages accuracy: ``numpy.random.default_rng(seed)``, groups on one side)."""
    labels = np.repeat(np.array(["a", "b"], dtype=object), 8)
    groups = np.repeat(np.arange(8), 2)
    documents = Documents(labels, groups)
    for seed in (0, 1, 2):
        (own,) = seeded_splits(documents, task="t", seeds=[seed], test_fraction=0.25, rng=np.random.default_rng)
        train, test = documents_split(labels, groups, 0.25, np.random.default_rng(seed))
        assert np.array_equal(own.train_index, train) and np.array_equal(own.test_index, test) and own.seed == seed
        assert not set(groups[own.train_index]) & set(groups[own.test_index])


def test_run_experiments_worked_example():
    """3 classes, seed 0: train on documents 1, 3, 5, test on 0, 2, 4.

    View ``x`` = (0, 1, 10, 11, 20, 21): training means a = 1, b = 11, c = 21; the test values 0,
    10, 20 are nearest their own class: accuracy 1. View ``noise`` = (0, 10, 1, 11, 5, 5):
    training means a = 10, b = 11, c = 5; test values 0 -> c, 1 -> c, 5 -> c: only document 4
    (class c) is right, accuracy 1/3. The baseline (each test document's class holds 1/3 of the
    training documents) is 1/3 for both."""
    documents = Documents(LABELS, None, ids=np.arange(100, 106))
    matrices = {"x": np.array([[0], [1], [10], [11], [20], [21]]), "noise": np.array([[0], [10], [1], [11], [5], [5]])}
    calls = []

    def views(split):
        calls.append(split.seed)
        return matrix_views(matrices)(split)

    made = []

    def make(seed, view):
        made.append((seed, view))
        return NearestMean(seed, view)

    splits = grid_splits(documents, task="author", class_sizes=[3], seeds=[0], test_fraction=0.5)
    records = list(run_experiments(documents, splits, views, [Estimator("toy", make, ("x", "noise"))]))
    assert calls == [0]  # the views of a split are built once
    assert made == [(0, "x"), (0, "noise")]
    assert [r.y_pred.tolist() for r in records] == [["a", "b", "c"], ["c", "c", "c"]]
    first = records[0].record()
    assert list(first) == [*KEY_FIELDS, *RECORD_FIELDS]
    assert {k: first[k] for k in KEY_FIELDS} == {
        "task": "author", "n_classes": 3, "seed": 0, "method": "toy", "feature_set": "x", "n_train": 3, "n_test": 3,
    }  # fmt: skip
    assert first["accuracy"] == 1.0 and first["baseline"] == pytest.approx(1 / 3) and first["epochs"] == 7
    assert records[1].record()["accuracy"] == pytest.approx(1 / 3)
    frame = records_frame(records)
    assert frame["feature_set"].tolist() == ["x", "noise"]
    assert frame["accuracy"].tolist() == pytest.approx([1.0, 1 / 3])


def test_views_carry_info_and_context_and_documents_lists():
    """A view of documents (a list, not a matrix) and a view's ``info`` (in the record) and
    ``context`` (beside it)."""
    documents = Documents(LABELS, None)
    values = [(0,), (1,), (10,), (11,), (20,), (21,)]  # a list of "documents"

    def views(split):
        base = matrix_views({"docs": values})(split)["docs"]
        assert isinstance(base.train, list) and base.train == [values[i] for i in split.train_index]
        return {"docs": View(base.train, base.test, {"top_k": 5}, {"words": ("x",)})}

    splits = grid_splits(documents, task="author", class_sizes=[3], seeds=[0], test_fraction=0.5)
    (record,) = run_experiments(documents, splits, views, [Estimator("toy", NearestMean, ("docs",))])
    assert record.record()["top_k"] == 5 and "words" not in record.record()
    assert record.context == {"words": ("x",)}
    assert records_frame([record], extra=("top_k",))["top_k"].tolist() == [5]


def test_a_shared_fit_is_made_once_and_a_loaded_fit_never():
    """Two splits with the same training documents and a view with a ``train_key``: one fit, two
    scores (the second with fit seconds 0); a store that holds the fit: no fit at all."""
    documents = Documents(LABELS, None)
    (split,) = grid_splits(documents, task="author", class_sizes=[3], seeds=[0], test_fraction=0.5)
    x = np.array([[0], [1], [10], [11], [20], [21]])
    halves = [split, type(split)(split.task, 3, 0, split.classes, split.train_index, split.test_index[:1])]

    def views(part):
        return {"x": View(x[part.train_index], x[part.test_index], train_key="whole")}

    made = []

    def make(seed, view):
        made.append(seed)
        return NearestMean(seed, view)

    cache = FitCache()
    records = list(run_experiments(documents, halves, views, [Estimator("toy", make, ("x",))], cache=cache))
    assert made == [0] and [r.record()["n_test"] for r in records] == [3, 1]
    assert records[1].scored.model is records[0].scored.model and records[1].record()["train_seconds"] == 0.0
    assert [r.scored.accuracy for r in records] == [1.0, 1.0]

    loaded = NearestMean(0, "x").fit(np.array([[100], [0], [50]]), np.array(["a", "b", "c"], dtype=object))
    asked = []

    class Store:
        """A fit store (the recognition grid's files, punctstyle.experiments.fit_store.FitStore)."""

        def load(self, key, make, *, classes, train_ids, vocabulary):
            asked.append((key, list(classes), list(train_ids), vocabulary))
            return loaded

    with pytest.raises(ValueError, match="ids"):  # a store is asked for the training documents' ids
        list(run_experiments(documents, halves, views, [Estimator("toy", make, ("x",))], cache=FitCache(Store())))
    ids = Documents(LABELS, None, 100 + np.arange(LABELS.size))
    cache = FitCache(Store())
    records = list(run_experiments(ids, halves, views, [Estimator("toy", make, ("x",))], cache=cache))
    key = FitKey("author", 3, 0, "toy", "x")  # (row, classifier, view)
    assert made == [0] and asked == [(key, list(split.classes), list(100 + split.train_index), None)]
    assert cache.loaded == [key]  # loaded once, never fitted
    # test documents 0, 2, 4 (x = 0, 10, 20): means a = 100, b = 0, c = 50 -> b, b, b: one right
    assert records[0].y_pred.tolist() == ["b", "b", "b"] and records[0].scored.accuracy == pytest.approx(1 / 3)
    # without a train_key nothing is cached
    no_key = list(run_experiments(documents, halves, matrix_views({"x": x}), [Estimator("toy", make, ("x",))],
                                  cache=FitCache(Store())))  # fmt: skip
    assert made == [0, 0, 0] and len(no_key) == 2


def test_run_points_give_each_split_its_own_views_and_share_the_fit():
    """A length curve's shape: the same split twice (a copy each, dataclasses.replace), the test
    documents as they are, then shifted by 10 (a view of them): one fit, each point scored on its
    own view; a split object given twice is refused (its views could not be told apart)."""
    from dataclasses import replace

    from punctstyle.experiments.driver import run_points

    documents = Documents(LABELS, None)
    (split,) = grid_splits(documents, task="author", class_sizes=[3], seeds=[0], test_fraction=0.5)
    x = np.array([[0], [1], [10], [11], [20], [21]])
    made = []

    def make(seed, view):
        made.append(view)
        return NearestMean(seed, view)

    points = [(replace(split), {"x": View(x[split.train_index], x[split.test_index] + shift, train_key="whole")})
              for shift in (0, 10)]
    records = list(run_points(documents, points, [Estimator("toy", make, ("x",))], cache=FitCache()))
    assert made == ["x"]  # one fit (training means a = 1, b = 11, c = 21), scored twice
    assert [r.y_pred.tolist() for r in records] == [["a", "b", "c"], ["b", "c", "c"]]  # 10, 20, 30
    assert all(r.split is p[0] for r, p in zip(records, points, strict=True)) and records[1].scored.train_seconds == 0.0
    with pytest.raises(ValueError, match="a split object of its own"):
        run_points(documents, [points[0], (points[0][0], points[1][1])], [Estimator("toy", make, ("x",))])
