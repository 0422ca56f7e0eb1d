"""KL nearest-class classification (section 2.4 of the paper).

The class signature is the mean training feature, ``f^{l,c_j}_i = (1/|D_j|) sum_{k in D_j}
f^{l,k}_i``, and a test document ``k`` goes to ``argmin_j d_KL(f^{l,c_j}, f^{l,k})`` (class
first, document second), for one distribution feature ``l`` in {1, 3, 4, 5} at a time. An
empty common support (NaN) never wins; a document whose divergences are all NaN goes to the
largest training class.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from punctstyle.divergence import pairwise_kl


def class_signatures(X: np.ndarray, labels: Sequence[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(classes, signatures, counts): the mean feature of each class's documents.

    ``signatures[j] = (1/|D_j|) sum_{k in D_j} X[k]`` for the sorted classes ``c_j``.
    """
    X = np.asarray(X, dtype=np.float64)
    classes, inverse, counts = np.unique(
        np.asarray(labels, dtype=object), return_inverse=True, return_counts=True
    )
    sums = np.zeros((classes.size, X.shape[1]))
    np.add.at(sums, inverse, X)
    return classes, sums / counts[:, None], counts


def kl_nearest(signatures: np.ndarray, X: np.ndarray, fallback: int) -> tuple[np.ndarray, int]:
    """Index of the nearest signature of each row of ``X``, and the number of fallbacks.

    ``argmin_j d_KL(signature_j, X[k])`` (signature first, document second); NaN (empty
    common support) counts as +inf; a document with all-NaN divergences gets ``fallback``.
    """
    D = pairwise_kl(signatures, X)  # (n_classes, n_docs)
    D = np.where(np.isnan(D), np.inf, D)
    nearest = np.argmin(D, axis=0)
    undefined = np.isinf(D).all(axis=0)
    nearest[undefined] = fallback
    return nearest, int(undefined.sum())


def classify_kl(X_train: np.ndarray, y_train: Sequence[Any], X_test: np.ndarray) -> tuple[np.ndarray, int]:
    """KL-nearest-class predictions for ``X_test`` and the count of all-NaN fallbacks.

    The fallback is the largest training class (the first in sorted order on a tie).
    """
    classes, signatures, counts = class_signatures(X_train, y_train)
    nearest, n_fallback = kl_nearest(signatures, X_test, int(np.argmax(counts)))
    return classes[nearest], n_fallback


class KLNearestClass:
    """The registered ``kl`` classifier: class signatures, then KL-nearest signature.

    Deterministic: ``seed`` and ``feature_set`` are accepted (the registry's factory call)
    and not used.
    """

    def __init__(self, *, seed: int, feature_set: tuple[str, ...]) -> None:
        self.feature_set = feature_set
        self.classes = np.empty(0, dtype=object)
        self.signatures = np.empty((0, 0))
        self.fallback = 0
        self.n_fallback = 0

    def fit(self, X: np.ndarray, y: Sequence[Any]) -> KLNearestClass:
        """Mean training feature of each class (:func:`class_signatures`)."""
        self.classes, self.signatures, counts = class_signatures(X, y)
        self.fallback = int(np.argmax(counts))
        return self

    def predict(self, X: np.ndarray) -> np.ndarray:
        """The KL-nearest class of each row (:func:`kl_nearest`); counts the fallbacks."""
        nearest, self.n_fallback = kl_nearest(self.signatures, X, self.fallback)
        return self.classes[nearest]

    def diagnostics(self) -> dict[str, int]:
        """``n_fallback``: test documents with no defined divergence to any class."""
        return {"n_fallback": self.n_fallback}
