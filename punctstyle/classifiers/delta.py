"""Burrows' Delta, nearest author centroid (Burrows 2002; as in stylo and faststylometry).

On an (n, d) matrix of features (the word baselines: relative frequencies of the row's top-k
training words, :mod:`punctstyle.words`), with ``mu_i`` and ``sigma_i`` the mean and sample
standard deviation (``ddof = 1``) of column ``i`` over the training documents:

* z-scores ``z_i(x) = (x_i - mu_i) / sigma_i`` (a column constant over the training
  documents, ``sigma_i = 0``, gets ``sigma_i = 1``);
* class centroid ``c_j = (1/|D_j|) sum_{k in D_j} z(x_k)``;
* ``Delta(x, c_j) = (1/d) sum_i |z_i(x) - c_{j,i}|``; a test document goes to
  ``argmin_j Delta`` (the first class in sorted order on a tie).

With one training document per class this is faststylometry's ``calculate_burrows_delta``
(z-scores over the author profiles, ``ddof = 1``), which ``tests/unit/test_delta.py`` checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from punctstyle.classifiers.kl_nearest import class_signatures


def fit_zscores(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Training mean and sample standard deviation (``ddof = 1``) per column; 0 -> 1."""
    X = np.asarray(X, dtype=np.float64)
    if X.shape[0] < 2:
        raise ValueError(f"Burrows' Delta needs at least 2 training documents, got {X.shape[0]}")
    mean = X.mean(axis=0)
    sd = X.std(axis=0, ddof=1)
    return mean, np.where(sd > 0, sd, 1.0)


def delta_distances(Z: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    """``D[k, j] = (1/d) sum_i |Z[k, i] - centroids[j, i]|``: (n_docs, n_classes)."""
    Z, centroids = np.asarray(Z, np.float64), np.asarray(centroids, np.float64)
    return np.abs(Z[:, None, :] - centroids[None, :, :]).mean(axis=2)


class BurrowsDelta:
    """The registered ``delta`` classifier (module docstring). Deterministic: ``seed`` and
    ``feature_set`` are accepted (the registry's factory call) and not used."""

    def __init__(self, *, seed: int, feature_set: tuple[str, ...], **_: Any) -> None:
        self.feature_set = feature_set
        self.mean = np.empty(0)
        self.sd = np.empty(0)
        self.classes = np.empty(0, dtype=object)
        self.centroids = np.empty((0, 0))

    def zscores(self, X: np.ndarray) -> np.ndarray:
        """``(X - mean) / sd`` with the training statistics."""
        return (np.asarray(X, dtype=np.float64) - self.mean) / self.sd

    def fit(self, X: np.ndarray, y: Sequence[Any]) -> BurrowsDelta:
        """Training z-score statistics and the mean z-score of each class."""
        self.mean, self.sd = fit_zscores(X)
        self.classes, self.centroids, _ = class_signatures(self.zscores(X), y)
        return self

    def distances(self, X: np.ndarray, max_cells: int = 16_000_000) -> np.ndarray:
        """Delta of each row to each class centroid (:func:`delta_distances`), in batches of
        rows of at most ``max_cells`` differences (128 MB)."""
        Z = self.zscores(X)
        batch = max(1, max_cells // max(1, self.centroids.size))
        parts = [delta_distances(Z[i : i + batch], self.centroids) for i in range(0, Z.shape[0], batch)]
        return np.concatenate(parts) if parts else np.zeros((0, self.classes.size))

    def predict(self, X: np.ndarray) -> np.ndarray:
        """The class of the nearest centroid."""
        return self.classes[np.argmin(self.distances(X), axis=1)]
