"""Burrows' Delta (punctstyle.classifiers.delta): a hand-computed example and faststylometry's numbers."""

from __future__ import annotations

import numpy as np
import pytest

from punctstyle.classifiers import build_classifier, display_name
from punctstyle.classifiers.delta import BurrowsDelta, delta_distances, fit_zscores


def test_delta_on_three_documents_by_hand():
    # column 1: 1, 2, 3 (mean 2, sample sd 1); column 2: 2, 4, 6 (mean 4, sd 2)
    X = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
    model = BurrowsDelta(seed=0, feature_set=("words2",)).fit(X, np.array(["A", "B", "C"], dtype=object))
    assert model.mean.tolist() == [2.0, 4.0] and model.sd.tolist() == [1.0, 2.0]
    assert model.centroids.tolist() == [[-1.0, -1.0], [0.0, 0.0], [1.0, 1.0]]
    # x = (2.5, 3): z = (0.5, -0.5); Delta to A = (1.5 + 0.5)/2, to B = (0.5 + 0.5)/2, to C = (0.5 + 1.5)/2
    x = np.array([[2.5, 3.0]])
    assert model.distances(x).tolist() == [[1.0, 0.5, 1.0]]
    assert model.predict(x).tolist() == ["B"]


def test_centroid_is_the_mean_z_score_of_the_class():
    X = np.array([[0.0], [2.0], [4.0], [10.0]])  # mean 4, sample sd sqrt(56/3)
    model = BurrowsDelta(seed=0, feature_set=("words1",)).fit(X, np.array(["A", "A", "B", "B"], dtype=object))
    sd = np.sqrt(56 / 3)
    assert model.centroids[:, 0] == pytest.approx([(-4 - 2) / 2 / sd, (0 + 6) / 2 / sd])
    assert model.predict(np.array([[1.0], [9.0]])).tolist() == ["A", "B"]


def test_constant_columns_get_unit_scale():
    mean, sd = fit_zscores(np.array([[1.0, 5.0], [3.0, 5.0]]))
    assert mean.tolist() == [2.0, 5.0] and sd.tolist() == [pytest.approx(np.sqrt(2)), 1.0]
    with pytest.raises(ValueError, match="at least 2 training documents"):
        fit_zscores(np.array([[1.0]]))


def test_delta_distances_are_mean_absolute_differences():
    D = delta_distances(np.array([[0.0, 0.0, 3.0]]), np.array([[1.0, -1.0, 0.0], [0.0, 0.0, 0.0]]))
    assert D.tolist() == [[5 / 3, 1.0]]


def test_delta_equals_faststylometry_with_one_book_per_author():
    """faststylometry 1.0.5, ``calculate_burrows_delta(train, test, vocab_size=3)`` on token
    lists: A = the x5 of x3 and x2, B = the x2 of x4 and x4, C = the x3 of and; test T = the x4
    of x2 and x2. It z-scores the author profiles with ``std(ddof=1)``; with one book per
    author those are our training documents. Its output (printed with repr):
    A 0.311004233964073, B 1.4133971633074809, C 0.47113238776916017."""
    X = np.array([[5, 3, 2], [2, 4, 4], [3, 1, 1]]) / np.array([[10], [10], [5]])
    model = build_classifier("delta", seed=0, feature_set=("words3",)).fit(X, np.array(["A", "B", "C"], dtype=object))
    D = model.distances(np.array([[4, 2, 2]]) / 8)
    assert D[0] == pytest.approx([0.311004233964073, 1.4133971633074809, 0.47113238776916017], rel=1e-12)
    assert display_name("delta") == "Burrows' Delta"


def test_delta_batches_give_the_same_distances():
    rng = np.random.default_rng(0)
    X, y = rng.random((30, 7)), np.repeat(np.array(["a", "b", "c"], dtype=object), 10)
    model = BurrowsDelta(seed=0, feature_set=("words7",)).fit(X, y)
    Z = rng.random((25, 7))
    assert np.allclose(model.distances(Z, max_cells=21), model.distances(Z))
