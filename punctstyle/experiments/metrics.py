"""Evaluation of the recognition experiments (section 2.5 of the paper).

Accuracy = correctly assigned test documents / test documents; the baseline assigns each
test document to class ``c`` with probability ``|D_c| / sum_j |D_j|`` (training sizes).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd


def accuracy(y_true: Sequence[Any], y_pred: Sequence[Any]) -> float:
    """Fraction of test documents whose predicted class is the true class."""
    t, p = np.asarray(y_true, dtype=object), np.asarray(y_pred, dtype=object)
    return float(np.mean(t == p)) if t.size else math.nan


def baseline_accuracy(train_labels: Sequence[Any], test_labels: Sequence[Any]) -> float:
    """Expected accuracy of the proportional random classifier (section 2.5).

    Each test document is assigned to class ``c`` with probability ``n_c / n_train``
    (training sizes), so it is correct with probability ``n_{c(k)} / n_train``; the
    expected accuracy is ``(1 / n_test) sum_k n_{c(k)} / n_train``.
    """
    train = np.asarray(train_labels, dtype=object)
    test = np.asarray(test_labels, dtype=object)
    if test.size == 0:
        return math.nan
    classes, counts = np.unique(train, return_counts=True)
    position = np.searchsorted(classes, test)
    position = np.minimum(position, classes.size - 1)
    known = classes[position] == test
    share = np.where(known, counts[position] / train.size, 0.0)
    return float(share.mean())


def confusion_matrix(
    y_true: Sequence[Any], y_pred: Sequence[Any], labels: Sequence[Any] | None = None
) -> pd.DataFrame:
    """Counts ``C[a, b]`` = test documents of true class ``a`` predicted as ``b``.

    Rows and columns follow ``labels`` (default: the sorted union of both sequences).
    """
    t, p = np.asarray(y_true, dtype=object), np.asarray(y_pred, dtype=object)
    classes = np.unique(np.concatenate([t, p])) if labels is None else np.asarray(labels, dtype=object)
    index = pd.Index(classes)
    ti, pi = index.get_indexer(t), index.get_indexer(p)
    if (ti < 0).any() or (pi < 0).any():
        raise ValueError("a true or predicted class is missing from labels")
    counts = np.bincount(ti * classes.size + pi, minlength=classes.size**2).reshape(classes.size, -1)
    return pd.DataFrame(
        counts, index=pd.Index(classes, name="true"), columns=pd.Index(classes, name="predicted")
    )


def per_class_accuracy(y_true: Sequence[Any], y_pred: Sequence[Any]) -> pd.DataFrame:
    """One row per true class: ``class``, ``n_test``, ``n_correct``, ``accuracy``."""
    t, p = np.asarray(y_true, dtype=object), np.asarray(y_pred, dtype=object)
    classes, inverse, n_test = np.unique(t, return_inverse=True, return_counts=True)
    correct = np.bincount(inverse, weights=(t == p).astype(np.float64), minlength=classes.size)
    return pd.DataFrame(
        {
            "class": classes,
            "n_test": n_test,
            "n_correct": correct.astype(np.int64),
            "accuracy": correct / n_test,
        }
    )
