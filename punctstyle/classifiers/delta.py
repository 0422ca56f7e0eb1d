"""Burrows' Delta (Burrows 2002) in three variants (``variant``, config ``recognition.delta``);
the default is ours, neither stylo's nor faststylometry's.

* ``centroid`` (default, ours): z-scores of each *book* with the training books' statistics,
  then the nearest *author centroid* (the mean z-score of the author's training books).
* ``nearest_text`` (stylo's ``classify()`` with Delta): the nearest *training text*; a test
  text takes the author of the training text with the smallest Delta. ``zscore_over``
  chooses the rows the z-score statistics come from: ``training`` (default; stylo's
  ``classify()`` default, ``z.scores.of.all.samples = FALSE``) or ``all`` (training and test
  rows: ``z.scores.of.all.samples = TRUE``, and the default of stylo's ``perform.delta()``
  called on its own, ``z.scores.both.sets = TRUE``).
* ``pooled_profile`` (faststylometry's ``calculate_burrows_delta``): each author pooled into
  one profile (here the mean of its books' relative frequencies, each book weighted equally;
  faststylometry pools the tokens, which weights books by length), z-score statistics over
  the author *profiles* (``ddof = 1``), and the nearest profile.

On an (n, d) matrix of features (the word baselines: relative frequencies of the row's top-k
training words, :mod:`punctstyle.corpus.words`), with ``mu_i`` and ``sigma_i`` the mean and sample
standard deviation (``ddof = 1``) of column ``i`` over the training documents:

* z-scores ``z_i(x) = (x_i - mu_i) / sigma_i`` (a column constant over the training
  documents, ``sigma_i = 0``, gets ``sigma_i = 1``);
* class centroid ``c_j = (1/|D_j|) sum_{k in D_j} z(x_k)``;
* ``Delta(x, c_j) = (1/d) sum_i |z_i(x) - c_{j,i}|``; a test document goes to
  ``argmin_j Delta`` (the first class in sorted order on a tie).

The z-scores and Delta are those of :mod:`punctstyle.distances` (each formula once).

With one training document per class all three variants are faststylometry's ``calculate_burrows_delta``
(z-scores over the author profiles, ``ddof = 1``), which ``tests/unit/test_delta.py`` checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from punctstyle.classifiers.kl_nearest import class_signatures
from punctstyle.distances import DEFAULT_MAX_CELLS, delta, zscore_statistics, zscores


def fit_zscores(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Training mean and sample standard deviation (``ddof = 1``) per column, 0 -> 1
    (:func:`punctstyle.distances.zscore_statistics`), from at least 2 training documents."""
    X = np.asarray(X, dtype=np.float64)
    if X.shape[0] < 2:
        raise ValueError(f"Burrows' Delta needs at least 2 training documents, got {X.shape[0]}")
    return zscore_statistics(X)


VARIANTS = ("centroid", "nearest_text", "pooled_profile")
ZSCORE_ROWS = ("training", "all")


def class_minimum(D: np.ndarray, labels: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """``M[k, j] = min over training texts t of class j of D[k, t]``: (n_docs, n_classes)."""
    return np.stack([D[:, labels == c].min(axis=1) for c in classes], axis=1)


class BurrowsDelta:
    """The registered ``delta`` classifier (module docstring). Deterministic: ``seed`` and
    ``feature_set`` are accepted (the registry's factory call) and not used. ``variant``:
    one of :data:`VARIANTS`; ``zscore_over``: one of :data:`ZSCORE_ROWS` (``all`` computes
    the statistics again at each :meth:`distances` call, over the training and given rows)."""

    def __init__(
        self,
        *,
        seed: int,
        feature_set: tuple[str, ...],
        variant: str = "centroid",
        zscore_over: str = "training",
        **_: Any,
    ) -> None:
        if variant not in VARIANTS:
            raise ValueError(f"unknown Delta variant {variant!r}: expected one of {list(VARIANTS)}")
        if zscore_over not in ZSCORE_ROWS:
            raise ValueError(f"unknown Delta zscore_over {zscore_over!r}: expected one of {list(ZSCORE_ROWS)}")
        self.feature_set = feature_set
        self.variant = variant
        self.zscore_over = zscore_over
        self.mean = np.empty(0)
        self.sd = np.empty(0)
        self.classes = np.empty(0, dtype=object)
        self.centroids = np.empty((0, 0))
        self.train_rows = np.empty((0, 0))
        self.train_labels = np.empty(0, dtype=object)

    def zscores(self, X: np.ndarray) -> np.ndarray:
        """``(X - mean) / sd`` with the training statistics (:func:`punctstyle.distances.zscores`)."""
        return zscores(X, self.mean, self.sd)

    def reference_rows(self) -> np.ndarray:
        """The raw rows Delta is measured to: the training texts, or one profile per class
        (``pooled_profile``: the mean of the class's rows)."""
        if self.variant == "pooled_profile":
            return np.stack([self.train_rows[self.train_labels == c].mean(axis=0) for c in self.classes])
        return self.train_rows

    def fit(self, X: np.ndarray, y: Sequence[Any]) -> BurrowsDelta:
        """Training z-score statistics and the references of the variant: the mean z-score
        of each class (``centroid``), the training texts, or the class profiles."""
        self.train_rows = np.asarray(X, dtype=np.float64)
        self.train_labels = np.asarray(y, dtype=object)
        self.classes = np.array(sorted(set(self.train_labels.tolist())), dtype=object)
        stats_rows = self.reference_rows() if self.variant == "pooled_profile" else self.train_rows
        self.mean, self.sd = fit_zscores(stats_rows)
        self.classes, self.centroids, _ = class_signatures(self.zscores(self.train_rows), self.train_labels)
        if self.variant != "centroid":
            self.centroids = self.zscores(self.reference_rows())
        return self

    def distances(self, X: np.ndarray, max_cells: int = DEFAULT_MAX_CELLS) -> np.ndarray:
        """Delta of each row to each class (:func:`punctstyle.distances.delta`; ``nearest_text``:
        to the class's nearest training text), in batches of at most ``max_cells`` differences."""
        X = np.asarray(X, dtype=np.float64)
        references = self.centroids
        if self.zscore_over == "all":
            base = self.reference_rows() if self.variant == "pooled_profile" else self.train_rows
            self.mean, self.sd = fit_zscores(np.vstack([base, X]))
            if self.variant == "centroid":
                _, references, _ = class_signatures(self.zscores(self.train_rows), self.train_labels)
            else:
                references = self.zscores(self.reference_rows())
        D = delta(self.zscores(X), references, max_cells=max_cells)
        if self.variant == "nearest_text":
            return class_minimum(D, self.train_labels, self.classes)
        return D

    def predict(self, X: np.ndarray) -> np.ndarray:
        """The class at the smallest Delta (the first in sorted order on a tie)."""
        return self.classes[np.argmin(self.distances(X), axis=1)]
