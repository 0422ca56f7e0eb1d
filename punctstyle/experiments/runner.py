"""One classifier on one row's split: fit on the training documents, predict the test documents,
score (section 2.5 of the paper). Every experiment of the package (recognition grid, sequence
network, ...) gets its scores through :func:`run_split`, so every record has one schema
(:data:`RECORD_FIELDS`) and the baseline and diagnostics are computed once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from punctstyle.experiments.metrics import accuracy, baseline_accuracy


@dataclass
class Scored:
    """The outcome of one (row, classifier, feature view): the predictions, ``accuracy`` (correct
    test documents / test documents), ``baseline`` (the proportional random classifier's expected
    accuracy on the same split), the classifier's diagnostics (``n_fallback``, ``epochs``: 0 when it
    reports none), the wall seconds of ``fit`` and ``predict``, and the fitted model."""

    y_pred: np.ndarray
    accuracy: float
    baseline: float
    n_fallback: int
    epochs: int
    diagnostics: dict
    train_seconds: float
    predict_seconds: float
    model: Any

    def record(self) -> dict[str, Any]:
        """The scalar fields (:data:`RECORD_FIELDS`)."""
        return {name: getattr(self, name) for name in RECORD_FIELDS}


RECORD_FIELDS: tuple[str, ...] = ("accuracy", "baseline", "n_fallback", "epochs", "train_seconds", "predict_seconds")
"""The scalar fields of every scored experiment."""
assert set(RECORD_FIELDS) <= {f.name for f in fields(Scored)}


def score_fitted(
    model: Any,
    test_inputs: Any,
    y_train: Sequence[Any],
    y_test: Sequence[Any],
    *,
    train_seconds: float = 0.0,
) -> Scored:
    """Predict ``test_inputs`` with a fitted ``model`` (trained on labels ``y_train``) and score
    against ``y_test``: accuracy, the baseline of the split (training sizes of ``y_train``) and the
    model's diagnostics. A model fitted once may be scored on several test views (the length curve
    scores one whole-document fit at every excerpt length)."""
    y_train = np.asarray(y_train, dtype=object)
    y_test = np.asarray(y_test, dtype=object)
    t1 = time.perf_counter()
    y_pred = np.asarray(model.predict(test_inputs), dtype=object)
    t2 = time.perf_counter()
    diagnostics = model.diagnostics() if hasattr(model, "diagnostics") else {}
    return Scored(
        y_pred=y_pred,
        accuracy=accuracy(y_test, y_pred),
        baseline=baseline_accuracy(y_train, y_test),
        n_fallback=int(diagnostics.get("n_fallback", 0)),
        epochs=int(diagnostics.get("epochs", 0)),
        diagnostics=diagnostics,
        train_seconds=train_seconds,
        predict_seconds=t2 - t1,
        model=model,
    )


def fit(make: Callable[[], Any], train_inputs: Any, y_train: Sequence[Any]) -> tuple[Any, float]:
    """A fresh ``make()`` fitted on (``train_inputs``, ``y_train``), and the wall seconds of the fit."""
    model = make()
    t0 = time.perf_counter()
    model.fit(train_inputs, np.asarray(y_train, dtype=object))
    return model, time.perf_counter() - t0


def run_split(
    make: Callable[[], Any],
    train_inputs: Any,
    y_train: Sequence[Any],
    test_inputs: Any,
    y_test: Sequence[Any],
) -> Scored:
    """Fit ``make()`` on (``train_inputs``, ``y_train``) and predict ``test_inputs`` (a feature
    matrix's rows or a list of documents, whatever the classifier takes); score against ``y_test``
    (:func:`fit`, then :func:`score_fitted`)."""
    model, seconds = fit(make, train_inputs, y_train)
    return score_fitted(model, test_inputs, y_train, y_test, train_seconds=seconds)
