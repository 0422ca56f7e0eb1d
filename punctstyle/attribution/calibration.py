"""Calibration of the attribution MLP's probabilities on held-out books (issue 22 item 18).

The bundle's length curve trains an MLP on the training books of :func:`attribution_split`
and predicts the held-out books cut to each length of the mark grid (and whole). Those
held-out predictions fit one temperature ``T`` (temperature scaling, Guo et al. 2017):

    p'_a = softmax(log p_a / T),  T = argmin_T  - sum_i log p'_{i, y_i}

(the mean negative log-likelihood of the true authors), ``T`` in :data:`TEMPERATURE_BOUNDS`.
``T > 1`` softens over-confident probabilities; the ranking is unchanged (a monotone map of each text's probabilities). The
reliability of the probabilities before and after is the table of :func:`reliability`: per
confidence bin ``[k/B, (k+1)/B)`` of the top probability, the predictions in it, their mean
confidence and their accuracy; the expected calibration error is
``ECE = sum_k n_k / n |accuracy_k - confidence_k|``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from punctstyle.attribution.length import truncate_sequence

TEMPERATURE_BOUNDS: tuple[float, float] = (1.0, 100.0)
"""The temperatures searched (bounded search on ``log T``). Calibration only softens
(``T >= 1``): held-out sets are small, and when every held-out prediction is right the fitted
``T`` would run to 0 (probabilities of 1), the over-confidence it is meant to correct."""
RELIABILITY_BINS: int = 10


def scaled_probabilities(proba: np.ndarray, temperature: float) -> np.ndarray:
    """``softmax(log p / T)`` row by row (``p = 0`` stays 0)."""
    proba = np.asarray(proba, dtype=np.float64)
    with np.errstate(divide="ignore"):
        logits = np.log(proba) / float(temperature)
    logits -= np.max(logits, axis=1, keepdims=True)
    weights = np.exp(logits)
    return weights / weights.sum(axis=1, keepdims=True)


def mean_nll(proba: np.ndarray, truth: np.ndarray) -> float:
    """``-mean_i log p_{i, y_i}`` (``truth``: column index of each row's true class)."""
    picked = np.asarray(proba, dtype=np.float64)[np.arange(len(truth)), truth]
    return float(-np.mean(np.log(np.clip(picked, 1e-300, None))))


def fit_temperature(proba: np.ndarray, truth: np.ndarray) -> float:
    """The ``T`` of :data:`TEMPERATURE_BOUNDS` minimising :func:`mean_nll` of the scaled
    probabilities (bounded scalar search on ``log T``)."""
    from scipy.optimize import minimize_scalar

    low, high = np.log(TEMPERATURE_BOUNDS)
    result = minimize_scalar(lambda log_t: mean_nll(scaled_probabilities(proba, np.exp(log_t)), truth),
                             bounds=(low, high), method="bounded", options={"xatol": 1e-4})
    # The bounded search stops within xatol of the bound, not on it: when no temperature
    # improves on the raw probabilities (T = 1, the lower bound), keep them as they are.
    if mean_nll(scaled_probabilities(proba, np.exp(result.x)), truth) >= mean_nll(proba, truth):
        return 1.0
    return float(np.exp(result.x))


def reliability(proba: np.ndarray, truth: np.ndarray, bins: int = RELIABILITY_BINS) -> dict[str, Any]:
    """``{"ece", "bins": [{"low", "high", "n", "confidence", "accuracy"}]}`` of the top
    probability (empty bins left out; module docstring)."""
    proba = np.asarray(proba, dtype=np.float64)
    confidence = proba.max(axis=1)
    correct = proba.argmax(axis=1) == np.asarray(truth)
    which = np.minimum((confidence * bins).astype(np.int64), bins - 1)
    rows, ece = [], 0.0
    for k in range(bins):
        members = which == k
        n = int(members.sum())
        if n == 0:
            continue
        mean_confidence = float(confidence[members].mean())
        accuracy = float(correct[members].mean())
        ece += n / len(confidence) * abs(accuracy - mean_confidence)
        rows.append({"low": k / bins, "high": (k + 1) / bins, "n": n, "confidence": mean_confidence,
                     "accuracy": accuracy})
    return {"ece": float(ece), "bins": rows}


def calibration_record(proba: np.ndarray, truth: np.ndarray) -> dict[str, Any]:
    """The ``calibration`` block of ``threshold.json``: ``temperature``, ``n_predictions``,
    ``nll_before``/``nll_after`` and the reliability tables ``before``/``after``."""
    temperature = fit_temperature(proba, truth)
    after = scaled_probabilities(proba, temperature)
    return {
        "method": "temperature scaling on held-out predictions of the length curve",
        "temperature": temperature,
        "n_predictions": int(len(truth)),
        "nll_before": mean_nll(proba, truth),
        "nll_after": mean_nll(after, truth),
        "before": reliability(proba, truth),
        "after": reliability(after, truth),
    }


def held_out_predictions(model: Any, sequences: Sequence[Any], labels: Sequence[Any], test_rows: np.ndarray,
                         full_features: np.ndarray, features_of: Callable[[np.ndarray, np.ndarray], np.ndarray],
                         grid: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """``(proba, truth)`` of ``model`` (``predict_proba``, ``classes``) on the held-out rows,
    whole and cut to each grid length (:func:`punctstyle.attribution.length.truncate_sequence`);
    rows whose author the model does not know are left out."""

    y = np.asarray(labels, dtype=object)
    index = {c: k for k, c in enumerate(model.classes)}
    known = [i for i in np.asarray(test_rows).tolist() if y[i] in index]
    if not known:
        return np.zeros((0, len(index))), np.zeros(0, np.int64)
    inputs = [np.asarray(full_features)[known]]
    for n in sorted({int(n) for n in grid}):
        inputs.append(np.stack([features_of(*truncate_sequence(*sequences[i], n)) for i in known]))
    proba = model.predict_proba(np.concatenate(inputs))
    truth = np.tile(np.array([index[y[i]] for i in known], dtype=np.int64), len(inputs))
    return proba, truth


__all__ = [
    "calibration_record",
    "fit_temperature",
    "held_out_predictions",
    "mean_nll",
    "reliability",
    "scaled_probabilities",
]
